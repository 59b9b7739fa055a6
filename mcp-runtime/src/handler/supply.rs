//! The values the runtime supplies to a handler ([`FromContext`]), what they need from the
//! server ([`Requirements`]), and the marker types that tell a parameter decoded from the
//! request's arguments from one the runtime supplies.
//!
//! The markers are axum's technique for extractors: a parameter trait has one blanket impl per
//! marker, so a type that deserializes is an argument, a type that implements [`FromContext`]
//! is supplied, and the spelling of the type never matters (aliases work).

use crate::auth::Authentication;
use crate::auth::caller::Caller;
use crate::context::{Context, Shareable, State, StateNeed};

/// What a handler's supplied parameters need from the server, checked when it is built.
#[derive(Debug, Default)]
pub struct Requirements {
    pub(crate) states: Vec<StateNeed>,
}

impl Requirements {
    /// The handler reads state of type `T` (given with `ServerBuilder::state`).
    pub fn state<T: 'static>(&mut self) {
        self.states.push(StateNeed::of::<T>());
    }

    /// The handler may ask the client (`Context::elicit`, `Context::sample`,
    /// `Context::list_roots`): the server then carries what seals the `requestState` of the
    /// stateless revision's input-required results, and opens it when a retry brings it
    /// back. A server none of whose handlers can ask leaves that code out of its binary.
    pub fn may_ask_client(&mut self) {
        crate::sealed_state::link_sealing();
    }
}

/// Marker: the parameter is decoded from the request's arguments.
#[derive(Debug)]
pub enum FromArguments {}

/// Marker: the parameter is supplied by the runtime.
#[derive(Debug)]
pub enum FromRequestContext {}

/// A value the runtime supplies to a handler from the request being served.
///
/// Implement it for your own types to have them passed to handlers like [`Context`] is (an
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
    ///
    /// By default the value is taken to keep the request's [`Context`], and so to ask the
    /// client ([`Requirements::may_ask_client`]). A type that overrides this and keeps the
    /// `Context` says so too: `<Context as FromContext>::declare(requirements)`.
    fn declare(requirements: &mut Requirements) {
        requirements.may_ask_client();
    }
}

/// Declared by the default: the `Context` is what asks the client.
impl FromContext for Context {
    fn from_context(ctx: &Context) -> Result<Self, String> {
        Ok(ctx.clone())
    }
}

impl<T: Shareable> FromContext for State<T> {
    fn from_context(ctx: &Context) -> Result<Self, String> {
        ctx.state::<T>().map(State).ok_or_else(|| {
            format!(
                "the server has no state of type `{}`",
                std::any::type_name::<T>()
            )
        })
    }

    fn declare(requirements: &mut Requirements) {
        requirements.state::<T>();
    }
}

impl FromContext for Caller {
    /// A caller asks nothing and reads no state.
    fn declare(_requirements: &mut Requirements) {}

    fn from_context(ctx: &Context) -> Result<Self, String> {
        match ctx.authentication() {
            Authentication::Caller(caller) => Ok(caller.clone()),
            Authentication::Local => Err(
                "this handler needs an authenticated caller, and over stdio there is none: \
                 take `Option<Caller>` to serve both"
                    .to_owned(),
            ),
            Authentication::Anonymous => Err(
                "this handler needs an authenticated caller, and this server checks no access \
                 tokens: protect it with `HttpOptions::resource_server`"
                    .to_owned(),
            ),
        }
    }
}

impl FromContext for Option<Caller> {
    /// A caller asks nothing and reads no state.
    fn declare(_requirements: &mut Requirements) {}

    fn from_context(ctx: &Context) -> Result<Self, String> {
        match ctx.authentication() {
            Authentication::Caller(caller) => Ok(Some(caller.clone())),
            Authentication::Local | Authentication::Anonymous => Ok(None),
        }
    }
}
