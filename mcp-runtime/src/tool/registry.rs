//! The tools a server exposes: registered by `#[mcp_tool]` anywhere in the program, or chosen
//! one by one, then frozen in name order when the server is built.

use std::any::TypeId;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;

use super::{Arguments, Tool};
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
    pub(crate) needs_state: Vec<(TypeId, &'static str)>,
    call: CallFn,
    wire: [OnceLock<Box<RawValue>>; Revision::ALL.len()],
}

impl ToolEntry {
    pub(crate) fn of<T: Tool>() -> ToolEntry {
        let mut schema = InputSchema::new();
        let definition = T::definition(&mut schema);
        ToolEntry {
            definition,
            location: std::any::type_name::<T>(),
            needs_state: std::mem::take(&mut schema.needs_state),
            call: Arc::new(|ctx, args| Box::pin(T::call(ctx, args))),
            wire: Default::default(),
        }
    }

    pub(crate) fn name(&self) -> &str {
        &self.definition.name
    }

    pub(crate) fn call(&self, ctx: Context, args: Arguments) -> BoxFuture<CallToolResult> {
        (self.call)(ctx, args)
    }

    /// The tool's `tools/list` JSON for a revision, serialized once.
    pub(crate) fn wire(&self, revision: Revision) -> &RawValue {
        let slot = Revision::ALL
            .iter()
            .position(|r| *r == revision)
            .expect("every revision has a slot");
        self.wire[slot].get_or_init(|| {
            serde_json::value::to_raw_value(&WireTool::new(&self.definition, revision))
                .expect("a tool definition always serializes")
        })
    }
}

/// The frozen set of tools, sorted by name.
#[derive(Default)]
pub(crate) struct ToolRegistry {
    tools: Vec<ToolEntry>,
}

impl ToolRegistry {
    /// Sorts the tools; two with the same name are an error naming both definitions.
    pub(crate) fn new(mut tools: Vec<ToolEntry>) -> Result<ToolRegistry, crate::BuildError> {
        tools.sort_by(|a, b| a.name().cmp(b.name()));
        tools.dedup_by(|a, b| a.name() == b.name() && a.location == b.location);
        for pair in tools.windows(2) {
            if pair[0].name() == pair[1].name() {
                return Err(crate::BuildError::DuplicateTool {
                    name: pair[0].name().to_owned(),
                    first: pair[0].location.to_owned(),
                    second: pair[1].location.to_owned(),
                });
            }
        }
        Ok(ToolRegistry { tools })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    pub(crate) fn get(&self, name: &str) -> Option<&ToolEntry> {
        let index = self
            .tools
            .binary_search_by(|tool| tool.name().cmp(name))
            .ok()?;
        Some(&self.tools[index])
    }

    /// The tools in name order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &ToolEntry> {
        self.tools.iter()
    }

    /// The tools whose names sort after `after`, in order.
    pub(crate) fn after(&self, after: Option<&str>) -> &[ToolEntry] {
        let start = match after {
            None => 0,
            Some(name) => self.tools.partition_point(|tool| tool.name() <= name),
        };
        &self.tools[start..]
    }
}
