//! Changing a running server and telling its clients, from anywhere in the application.

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use serde_json::json;

use super::changes::Change;
use super::{ServerCore, Session, methods};
use crate::BuildError;
use crate::context::Context;
use crate::prompt::Prompt;
use crate::resource::{Resource, ResourceEntry};
use crate::sharded::ShardedMap;
use crate::tool::{DynamicTool, Tool, ToolEntry};

/// The live sessions of a server, held weakly, that list changes and resource updates reach.
/// Each is listed under a number of its own and unlists itself when dropped: adding and
/// removing one is O(1) in a [`ShardedMap`], never a scan; only a broadcast visits them all.
#[derive(Default)]
pub(crate) struct Sessions {
    listed: ShardedMap<u64, Weak<Session>>,
    next: AtomicU64,
}

impl Sessions {
    /// A number to list a session under.
    pub(crate) fn number(&self) -> u64 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    pub(crate) fn add(&self, number: u64, session: &Arc<Session>) {
        self.listed.insert(number, Arc::downgrade(session));
    }

    pub(crate) fn remove(&self, number: u64) {
        self.listed.remove(&number);
    }

    fn each(&self, mut f: impl FnMut(&Session)) {
        // Called outside the shards' locks: a session dropped here unlists itself.
        for session in self.listed.collect(Weak::upgrade) {
            f(&session);
        }
    }

    /// Tells every session `change` concerns: a list change every initialized session, a
    /// resource update the sessions subscribed to that resource.
    pub(crate) fn tell(&self, change: &Change) {
        match change {
            Change::ResourceUpdated(uri) => self.each(|session| {
                if session.is_subscribed(uri) {
                    session.notify(change.method(), &json!({ "uri": uri }));
                }
            }),
            _ => self.each(|session| {
                if session.is_initialized() {
                    session.notify(change.method(), &json!({}));
                }
            }),
        }
    }
}

/// A handle on a running server: add and remove tools, resources and prompts, and announce
/// changes to every connected client. Get one from [`Server::handle`](super::Server::handle)
/// or, inside a handler, from [`Context::server`](crate::Context::server). Cheap to clone.
///
/// Each change to a list sends the matching `notifications/*/list_changed` to the clients.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Unlocks the administrator's tools for this server.
/// #[mcp_tool]
/// fn unlock(ctx: Context) -> Result<String, String> {
///     ctx.server().add_tool::<shutdown>().map_err(|e| e.to_string())?;
///     Ok("`shutdown` is available".to_string())
/// }
///
/// /// Shuts the machine down.
/// #[mcp_tool(destructive)]
/// fn shutdown() -> &'static str {
///     "shutting down"
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
///     .tool::<unlock>()
///     .build()?;
/// let handle = server.handle(); // to keep anywhere in the application
/// # let client = mcp_runtime::testing::TestClient::new(&server);
/// # client.initialize().await?;
/// # client.call_tool("unlock", serde_json::json!({})).await?;
/// # assert_eq!(client.list_tools().await?.len(), 2);
/// // later, from any task or thread:
/// handle.remove_tool("shutdown");
/// # assert_eq!(client.list_tools().await?.len(), 1);
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct ServerHandle {
    pub(crate) core: Arc<ServerCore>,
}

impl ServerHandle {
    /// Adds a tool built at run time. Fails if another tool has its name.
    pub fn add_dynamic_tool(&self, tool: DynamicTool) -> Result<(), BuildError> {
        self.add_tool_entry(tool.into_entry()?)
    }

    /// Adds a `#[mcp_tool]` tool. Fails if another tool has its name.
    pub fn add_tool<T: Tool>(&self) -> Result<(), BuildError> {
        self.add_tool_entry(ToolEntry::of::<T>())
    }

    fn add_tool_entry(&self, entry: ToolEntry) -> Result<(), BuildError> {
        if self
            .core
            .tools
            .update(|tools| tools.with(entry).map(Some))?
        {
            self.broadcast(Change::ToolsListChanged);
        }
        Ok(())
    }

    /// Removes the tool `name`; false if there was none.
    pub fn remove_tool(&self, name: &str) -> bool {
        let removed = self
            .core
            .tools
            .update(|tools| Ok::<_, BuildError>(tools.without(name)))
            .unwrap_or(false);
        if removed {
            self.broadcast(Change::ToolsListChanged);
        }
        removed
    }

    /// Adds a `#[mcp_resource]` resource or template. Fails if its URI is taken.
    pub fn add_resource<R: Resource>(&self) -> Result<(), BuildError> {
        self.add_resource_entry(methods::resource_entry::<R>())
    }

    /// Adds a resource or template built at run time. Fails if its URI is taken, or if it is
    /// malformed (saying why).
    pub fn add_dynamic_resource(&self, resource: crate::DynamicResource) -> Result<(), BuildError> {
        self.add_resource_entry(methods::dynamic_resource_entry(resource)?)
    }

    fn add_resource_entry(&self, entry: ResourceEntry) -> Result<(), BuildError> {
        if self.core.resources.update(|r| r.with(entry).map(Some))? {
            self.resource_list_changed();
        }
        Ok(())
    }

    /// Removes the resource or template `uri`; false if there was none.
    pub fn remove_resource(&self, uri: &str) -> bool {
        let removed = self
            .core
            .resources
            .update(|r| Ok::<_, BuildError>(r.without(uri)))
            .unwrap_or(false);
        if removed {
            self.resource_list_changed();
        }
        removed
    }

    /// Adds a `#[mcp_prompt]` prompt. Fails if another prompt has its name.
    pub fn add_prompt<P: Prompt>(&self) -> Result<(), BuildError> {
        let entry = methods::prompt_entry::<P>();
        if self.core.prompts.update(|p| p.with(entry).map(Some))? {
            self.broadcast(Change::PromptsListChanged);
        }
        Ok(())
    }

    /// Removes the prompt `name`; false if there was none.
    pub fn remove_prompt(&self, name: &str) -> bool {
        let removed = self
            .core
            .prompts
            .update(|p| Ok::<_, BuildError>(p.without(name)))
            .unwrap_or(false);
        if removed {
            self.broadcast(Change::PromptsListChanged);
        }
        removed
    }

    /// The resource at `uri` changed: clients subscribed to it get
    /// `notifications/resources/updated`.
    pub fn resource_updated(&self, uri: &str) {
        self.broadcast(Change::ResourceUpdated(uri.to_owned()));
    }

    /// The set of resources changed (say, files appeared behind a template): every client gets
    /// `notifications/resources/list_changed`.
    pub fn resource_list_changed(&self) {
        self.broadcast(Change::ResourcesListChanged);
    }

    /// Tells this instance's sessions, and every listen stream (and, with a shared bus, the
    /// other instances) through the bus.
    fn broadcast(&self, change: Change) {
        self.core.sessions.tell(&change);
        self.core.changes.publish(change);
    }
}

// Defined here rather than with the rest of [`Context`], so that the context layer never names
// the server above it: a context reaches its session through the narrow `SessionLink`, and
// only the server, which made the session, finds it again behind one.
impl Context {
    /// The server, to add or remove tools, resources and prompts while it runs.
    pub fn server(&self) -> ServerHandle {
        let session: &dyn Any = self.session();
        let session = session
            .downcast_ref::<Session>()
            .expect("every context is made by a `Session` of the server");
        ServerHandle {
            core: Arc::clone(session.server_core()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbound::Outbound;

    fn listed(core: &ServerCore) -> usize {
        let mut count = 0;
        core.sessions.each(|_| count += 1);
        count
    }

    #[test]
    fn a_session_is_listed_while_it_lives_and_an_unlisted_one_never() {
        let server = crate::Server::builder(crate::server_info!())
            .build()
            .unwrap();
        let core = &server.core;
        let sessions: Vec<_> = (0..100)
            .map(|_| Session::new(Arc::clone(core), Outbound::discard()))
            .collect();
        let _unlisted = Session::unlisted(Arc::clone(core), Outbound::discard());
        assert_eq!(listed(core), 100);
        drop(sessions);
        assert_eq!(listed(core), 0);
        assert_eq!(
            core.sessions.listed.len(),
            0,
            "a dropped session left an entry behind"
        );
    }
}
