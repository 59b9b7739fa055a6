//! How each parameter of a prompt or resource-template function is obtained.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::{ArgumentSpecs, StringArgs};
use crate::completion::Completer;
use crate::context::Context;
use crate::tool::{FromArguments, FromContext, FromRequestContext};

/// A type a prompt or resource-template function can take as a parameter: a value decoded
/// from a string argument, or a value the runtime supplies ([`FromContext`]).
///
/// A URI template variable, and a prompt argument with `#[complete(...)]`, must be decoded
/// from its string: the macros ask for `StringParam<FromArguments>` there.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a prompt argument or a URI template variable: their values arrive as strings",
    label = "cannot be decoded from a string",
    note = "take `String`, a number, `bool`, or an enum of unit variants with `#[derive(Deserialize, JsonSchema)]` (both in `mcp_runtime::prelude`); `Option<...>` of one of these is optional",
    note = "a prompt can also take values the runtime supplies (`Context`, `State<T>`, any `mcp_runtime::FromContext` type); those are not decoded from strings, so they cannot be URI template variables or take `#[complete(...)]`"
)]
pub trait StringParam<M>: Sized {
    /// Adds the parameter to the handler's argument list.
    fn describe(
        specs: &mut ArgumentSpecs,
        name: &str,
        description: Option<&str>,
        completer: Option<Completer>,
    );

    /// Obtains the parameter for one request.
    fn extract(args: &mut StringArgs, name: &str, ctx: &Context) -> Result<Self, String>;
}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema> StringParam<FromArguments> for T {
    fn describe(
        specs: &mut ArgumentSpecs,
        name: &str,
        description: Option<&str>,
        completer: Option<Completer>,
    ) {
        specs.add::<T>(name, description, completer);
    }

    fn extract(args: &mut StringArgs, name: &str, _ctx: &Context) -> Result<T, String> {
        args.decode(name)
    }
}

#[diagnostic::do_not_recommend]
impl<T: FromContext> StringParam<FromRequestContext> for T {
    fn describe(
        specs: &mut ArgumentSpecs,
        _name: &str,
        _description: Option<&str>,
        _completer: Option<Completer>,
    ) {
        T::declare(&mut specs.requirements);
    }

    fn extract(_args: &mut StringArgs, _name: &str, ctx: &Context) -> Result<T, String> {
        T::from_context(ctx)
    }
}
