//! The changes clients listen for (list changes, resource updates), from the [`ServerHandle`]
//! call that makes them to every `subscriptions/listen` stream (revision 2026-07-28), through
//! a bus. The bus here is in-process: a Tokio broadcast channel that each listener reads at its
//! own pace. The `ChangeBus` interface is what a bus shared by several instances plugs into:
//! `redis_bus.rs` (the `redis` feature).
//!
//! Sessions of the session-based revisions are told directly by the handle, as before; a bus
//! shared with other instances tells them of the other instances' changes.
//!
//! [`ServerHandle`]: super::ServerHandle

use std::sync::Weak;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::broadcast;

use super::ServerCore;

/// One change a client may listen for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    ToolsListChanged,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated(String),
}

impl Change {
    /// The notification method that announces it.
    pub(crate) fn method(&self) -> &'static str {
        match self {
            Change::ToolsListChanged => "notifications/tools/list_changed",
            Change::PromptsListChanged => "notifications/prompts/list_changed",
            Change::ResourcesListChanged => "notifications/resources/list_changed",
            Change::ResourceUpdated(_) => "notifications/resources/updated",
        }
    }
}

/// How many changes a listener may fall behind by before it misses some (and is told so in
/// the server's log): a listener that reads slower than changes are made.
pub(crate) const BACKLOG: usize = 1024;

/// Carries changes from where they are made to every listener.
///
/// Crate-private on purpose: the one bus shared across instances, Redis, is chosen with
/// `ServerBuilder::redis`, and a public trait would freeze [`Change`] and the broadcast
/// channel into the API. A user who needs another engine asks for it as an issue.
pub(crate) trait ChangeBus: Send + Sync {
    /// Announces a change to every listener, here and on other instances sharing the bus.
    fn publish(&self, change: Change);
    /// A new listener's receiving end: every change published from now on.
    fn subscribe(&self) -> broadcast::Receiver<Change>;
    /// Whether changes reach the other instances now (said by `/ready`); always for a bus
    /// with no other instances.
    #[cfg(feature = "http")]
    fn connected(&self) -> bool {
        true
    }
    /// Given the server once it is built: a bus that brings changes from other instances
    /// tells its sessions of the 2025 revisions too.
    fn attach(&self, _server: Weak<ServerCore>) {}
}

/// The bus of one process.
///
/// Its channel (room for [`BACKLOG`] changes) is made when the first listener subscribes: a
/// server no stateless client listens to never pays for it, in memory or at start-up.
pub(crate) struct InProcessBus {
    sender: std::sync::OnceLock<broadcast::Sender<Change>>,
}

impl InProcessBus {
    pub(crate) fn new() -> InProcessBus {
        InProcessBus {
            sender: std::sync::OnceLock::new(),
        }
    }
}

impl ChangeBus for InProcessBus {
    fn publish(&self, change: Change) {
        // Before the first listener there is no one to tell; no listener is not an error.
        if let Some(sender) = self.sender.get() {
            let _ = sender.send(change);
        }
    }

    fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.sender
            .get_or_init(|| broadcast::Sender::new(BACKLOG))
            .subscribe()
    }
}

/// Counts the listen streams open, against the server's cap.
#[derive(Default)]
pub(crate) struct Listeners {
    open: AtomicUsize,
}

/// One open listen stream, counted until dropped.
pub(crate) struct Listening<'a> {
    listeners: &'a Listeners,
}

impl Listeners {
    /// Counts one more stream, unless `max` are open.
    pub(crate) fn open(&self, max: usize) -> Option<Listening<'_>> {
        self.open
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |open| {
                (open < max).then_some(open + 1)
            })
            .ok()
            .map(|_| Listening { listeners: self })
    }
}

impl Drop for Listening<'_> {
    fn drop(&mut self) {
        self.listeners.open.fetch_sub(1, Ordering::AcqRel);
    }
}
