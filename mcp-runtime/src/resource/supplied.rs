//! The parameters of a resource function that no URI template variable feeds: the runtime
//! must supply them, and a type it cannot supply is reported on the parameter.

use std::marker::PhantomData;

use crate::context::Context;
use crate::handler::{FromContext, Requirements};

/// A parameter that no argument or URI variable feeds, so the runtime must supply it.
///
/// `#[mcp_resource]` spans this bound over the parameter's name and type: the name is what
/// matches a URI template variable.
#[diagnostic::on_unimplemented(
    message = "this resource parameter needs a URI template variable of the same name, or a type the runtime supplies; `{Self}` is not supplied",
    label = "no `{{...}}` variable of the `uri` has this parameter's name",
    note = "add the parameter's name to the `uri` as a `{{variable}}` (which makes it a URI template), or take a value the runtime supplies: `Context`, `State<T>`, any `mcp_runtime::FromContext` type"
)]
pub trait SuppliedParam: Sized {
    /// Records what the value needs from the server.
    fn declare(requirements: &mut Requirements);
    /// Obtains the value for one request.
    fn supply(ctx: &Context) -> Result<Self, String>;

    /// [`declare`](SuppliedParam::declare), the type given by a value. Generated code spans
    /// that value over the parameter's name and type, where an unsupplied type is reported.
    #[doc(hidden)]
    fn declare_as(_: PhantomData<Self>, requirements: &mut Requirements) {
        Self::declare(requirements);
    }

    /// [`supply`](SuppliedParam::supply), the type given by a value (see `declare_as`).
    #[doc(hidden)]
    fn supply_as(_: PhantomData<Self>, ctx: &Context) -> Result<Self, String> {
        Self::supply(ctx)
    }
}

#[diagnostic::do_not_recommend]
impl<T: FromContext> SuppliedParam for T {
    fn declare(requirements: &mut Requirements) {
        T::declare(requirements);
    }

    fn supply(ctx: &Context) -> Result<Self, String> {
        T::from_context(ctx)
    }
}
