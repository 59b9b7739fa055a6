//! The tools a server exposes: registered by `#[mcp_tool]` anywhere in the program, or chosen
//! one by one, then frozen in name order when the server is built.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::value::RawValue;

use super::{Arguments, Tool};
use crate::catalog::WireCache;
use crate::context::Context;
use crate::protocol::{CallToolResult, Revision, ToolDefinition, WireTool};
use crate::schema::InputSchema;

/// A boxed future, as stored for type-erased handlers.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

type CallFn = Arc<dyn Fn(Context, Arguments) -> BoxFuture<CallToolResult> + Send + Sync>;

/// One `#[mcp_tool]` function, as collected from the whole program.
///
/// Generated code submits one per tool; [`ServerBuilder::registered_tools`] gathers them.
///
/// [`ServerBuilder::registered_tools`]: crate::ServerBuilder::registered_tools
pub struct ToolRegistration {
    pub(crate) entry: fn() -> ToolEntry,
}

impl ToolRegistration {
    /// The registration of tool `T`.
    pub const fn of<T: Tool>() -> ToolRegistration {
        ToolRegistration {
            entry: ToolEntry::of::<T>,
        }
    }
}

inventory::collect!(ToolRegistration);

/// Every tool the program registered with `#[mcp_tool]`.
pub(crate) fn registered() -> impl Iterator<Item = &'static ToolRegistration> {
    inventory::iter::<ToolRegistration>.into_iter()
}

/// A tool ready to be listed and called.
pub(crate) struct ToolEntry {
    pub(crate) definition: ToolDefinition,
    /// Where it was defined, to name both places when two tools share a name.
    pub(crate) location: &'static str,
    pub(crate) needs_state: Vec<crate::context::StateNeed>,
    call: CallFn,
    wire: WireCache,
}

impl ToolEntry {
    pub(crate) fn of<T: Tool>() -> ToolEntry {
        let mut schema = InputSchema::new();
        let definition = T::definition(&mut schema);
        ToolEntry {
            definition,
            location: std::any::type_name::<T>(),
            needs_state: std::mem::take(&mut schema.requirements.states),
            call: Arc::new(|ctx, args| Box::pin(T::call(ctx, args))),
            wire: Default::default(),
        }
    }

    /// A tool built at run time.
    pub(crate) fn dynamic(
        definition: ToolDefinition,
        call: impl Fn(Context, Arguments) -> BoxFuture<CallToolResult> + Send + Sync + 'static,
    ) -> ToolEntry {
        ToolEntry {
            definition,
            location: "a tool added at run time",
            needs_state: Vec::new(),
            call: Arc::new(call),
            wire: WireCache::default(),
        }
    }

    pub(crate) fn name(&self) -> &str {
        &self.definition.name
    }

    pub(crate) fn call(&self, ctx: Context, args: Arguments) -> BoxFuture<CallToolResult> {
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
}

/// The frozen set of tools, sorted by name.
pub(crate) type ToolRegistry = crate::catalog::Catalog<ToolEntry>;
