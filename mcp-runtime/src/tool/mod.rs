//! Tools: the trait `#[mcp_tool]` implements, the `arguments` a call decodes its parameters
//! from, the `inputSchema` describing them, how a return value becomes a `tools/call` result,
//! and the registry the server looks tools up in. The machinery shared with resources and
//! prompts (parameters, registration) is the `handler` layer below.

mod arguments;
mod dynamic;
mod input_schema;
mod output;
mod registry;

use std::future::Future;

pub use arguments::{ArgErrors, Arguments};
pub(crate) use arguments::{ArgumentsAt, RawFields};
pub use dynamic::DynamicTool;
pub use input_schema::InputSchema;
pub use output::{IntoToolResult, OutputCache, ToolReturns};
pub(crate) use registry::{ToolEntry, ToolRegistry};

/// Why `name` breaks the specification's rule for tool names (1 to 128 of `A-Za-z0-9_.-`).
pub(crate) fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() || name.len() > 128 {
        return Some(format!(
            "a tool name has 1 to 128 characters, this one has {}",
            name.chars().count()
        ));
    }
    name.chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
        .map(|bad| format!("{bad:?} is not allowed; a tool name uses only ASCII letters, digits, `_`, `.` and `-`"))
}

use crate::context::Context;
use crate::protocol::{CallToolResult, ToolDefinition};

/// An MCP tool: a name, a description with schemas, and a way to call it.
///
/// `#[mcp_tool]` implements this for a zero-sized type named after the function, so
/// `server.tool::<suggest_gifts>()` selects it. Implementing it by hand is possible but rarely
/// needed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP tool",
    label = "not an MCP tool",
    note = "annotate a function with `#[mcp_tool]` and pass the function's name here"
)]
pub trait Tool: 'static {
    /// The tool's name in `tools/list` and `tools/call`.
    const NAME: &'static str;

    /// The OAuth scopes an access token must grant to call the tool
    /// (`#[mcp_tool(scopes = ["notes:write"])]`), checked over HTTP; none by default. See
    /// [`auth`](crate::auth).
    const SCOPES: &'static [&'static str] = &[];

    /// Whether its calls may run as tasks of the tasks extension
    /// (`#[mcp_tool(task_support = "optional")]`, `"required"`); never by default. See
    /// [`tasks`](crate::tasks).
    const TASK_SUPPORT: crate::tasks::TaskSupport = crate::tasks::TaskSupport::Forbidden;

    /// Describes the tool: called when a server is built, with `schema` collecting only what
    /// the parameters need (its [`add`](InputSchema::add) makes no schema then), and again with
    /// schemas when the tools are first listed.
    fn definition(schema: &mut InputSchema) -> ToolDefinition;

    /// Runs the tool with the request's context and arguments.
    fn call(ctx: Context, args: Arguments)
    -> impl Future<Output = CallToolResult> + Send + 'static;

    /// For a tool that cannot wait (its function is a plain `fn`): what runs a call to its
    /// end, with no future to box and poll and no task, the server then calling it instead
    /// of [`call`](Tool::call) (which must do the same). `#[mcp_tool]` gives it for every
    /// function that is not `async`; `None`, the default, for a tool that may wait.
    const CALL_AT_ONCE: Option<fn(Context, Arguments) -> CallToolResult> = None;

    /// Whether [`definition`](Tool::definition) declares every value a call takes from the
    /// request's context, each through its `FromContext::declare` (so a tool that takes no
    /// `Context` is known not to ask the client). `#[mcp_tool]` says so; a tool written by
    /// hand keeps the default, `false`: its `call` holds the `Context`, so it is taken to
    /// ask ([`Requirements::may_ask_client`](crate::Requirements::may_ask_client)).
    #[doc(hidden)]
    const DECLARES_SUPPLIED_VALUES: bool = false;
}
