//! The sessions of the HTTP endpoint, by `Mcp-Session-Id`: how many may live at once, how
//! long an unused one is kept, and how many GET streams each may hold open; with a store
//! shared by several instances (`shared_events.rs`), each session's record there and what it
//! tells the store when its streams are forgotten and when it ends.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use super::shared_events::Mirror;
use super::stream::{Hub, StreamLimits, StreamSlot, parse_event_id};
use crate::auth::Authentication;
use crate::outbound::{Outbound, Outgoing};
use crate::server::{Server, Session};
use crate::sharded::ShardedMap;

/// One client's session: the runtime's session, its standalone stream, and its request streams
/// (kept while they may be resumed).
pub(super) struct HttpSession {
    pub(super) session: Arc<Session>,
    pub(super) standalone: Arc<Hub>,
    streams: Mutex<HashMap<u64, Arc<Hub>>>,
    next_stream: AtomicU64,
    last_seen: Mutex<Instant>,
    limits: StreamLimits,
    /// How many GET streams are open.
    get_streams: Arc<AtomicUsize>,
    /// Who opened it, on a protected server: only they may use it.
    owner: Option<String>,
    /// Where its events are copied for the other instances (`shared_events.rs`), if anywhere.
    mirror: Option<Mirror>,
}

impl HttpSession {
    pub(super) fn new(
        server: &Server,
        limits: StreamLimits,
        owner: Option<String>,
        mirror: Option<Mirror>,
    ) -> Arc<HttpSession> {
        let standalone = Hub::standalone(limits, mirror.clone());
        let hub = Arc::clone(&standalone);
        let outbound = Outbound::new(server.core.trace, move |kind, message| {
            hub.push(
                message,
                matches!(kind, Outgoing::Reply(_) | Outgoing::Refusal(_)),
            );
        })
        // Nothing over HTTP runs as the trusted local user, even by mistake.
        .with_authentication(Authentication::Anonymous);
        Arc::new(HttpSession {
            session: Session::new(Arc::clone(&server.core), outbound),
            standalone,
            streams: Mutex::new(HashMap::new()),
            next_stream: AtomicU64::new(1),
            last_seen: Mutex::new(Instant::now()),
            limits,
            get_streams: Arc::default(),
            owner,
            mirror,
        })
    }

    /// Writes the session's record to the shared store, if there is one: from then on, any
    /// instance can resume its streams.
    pub(super) fn share(&self) {
        if let Some(mirror) = &self.mirror {
            mirror.open();
        }
    }

    /// The stream and sequence number a `Last-Event-ID` names; `None` for an id that is not
    /// one of this session's (with a shared store, an id of another session is not).
    pub(super) fn parse_event_id(&self, id: &str) -> Option<(u64, u64)> {
        match &self.mirror {
            Some(mirror) => mirror.parse_event_id(id),
            None => parse_event_id(id),
        }
    }

    /// Whether its events go to a shared store.
    pub(super) fn is_shared(&self) -> bool {
        self.mirror.is_some()
    }

    /// Whether a request from `authentication` may use the session: on a protected server,
    /// only its owner's (the same issuer and subject) may.
    pub(super) fn belongs_to(&self, authentication: &Authentication) -> bool {
        self.owner.is_none() || self.owner == authentication.owner()
    }

    /// A new stream to answer a request on.
    pub(super) fn open_stream(&self) -> Arc<Hub> {
        let stream = self.next_stream.fetch_add(1, Ordering::Relaxed);
        let hub = Hub::for_request(stream, self.limits, self.mirror.clone());
        let mut streams = self.streams.lock().expect("lock poisoned");
        let mut forgotten = Vec::new();
        streams.retain(|id, hub| {
            let keep = !hub.is_finished();
            if !keep {
                forgotten.push(*id);
            }
            keep
        });
        streams.insert(stream, Arc::clone(&hub));
        drop(streams);
        if let Some(mirror) = &self.mirror {
            mirror.forget_streams(&forgotten);
        }
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

    /// A place for one more GET stream, unless `max` are open.
    pub(super) fn open_get_stream(&self, max: usize) -> Option<StreamSlot> {
        StreamSlot::take(&self.get_streams, max)
    }

    /// Forgets the stream `id`, if it is still kept: a resume of it then gets 410.
    pub(super) fn forget_stream(&self, id: u64) {
        let forgotten = self.streams.lock().expect("lock poisoned").remove(&id);
        if let (Some(_), Some(mirror)) = (forgotten, &self.mirror) {
            mirror.forget_streams(&[id]);
        }
    }

    /// Ends the session: what runs in it is cancelled (nothing could receive its replies), the
    /// server's requests to its client fail, and its standalone stream ends.
    pub(super) fn end(&self) {
        self.session.cancel_all();
        self.session.close();
        self.standalone.close_subscriber();
        if let Some(mirror) = &self.mirror {
            let mut streams: Vec<u64> = self
                .streams
                .lock()
                .expect("lock poisoned")
                .keys()
                .copied()
                .collect();
            streams.push(self.standalone.stream);
            mirror.end(&streams);
        }
    }

    fn touch(&self) {
        *self.last_seen.lock().expect("lock poisoned") = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        self.last_seen.lock().expect("lock poisoned").elapsed()
    }
}

/// Sessions by id, in a [`ShardedMap`]: an insert or a lookup is O(1) under one shard's lock
/// and never scans the others. The live count is one atomic, checked against the cap before a
/// session is listed. Idle sessions are dropped by a sweeper task on a timer
/// ([`SessionTable::sweep_every`]), one shard at a time, never on the insert path.
pub(super) struct SessionTable {
    sessions: ShardedMap<String, Arc<HttpSession>>,
    live: AtomicUsize,
    max: usize,
    /// The live sessions of each caller that has any (protected servers only).
    by_owner: Mutex<HashMap<String, usize>>,
    max_per_owner: usize,
    sweeping: OnceLock<()>,
}

/// Why a session was not registered.
pub(super) enum AtCap {
    /// `max_sessions` are live.
    Server,
    /// Its caller holds `max_sessions_per_caller`.
    Caller,
}

impl SessionTable {
    pub(super) fn new(max: usize, max_per_owner: usize) -> SessionTable {
        SessionTable {
            sessions: ShardedMap::default(),
            live: AtomicUsize::new(0),
            max,
            by_owner: Mutex::default(),
            max_per_owner,
            sweeping: OnceLock::new(),
        }
    }

    /// Registers a session under `id` (from [`issued_id::new`](crate::issued_id::new)), unless the cap's number of
    /// sessions is live, or its owner's.
    pub(super) fn insert(&self, id: String, session: Arc<HttpSession>) -> Result<(), AtCap> {
        let reserved = self
            .live
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |live| {
                (live < self.max).then_some(live + 1)
            });
        if reserved.is_err() {
            return Err(AtCap::Server);
        }
        if let Some(owner) = &session.owner {
            let mut by_owner = self.by_owner.lock().unwrap_or_else(PoisonError::into_inner);
            let held = by_owner.entry(owner.clone()).or_insert(0);
            if *held >= self.max_per_owner {
                if *held == 0 {
                    by_owner.remove(owner);
                }
                drop(by_owner);
                self.live.fetch_sub(1, Ordering::AcqRel);
                return Err(AtCap::Caller);
            }
            *held += 1;
        }
        self.sessions.insert(id, session);
        Ok(())
    }

    /// Counts the sessions that ended out of the live ones, and out of their owners'.
    fn ended<'a>(&self, sessions: impl IntoIterator<Item = &'a HttpSession>) {
        let mut by_owner = self.by_owner.lock().unwrap_or_else(PoisonError::into_inner);
        for session in sessions {
            self.live.fetch_sub(1, Ordering::AcqRel);
            let Some(owner) = &session.owner else {
                continue;
            };
            if let Some(held) = by_owner.get_mut(owner) {
                *held -= 1;
                if *held == 0 {
                    by_owner.remove(owner);
                }
            }
        }
    }

    pub(super) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let session = self.sessions.get_cloned(id)?;
        session.touch();
        Some(session)
    }

    pub(super) fn remove(&self, id: &str) -> Option<Arc<HttpSession>> {
        let removed = self.sessions.remove(id);
        if let Some(session) = &removed {
            self.ended([&**session]);
        }
        removed
    }

    /// Starts the sweeper (once): every `idle / 4` (at most a minute), the sessions that have
    /// had no request for `idle`, and have none in flight and no GET stream open, are ended.
    /// It stops when the table is dropped.
    pub(super) fn sweep_every(self: &Arc<Self>, idle: Duration) {
        if self.sweeping.set(()).is_err() {
            return;
        }
        let table = Arc::downgrade(self);
        let period = (idle / 4).clamp(Duration::from_millis(10), Duration::from_secs(60));
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(period);
            ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                ticks.tick().await;
                let Some(table) = table.upgrade() else {
                    return;
                };
                table.sweep(idle);
            }
        });
    }

    /// Ends the sessions idle for `idle`, one shard's lock at a time.
    fn sweep(&self, idle: Duration) {
        let mut expired = Vec::new();
        self.sessions.retain(|_, session| {
            let keep = session.idle_for() < idle
                || session.get_streams.load(Ordering::Acquire) > 0
                || session.session.is_busy();
            if !keep {
                expired.push(Arc::clone(session));
            }
            keep
        });
        if expired.is_empty() {
            return;
        }
        self.ended(expired.iter().map(|session| &**session));
        crate::stderr::line(format_args!(
            "mcp: {} session(s) unused for {} s ended (HttpOptions::session_idle)",
            expired.len(),
            idle.as_secs_f64()
        ));
        for session in expired {
            session.end();
        }
    }
}
