//! Prompts: the trait `#[mcp_prompt]` implements, what a prompt function may return, and the
//! registry `prompts/get` looks prompts up in.

mod registry;

use std::future::Future;

pub(crate) use registry::{PromptCatalog, PromptEntry, PromptKind};

use crate::args::{ArgumentSpecs, StringArgs};
use crate::context::Context;
use crate::handler_error::HandlerError;
use crate::protocol::{Content, GetPromptResult, PromptDefinition, PromptMessage};

/// An MCP prompt: a named, parameterized message template.
///
/// `#[mcp_prompt]` implements this for a zero-sized type named after the function, so
/// `server.prompt::<gift_congrats_style>()` selects it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP prompt",
    label = "not an MCP prompt",
    note = "annotate a function with `#[mcp_prompt]` and pass the function's name here"
)]
pub trait Prompt: 'static {
    /// The prompt's name.
    const NAME: &'static str;

    /// The OAuth scopes an access token must grant to get the prompt
    /// (`#[mcp_prompt(scopes = [...])]`), checked over HTTP; none by default. See
    /// [`auth`](crate::auth).
    const SCOPES: &'static [&'static str] = &[];

    /// Describes the prompt (its arguments go to `specs`): called once when a server is built.
    fn definition(specs: &mut ArgumentSpecs) -> PromptDefinition;

    /// Renders the prompt with the request's arguments.
    fn get(
        ctx: Context,
        args: StringArgs,
    ) -> impl Future<Output = Result<GetPromptResult, HandlerError>> + Send + 'static;
}

/// A value a prompt function may return.
///
/// Its impls are `do_not_recommend`: a type that is not one is reported with this trait's
/// message and notes alone, not with rustc's list of the types that are.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP prompt",
    label = "cannot become prompt messages",
    note = "a prompt returns text (`String`, `&str`: one user message), a `PromptMessage` (`PromptMessage::user(text)`, `PromptMessage::assistant(text)`), a `Vec<PromptMessage>` (a conversation) or a `GetPromptResult`",
    note = "or a `Result<T, E>` with one of those as `T` and an error `E` that implements `Display` or is a `HandlerError` (an `Err` becomes an error response)"
)]
pub trait IntoPromptResult {
    /// Converts the value.
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError>;
}

fn messages(messages: Vec<PromptMessage>) -> Result<GetPromptResult, HandlerError> {
    Ok(GetPromptResult {
        description: None,
        messages,
    })
}

#[diagnostic::do_not_recommend]
impl IntoPromptResult for String {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        messages(vec![PromptMessage::user(Content::text(self))])
    }
}

#[diagnostic::do_not_recommend]
impl IntoPromptResult for &str {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        messages(vec![PromptMessage::user(Content::text(self))])
    }
}

#[diagnostic::do_not_recommend]
impl IntoPromptResult for PromptMessage {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        messages(vec![self])
    }
}

#[diagnostic::do_not_recommend]
impl IntoPromptResult for Vec<PromptMessage> {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        messages(self)
    }
}

#[diagnostic::do_not_recommend]
impl IntoPromptResult for GetPromptResult {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        Ok(self)
    }
}

#[diagnostic::do_not_recommend]
impl<T: IntoPromptResult, E: Into<HandlerError>> IntoPromptResult for Result<T, E> {
    fn into_prompt_result(self) -> Result<GetPromptResult, HandlerError> {
        self.map_err(Into::into)?.into_prompt_result()
    }
}
