//! The tools a server exposes: registered by `#[mcp_tool]` anywhere in the program, or chosen
//! one by one, then frozen in name order when the server is built.

use super::{Arguments, InputSchema, Tool};
use crate::context::Context;
use crate::error::BuildProblem;
use crate::handler::{BoxFuture, Entry, Kind, Registration};
use crate::protocol::{
    CallToolResult, MirroredArgument, Revision, ToolDefinition, WireTool, mirrored_arguments,
};
use crate::tasks::TaskSupport;

impl Registration<ToolKind> {
    /// The registration of tool `T` (generated code submits one per `#[mcp_tool]`).
    pub const fn tool<T: Tool>() -> Registration<ToolKind> {
        Registration::new(ToolEntry::of::<T>)
    }
}

inventory::collect!(Registration<ToolKind>);

/// The kind of handler `#[mcp_tool]` and `DynamicTool` make.
///
/// `pub` because the public `Registration` generated code submits is generic over it; no
/// path outside the crate names it.
#[doc(hidden)]
#[derive(Debug)]
pub enum ToolKind {}

/// A tool ready to be listed and called.
pub(crate) type ToolEntry = Entry<ToolKind>;

/// What only a tool keeps.
#[doc(hidden)]
pub struct ToolDetails {
    /// The arguments its schema mirrors into HTTP headers (`x-mcp-header`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) mirrored: Vec<MirroredArgument>,
    /// Whether its calls may run as tasks.
    pub(crate) task_support: TaskSupport,
}

impl Kind for ToolKind {
    const NAME: &'static str = "tool";
    type Definition = ToolDefinition;
    type Details = ToolDetails;
    type Input = Arguments;
    type Output = CallToolResult;

    fn key(entry: &ToolEntry) -> &str {
        &entry.definition.name
    }

    fn wire(entry: &ToolEntry, revision: Revision) -> impl serde::Serialize {
        WireTool::new(&entry.definition, revision)
    }

    fn refused(why: String) -> CallToolResult {
        CallToolResult::error(why)
    }

    fn problem(entry: &ToolEntry) -> Option<BuildProblem> {
        let refused =
            !cfg!(feature = "tasks") && entry.details.task_support != TaskSupport::Forbidden;
        refused.then(|| BuildProblem::TasksNotEnabled {
            tool: entry.name().to_owned(),
            location: entry.location.to_owned(),
        })
    }
}

impl ToolEntry {
    pub(crate) fn of<T: Tool>() -> ToolEntry {
        let mut schema = InputSchema::new();
        let definition = T::definition(&mut schema);
        let details = ToolDetails {
            mirrored: mirrored_arguments(&definition.input_schema),
            task_support: T::TASK_SUPPORT,
        };
        let location = std::any::type_name::<T>();
        let states = std::mem::take(&mut schema.requirements.states);
        let scopes = crate::auth::Scopes::Declared(T::SCOPES);
        // A constant: the call's future, never used by a tool that runs at once, is then not
        // even compiled into the binary for it.
        match T::CALL_AT_ONCE {
            Some(run) => Entry::at_once(definition, location, states, scopes, details, run),
            None => Entry::new(
                definition,
                location,
                states,
                scopes,
                details,
                |ctx, args| Box::pin(T::call(ctx, args)),
            ),
        }
    }

    /// A tool built at run time.
    pub(crate) fn dynamic(
        definition: ToolDefinition,
        scopes: crate::auth::Scopes,
        task_support: TaskSupport,
        call: impl Fn(Context, Arguments) -> BoxFuture<CallToolResult> + Send + Sync + 'static,
    ) -> ToolEntry {
        let details = ToolDetails {
            mirrored: mirrored_arguments(&definition.input_schema),
            task_support,
        };
        let location = "a tool added at run time";
        Entry::new(definition, location, Vec::new(), scopes, details, call)
    }

    pub(crate) fn name(&self) -> &str {
        &self.definition.name
    }

    /// Whether its structured results reach a client of `revision` as `{"result": value}`.
    pub(crate) fn wraps_values(&self, revision: Revision) -> bool {
        self.definition
            .output_schema
            .as_ref()
            .is_some_and(|schema| schema.wraps_values(revision))
    }
}

/// The frozen set of tools, sorted by name.
pub(crate) type ToolRegistry = crate::catalog::Catalog<ToolEntry>;

#[cfg(all(test, not(feature = "tasks")))]
mod tests {
    use crate::tasks::TaskSupport;
    use crate::{CallToolResult, DynamicTool, Implementation, Server};

    /// Without the `tasks` feature nothing could run the tool as a task: the build says so,
    /// naming the tool and the feature, for `"optional"` as for `"required"`.
    #[test]
    fn a_tool_with_task_support_needs_the_tasks_feature() {
        for support in [TaskSupport::Optional, TaskSupport::Required] {
            let tool = DynamicTool::new("slow", "Takes a while.")
                .task_support(support)
                .handler(|_, _| async { CallToolResult::text("done") });
            let error = Server::builder(Implementation::new("t", "1"))
                .dynamic_tool(tool)
                .build()
                .err()
                .expect("the build refuses the tool");
            let message = error.to_string();
            assert!(message.contains("tool `slow`"), "{message}");
            assert!(message.contains("`tasks` feature"), "{message}");
        }
    }
}
