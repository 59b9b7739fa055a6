//! How each parameter of a handler is obtained, decided by its type: one trait, [`Param`],
//! generic over where the handler's arguments come from.
//!
//! A parameter is either an *argument*, decoded from the request's arguments and described in
//! the handler's definition, or a value the runtime *supplies* ([`FromContext`]: the request
//! `Context`, shared `State`). [`Param<S, M>`] has one blanket impl per marker `M`
//! ([`FromArguments`], [`FromRequestContext`]), so the traits a type implements decide, never
//! its spelling. The source `S` is an [`ArgumentSource`]: a tool's JSON `arguments`, or the
//! strings of a prompt's arguments and a URI template's variables.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::{FromArguments, FromContext, FromRequestContext, Requirements};
use crate::completion::Completer;
use crate::context::Context;

/// Where a handler's arguments come from, and what describing one of them adds to.
pub trait ArgumentSource {
    /// What the parameters are described into: a tool's `inputSchema`, the argument list of a
    /// prompt or a URI template.
    type Description;

    /// Adds argument `name` of type `T` to the description.
    fn describe<T: DeserializeOwned + JsonSchema>(
        into: &mut Self::Description,
        name: &str,
        description: Option<&str>,
        completer: Option<Completer>,
    );

    /// Where the description records what supplied parameters need from the server.
    fn requirements(into: &mut Self::Description) -> &mut Requirements;

    /// Decodes argument `name` as a `T`, saying what was expected if it does not fit.
    fn decode<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Result<T, String>;
}

/// A type a handler function can take as a parameter, its arguments coming from `S`.
///
/// Implemented for every `Deserialize + JsonSchema` type (an argument) and every
/// [`FromContext`] type (supplied by the runtime). Implement one of those, not this.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of an MCP handler",
    label = "neither an argument type nor a value the runtime supplies",
    note = "an argument's type implements `serde::Deserialize` and `schemars::JsonSchema` of schemars 1.x: add `#[derive(Deserialize, JsonSchema)]` to your type (both names are in `mcp_runtime::prelude`; the derives need `serde` with feature `derive` and `schemars = \"1\"` in Cargo.toml); a type of another crate gets its `JsonSchema` from a feature of schemars (`uuid1` for `uuid::Uuid`, `chrono04` for `chrono` types, `url2` for `url::Url`, ...) or from a newtype of your own that derives it; a prompt argument or a URI template variable arrives as a string, so its type is `String`, a number, `bool`, or an enum of unit variants",
    note = "the values the runtime supplies implement `mcp_runtime::FromContext`: `mcp_runtime::Context` (not `std::task::Context`), and `mcp_runtime::State<T>` for a `T` that is `Send + Sync + 'static`",
    note = "a type deriving `JsonSchema` of schemars 0.8 does not count: the runtime uses schemars 1.x, whose trait is a different one (upgrade the dependency to `schemars = \"1\"`)"
)]
pub trait Param<S: ArgumentSource, M>: Sized {
    /// Adds the parameter to the handler's description.
    fn describe(
        into: &mut S::Description,
        name: &str,
        description: Option<&str>,
        completer: Option<Completer>,
    );

    /// Obtains the parameter for one request.
    fn extract(args: &mut S, name: &str, ctx: &Context) -> Result<Self, String>;
}

#[diagnostic::do_not_recommend]
impl<S: ArgumentSource, T: DeserializeOwned + JsonSchema> Param<S, FromArguments> for T {
    fn describe(
        into: &mut S::Description,
        name: &str,
        description: Option<&str>,
        completer: Option<Completer>,
    ) {
        S::describe::<T>(into, name, description, completer);
    }

    fn extract(args: &mut S, name: &str, _ctx: &Context) -> Result<T, String> {
        args.decode(name)
    }
}

#[diagnostic::do_not_recommend]
impl<S: ArgumentSource, T: FromContext> Param<S, FromRequestContext> for T {
    fn describe(
        into: &mut S::Description,
        _name: &str,
        _description: Option<&str>,
        _completer: Option<Completer>,
    ) {
        T::declare(S::requirements(into));
    }

    fn extract(_args: &mut S, _name: &str, ctx: &Context) -> Result<T, String> {
        T::from_context(ctx)
    }
}
