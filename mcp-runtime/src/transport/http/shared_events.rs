//! The boundary between the HTTP transport and a store of session events shared by several
//! instances (`redis_events.rs`, with [`ServerBuilder::redis`](crate::ServerBuilder::redis)):
//! what a session of the 2025 revisions sends on its SSE streams is also written there, so
//! that a GET with `Last-Event-ID` that reaches *another* instance replays what the client
//! missed (`resume_elsewhere.rs`).
//!
//! The store holds what the instance holds, no more: each stream's events within
//! [`HttpOptions::replay_events`](super::HttpOptions::replay_events) and
//! [`replay_bytes`](super::HttpOptions::replay_bytes) (the hub tells it the oldest event it
//! keeps), a finished stream until the instance forgets it, nothing after the session ends;
//! and all of it for [`HttpOptions::shared_events_ttl`](super::HttpOptions::shared_events_ttl)
//! after the session's last event, when the instance that held it is gone.
//!
//! A session's record, written by the instance that issued its `Mcp-Session-Id`, is what makes
//! it genuine elsewhere: its owner (on a protected server) and the tag its event ids start
//! with (`TAG.STREAM-SEQ`), so that an event id of another session, or a made-up one, names no
//! stream of this one. Without a store, event ids stay `STREAM-SEQ` and nothing changes.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::stream::parse_event_id;

/// What the instance that issued a session id says about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct SessionRecord {
    /// Who opened it, on a protected server: only they may resume its streams.
    pub(super) owner: Option<String>,
    /// What its event ids start with.
    pub(super) tag: String,
}

/// One event of a stream, as stored.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct StoredEvent {
    pub(super) seq: u64,
    pub(super) data: Arc<[u8]>,
    /// The reply that ends a request's stream.
    pub(super) last: bool,
}

/// What the store holds for a resume after the client's last event: the session's record
/// (`None`: not known, ended, or expired), the oldest and newest events the stream keeps
/// (`None`: the stream is not kept), and the events after the client's last one, oldest
/// first: all of them, or as many as the store reads at once.
#[derive(Debug, Default)]
pub(super) struct Stored {
    pub(super) record: Option<SessionRecord>,
    pub(super) oldest: Option<StoredEvent>,
    pub(super) newest: Option<StoredEvent>,
    pub(super) after: Vec<StoredEvent>,
}

/// The store could not answer (a line on stderr says why).
#[derive(Debug)]
pub(super) struct Unavailable;

pub(super) type Pending<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A store of sessions' events. Writing never waits: what cannot be written is dropped with a
/// line on stderr (a resume elsewhere then finds a gap, refused, rather than a silent skip).
pub(super) trait SharedEvents: Send + Sync {
    /// A new session and its record.
    fn open_session(&self, session: &str, record: &SessionRecord);
    /// One event of `stream`; the events before `oldest_kept` are no longer kept. The
    /// session's record is written again with it: both live on for the TTL from now.
    fn append(
        &self,
        session: &str,
        record: &Arc<SessionRecord>,
        stream: u64,
        event: StoredEvent,
        oldest_kept: u64,
    );
    /// The instance no longer keeps these streams (finished, then forgotten).
    fn forget_streams(&self, session: &str, streams: &[u64]);
    /// The session ended: its record and these streams go.
    fn end_session(&self, session: &str, streams: &[u64]);
    /// The session's record, and the oldest and newest events kept of `stream` with those
    /// after its event `after`: what a resume after `after` needs, and no more (a client
    /// ahead of the store waits for it, looking again and again).
    fn load(&self, session: &str, stream: u64, after: u64) -> Pending<Result<Stored, Unavailable>>;
}

/// One session's side of the store: where its hubs copy their events, and its event ids.
#[derive(Clone)]
pub(super) struct Mirror {
    store: Arc<dyn SharedEvents>,
    session: Arc<str>,
    record: Arc<SessionRecord>,
}

impl Mirror {
    /// A new session `session` of `owner`, with a random tag for its event ids.
    pub(super) fn new(
        store: &Arc<dyn SharedEvents>,
        session: &str,
        owner: Option<String>,
    ) -> Mirror {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).expect("the operating system provides random bytes");
        let record = SessionRecord {
            owner,
            tag: format!("{:016x}", u64::from_le_bytes(bytes)),
        };
        Mirror {
            store: Arc::clone(store),
            session: session.into(),
            record: Arc::new(record),
        }
    }

    /// Writes the session's record.
    pub(super) fn open(&self) {
        self.store.open_session(&self.session, &self.record);
    }

    pub(super) fn append(&self, stream: u64, event: StoredEvent, oldest_kept: u64) {
        (self.store).append(&self.session, &self.record, stream, event, oldest_kept);
    }

    pub(super) fn forget_streams(&self, streams: &[u64]) {
        if !streams.is_empty() {
            self.store.forget_streams(&self.session, streams);
        }
    }

    pub(super) fn end(&self, streams: &[u64]) {
        self.store.end_session(&self.session, streams);
    }

    pub(super) fn event_id(&self, stream: u64, seq: u64) -> String {
        tagged_event_id(&self.record.tag, stream, seq)
    }

    /// The stream and sequence number a `Last-Event-ID` of this session names; `None` for an
    /// id of another session, or not an event id.
    pub(super) fn parse_event_id(&self, id: &str) -> Option<(u64, u64)> {
        let (tag, position) = split_event_id(id)?;
        (tag == self.record.tag).then_some(position)
    }
}

/// An event id of a session whose events are shared: `TAG.STREAM-SEQ`.
pub(super) fn tagged_event_id(tag: &str, stream: u64, seq: u64) -> String {
    format!("{tag}.{stream}-{seq}")
}

/// The tag, stream and sequence number of a `TAG.STREAM-SEQ` event id.
pub(super) fn split_event_id(id: &str) -> Option<(&str, (u64, u64))> {
    let (tag, position) = id.split_once('.')?;
    Some((tag, parse_event_id(position)?))
}

/// A store in memory with the semantics of the Redis one, for the tests of what stands on it.
#[cfg(test)]
pub(super) mod in_memory {
    use std::collections::HashMap;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    #[derive(Default)]
    pub(in super::super) struct InMemory {
        pub(in super::super) records: Mutex<HashMap<String, SessionRecord>>,
        pub(in super::super) streams: Mutex<HashMap<(String, u64), Vec<StoredEvent>>>,
        /// How many events its loads gave, in all: what they would cost on Redis.
        pub(in super::super) events_loaded: AtomicUsize,
        /// How many events after the client's last one a load gives at most, as Redis gives
        /// at most `replay_events`; all of them without.
        pub(in super::super) most_read: Option<usize>,
    }

    impl SharedEvents for InMemory {
        fn open_session(&self, session: &str, record: &SessionRecord) {
            let mut records = self.records.lock().unwrap();
            records.insert(session.to_owned(), record.clone());
        }

        fn append(
            &self,
            session: &str,
            record: &Arc<SessionRecord>,
            stream: u64,
            event: StoredEvent,
            oldest_kept: u64,
        ) {
            self.open_session(session, record);
            let mut streams = self.streams.lock().unwrap();
            let events = streams.entry((session.to_owned(), stream)).or_default();
            events.push(event);
            events.retain(|event| event.seq >= oldest_kept);
        }

        fn forget_streams(&self, session: &str, streams: &[u64]) {
            let mut kept = self.streams.lock().unwrap();
            for stream in streams {
                kept.remove(&(session.to_owned(), *stream));
            }
        }

        fn end_session(&self, session: &str, streams: &[u64]) {
            self.forget_streams(session, streams);
            self.records.lock().unwrap().remove(session);
        }

        fn load(
            &self,
            session: &str,
            stream: u64,
            after: u64,
        ) -> Pending<Result<Stored, Unavailable>> {
            let record = self.records.lock().unwrap().get(session).cloned();
            let streams = self.streams.lock().unwrap();
            let events = streams
                .get(&(session.to_owned(), stream))
                .map_or(&[][..], Vec::as_slice);
            let stored = Stored {
                record,
                oldest: events.first().cloned(),
                newest: events.last().cloned(),
                after: (events.iter().filter(|e| e.seq > after))
                    .take(self.most_read.unwrap_or(usize::MAX))
                    .cloned()
                    .collect(),
            };
            let loaded = stored
                .oldest
                .iter()
                .chain(&stored.newest)
                .chain(&stored.after);
            self.events_loaded
                .fetch_add(loaded.count(), Ordering::SeqCst);
            Box::pin(async move { Ok(stored) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_id_names_its_session_by_tag() {
        assert_eq!(tagged_event_id("ab12", 3, 7), "ab12.3-7");
        assert_eq!(split_event_id("ab12.3-7"), Some(("ab12", (3, 7))));
        for forged in ["3-7", "ab12.3", "ab12.x-7", ".", "ab12.3-7-1"] {
            assert_eq!(split_event_id(forged), None, "{forged}");
        }
    }
}
