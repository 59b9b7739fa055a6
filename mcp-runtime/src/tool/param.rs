//! How each parameter of a tool function is obtained, decided by its type.
//!
//! A parameter is either an *argument*, decoded from `arguments` and described in the
//! `inputSchema`, or a value the runtime *supplies* (the request [`Context`], shared
//! [`State`](crate::State)). Which one is decided by the traits its type implements, through
//! the marker-type technique axum uses for extractors: [`ToolParam<M>`] has one blanket impl
//! per marker, so a type that deserializes is an argument, a type that implements
//! [`FromContext`] is supplied, and the spelling of the type never matters (aliases work).

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::Arguments;
use crate::context::Context;
use crate::schema::InputSchema;

/// What a handler's supplied parameters need from the server, checked when it is built.
#[derive(Debug, Default)]
pub struct Requirements {
    pub(crate) states: Vec<crate::context::StateNeed>,
}

impl Requirements {
    /// The handler reads state of type `T` (given with `ServerBuilder::state`).
    pub fn state<T: 'static>(&mut self) {
        self.states.push(crate::context::StateNeed::of::<T>());
    }
}

/// Marker: the parameter is decoded from the call's arguments.
#[derive(Debug)]
pub enum FromArguments {}

/// Marker: the parameter is supplied by the runtime.
#[derive(Debug)]
pub enum FromRequestContext {}

/// A type a tool function can take as a parameter.
///
/// Implemented for every `Deserialize + JsonSchema` type (an argument) and every
/// [`FromContext`] type (supplied by the runtime). Implement one of those, not this.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of an MCP tool",
    label = "neither an argument type nor a value the runtime supplies",
    note = "an argument's type implements `serde::Deserialize` and `schemars::JsonSchema`: add `#[derive(Deserialize, JsonSchema)]` to your type (both are in `mcp_runtime::prelude`)",
    note = "the values the runtime supplies implement `mcp_runtime::FromContext`: `Context`, and `State<T>` for a `T` that is `Send + Sync + 'static`"
)]
pub trait ToolParam<M>: Sized {
    /// Adds the parameter to the tool's description (the `inputSchema` for an argument).
    fn describe(schema: &mut InputSchema, name: &str, description: Option<&str>);

    /// Obtains the parameter for one call.
    fn extract(args: &mut Arguments, name: &str, ctx: &Context) -> Result<Self, String>;
}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema> ToolParam<FromArguments> for T {
    fn describe(schema: &mut InputSchema, name: &str, description: Option<&str>) {
        schema.add::<T>(name, description);
    }

    fn extract(args: &mut Arguments, name: &str, _ctx: &Context) -> Result<T, String> {
        args.decode(name)
    }
}

/// A value the runtime supplies to a handler from the request being served.
///
/// Implement it for your own types to have them passed to tools like [`Context`] is (an
/// authenticated user, a database handle taken from state, ...).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not something the runtime can supply to a handler",
    note = "implement `mcp_runtime::FromContext` for it"
)]
pub trait FromContext: Sized {
    /// Takes the value from the request's context; an `Err` fails the call with that message.
    fn from_context(ctx: &Context) -> Result<Self, String>;

    /// Records, when a server is built, what the value will need (the state it reads), so a
    /// missing piece is reported at start-up rather than on the first call.
    fn declare(_requirements: &mut Requirements) {}
}

#[diagnostic::do_not_recommend]
impl<T: FromContext> ToolParam<FromRequestContext> for T {
    fn describe(schema: &mut InputSchema, _name: &str, _description: Option<&str>) {
        T::declare(&mut schema.requirements);
    }

    fn extract(_args: &mut Arguments, _name: &str, ctx: &Context) -> Result<T, String> {
        T::from_context(ctx)
    }
}

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
