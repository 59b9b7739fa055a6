//! Telling connected clients that something changed, from anywhere in the application.

use std::sync::{Arc, Mutex, Weak};

use serde_json::json;

use super::{ServerCore, Session};

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

/// A handle for announcing changes to every connected client. Get one with
/// [`Server::notifier`](super::Server::notifier); it is cheap to clone and can be kept anywhere
/// (a file watcher, a background task).
#[derive(Clone)]
pub struct Notifier {
    pub(crate) core: Arc<ServerCore>,
}

impl Notifier {
    /// The resource at `uri` changed: clients subscribed to it get
    /// `notifications/resources/updated`.
    pub fn resource_updated(&self, uri: &str) {
        self.core.sessions.each(|session| {
            if session.is_subscribed(uri) {
                session.notify("notifications/resources/updated", &json!({ "uri": uri }));
            }
        });
    }

    /// The set of resources changed: every client gets
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
