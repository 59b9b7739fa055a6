//! The tools a server exposes: registered by `#[mcp_tool]` anywhere in the program, or chosen
//! one by one, then frozen in name order when the server is built.

use std::sync::Arc;

use serde_json::value::RawValue;

use super::{Arguments, InputSchema, Tool};
use crate::auth::refused;
use crate::catalog::WireCache;
use crate::context::Context;
use crate::error::BuildProblem;
use crate::handler::{BoxFuture, Registration};
use crate::protocol::{
    CallToolResult, MirroredArgument, Revision, ToolDefinition, WireTool, mirrored_arguments,
};

type CallFn = Arc<dyn Fn(Context, Arguments) -> BoxFuture<CallToolResult> + Send + Sync>;

impl Registration<ToolEntry> {
    /// The registration of tool `T` (generated code submits one per `#[mcp_tool]`).
    pub const fn tool<T: Tool>() -> Registration<ToolEntry> {
        Registration::new(ToolEntry::of::<T>)
    }
}

inventory::collect!(Registration<ToolEntry>);

/// A tool ready to be listed and called.
///
/// `pub` because generated code holds one inside a public `Registration`; no path outside the
/// crate names it.
#[doc(hidden)]
pub struct ToolEntry {
    pub(crate) definition: ToolDefinition,
    /// Where it was defined, to name both places when two tools share a name.
    pub(crate) location: &'static str,
    pub(crate) needs_state: Vec<crate::context::StateNeed>,
    /// The scopes a caller needs (`Tool::SCOPES`).
    pub(crate) scopes: crate::auth::Scopes,
    /// The arguments its schema mirrors into HTTP headers (`x-mcp-header`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) mirrored: Vec<MirroredArgument>,
    /// Whether its calls may run as tasks.
    pub(crate) task_support: crate::tasks::TaskSupport,
    call: CallFn,
    wire: WireCache,
}

impl ToolEntry {
    pub(crate) fn of<T: Tool>() -> ToolEntry {
        let mut schema = InputSchema::new();
        let definition = T::definition(&mut schema);
        ToolEntry {
            mirrored: mirrored_arguments(&definition.input_schema),
            definition,
            location: std::any::type_name::<T>(),
            needs_state: std::mem::take(&mut schema.requirements.states),
            scopes: crate::auth::Scopes::Declared(T::SCOPES),
            task_support: T::TASK_SUPPORT,
            call: Arc::new(|ctx, args| Box::pin(T::call(ctx, args))),
            wire: Default::default(),
        }
    }

    /// A tool built at run time.
    pub(crate) fn dynamic(
        definition: ToolDefinition,
        scopes: crate::auth::Scopes,
        call: impl Fn(Context, Arguments) -> BoxFuture<CallToolResult> + Send + Sync + 'static,
    ) -> ToolEntry {
        ToolEntry {
            mirrored: mirrored_arguments(&definition.input_schema),
            definition,
            location: "a tool added at run time",
            needs_state: Vec::new(),
            scopes,
            task_support: crate::tasks::TaskSupport::Forbidden,
            call: Arc::new(call),
            wire: WireCache::default(),
        }
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

    /// Calls the tool, unless the caller lacks its scopes: the transport refuses such a call
    /// first (HTTP answers 403), and this is the check that holds whatever the transport did.
    pub(crate) fn call(&self, ctx: Context, args: Arguments) -> BoxFuture<CallToolResult> {
        if let Some(why) = refused(ctx.authentication(), "tool", self.name(), &self.scopes) {
            return Box::pin(std::future::ready(CallToolResult::error(why)));
        }
        (self.call)(ctx, args)
    }
}

impl crate::catalog::Entry for ToolEntry {
    const KIND: &'static str = "tool";

    fn key(&self) -> &str {
        self.name()
    }

    fn location(&self) -> &str {
        self.location
    }

    /// The tool's `tools/list` JSON for a revision, serialized once.
    fn wire(&self, revision: Revision) -> &RawValue {
        self.wire
            .get(revision, || WireTool::new(&self.definition, revision))
    }

    fn scoped(&self) -> bool {
        !self.scopes.is_empty()
    }

    fn problem(&self) -> Option<BuildProblem> {
        let refused =
            !cfg!(feature = "tasks") && self.task_support != crate::tasks::TaskSupport::Forbidden;
        refused.then(|| BuildProblem::TasksNotEnabled {
            tool: self.name().to_owned(),
            location: self.location.to_owned(),
        })
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
