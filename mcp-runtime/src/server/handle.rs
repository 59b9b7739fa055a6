//! Changing a running server and telling its clients, from anywhere in the application.

use std::sync::{Arc, Mutex, Weak};

use serde_json::json;

use super::{ServerCore, Session};
use crate::BuildError;
use crate::prompt::{Prompt, PromptEntry};
use crate::resource::{Resource, ResourceEntry};
use crate::tool::{DynamicTool, Tool, ToolEntry};

/// The live sessions of a server, held weakly: a closed connection simply disappears.
#[derive(Default)]
pub(crate) struct Sessions {
    live: Mutex<Vec<Weak<Session>>>,
}

impl Sessions {
    pub(crate) fn add(&self, session: &Arc<Session>) {
        let mut live = self.live.lock().expect("lock poisoned");
        live.retain(|s| s.strong_count() > 0);
        live.push(Arc::downgrade(session));
    }

    fn each(&self, mut f: impl FnMut(&Session)) {
        let live: Vec<Arc<Session>> = self
            .live
            .lock()
            .expect("lock poisoned")
            .iter()
            .filter_map(Weak::upgrade)
            .collect();
        for session in live {
            f(&session);
        }
    }
}

/// A handle on a running server: add and remove tools, resources and prompts, and announce
/// changes to every connected client. Get one from [`Server::handle`](super::Server::handle)
/// or, inside a handler, from [`Context::server`](crate::Context::server). Cheap to clone.
///
/// Each change to a list sends the matching `notifications/*/list_changed` to the clients.
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
            self.broadcast("notifications/tools/list_changed");
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
            self.broadcast("notifications/tools/list_changed");
        }
        removed
    }

    /// Adds a `#[mcp_resource]` resource or template. Fails if its URI is taken.
    pub fn add_resource<R: Resource>(&self) -> Result<(), BuildError> {
        let entry = ResourceEntry::of::<R>();
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
        let entry = PromptEntry::of::<P>();
        if self.core.prompts.update(|p| p.with(entry).map(Some))? {
            self.broadcast("notifications/prompts/list_changed");
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
            self.broadcast("notifications/prompts/list_changed");
        }
        removed
    }

    /// The resource at `uri` changed: clients subscribed to it get
    /// `notifications/resources/updated`.
    pub fn resource_updated(&self, uri: &str) {
        self.core.sessions.each(|session| {
            if session.is_subscribed(uri) {
                session.notify("notifications/resources/updated", &json!({ "uri": uri }));
            }
        });
    }

    /// The set of resources changed (say, files appeared behind a template): every client gets
    /// `notifications/resources/list_changed`.
    pub fn resource_list_changed(&self) {
        self.broadcast("notifications/resources/list_changed");
    }

    fn broadcast(&self, method: &str) {
        self.core.sessions.each(|session| {
            if session.is_initialized() {
                session.notify(method, &json!({}));
            }
        });
    }
}
