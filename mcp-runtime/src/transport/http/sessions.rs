//! The sessions of the HTTP endpoint, by `Mcp-Session-Id`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::stream::{Hub, StreamLimits};
use crate::server::{Outbound, Outgoing, Server, Session};

/// One client's session: the runtime's session, its standalone stream, and its request streams
/// (kept while they may be resumed).
pub(super) struct HttpSession {
    pub(super) session: Arc<Session>,
    pub(super) standalone: Arc<Hub>,
    streams: Mutex<HashMap<u64, Arc<Hub>>>,
    next_stream: AtomicU64,
    last_seen: Mutex<Instant>,
    limits: StreamLimits,
}

impl HttpSession {
    pub(super) fn new(server: &Server, limits: StreamLimits) -> Arc<HttpSession> {
        let standalone = Hub::standalone(limits);
        let hub = Arc::clone(&standalone);
        let outbound = Outbound::new(server.core.trace, move |kind, message| {
            hub.push(message, matches!(kind, Outgoing::Reply(_)));
        });
        Arc::new(HttpSession {
            session: Session::new(Arc::clone(&server.core), outbound),
            standalone,
            streams: Mutex::new(HashMap::new()),
            next_stream: AtomicU64::new(1),
            last_seen: Mutex::new(Instant::now()),
            limits,
        })
    }

    /// A new stream to answer a request on.
    pub(super) fn open_stream(&self) -> Arc<Hub> {
        let stream = self.next_stream.fetch_add(1, Ordering::Relaxed);
        let hub = Hub::for_request(stream, self.limits);
        let mut streams = self.streams.lock().expect("lock poisoned");
        streams.retain(|_, hub| !hub.is_finished());
        streams.insert(stream, Arc::clone(&hub));
        hub
    }

    /// The stream `id`, if it is still kept.
    pub(super) fn stream(&self, id: u64) -> Option<Arc<Hub>> {
        if id == 0 {
            return Some(Arc::clone(&self.standalone));
        }
        self.streams
            .lock()
            .expect("lock poisoned")
            .get(&id)
            .cloned()
    }

    pub(super) fn forget_stream(&self, id: u64) {
        self.streams.lock().expect("lock poisoned").remove(&id);
    }

    fn touch(&self) {
        *self.last_seen.lock().expect("lock poisoned") = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.last_seen.lock().expect("lock poisoned").elapsed()
    }
}

/// Sessions by id.
#[derive(Default)]
pub(super) struct SessionTable {
    sessions: Mutex<HashMap<String, Arc<HttpSession>>>,
}

impl SessionTable {
    /// Registers a session under a new random id, dropping sessions idle longer than `idle`.
    pub(super) fn insert(&self, session: Arc<HttpSession>, idle: Duration) -> String {
        let id = new_session_id();
        let mut sessions = self.sessions.lock().expect("lock poisoned");
        sessions.retain(|_, s| {
            let keep = s.idle_for() < idle;
            if !keep {
                s.session.close();
            }
            keep
        });
        sessions.insert(id.clone(), session);
        id
    }

    pub(super) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let session = self
            .sessions
            .lock()
            .expect("lock poisoned")
            .get(id)
            .cloned()?;
        session.touch();
        Some(session)
    }

    pub(super) fn remove(&self, id: &str) -> Option<Arc<HttpSession>> {
        self.sessions.lock().expect("lock poisoned").remove(id)
    }
}

/// 128 random bits from the operating system, in hex: visible ASCII, unguessable.
fn new_session_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system provides random bytes");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
