//! A GET with `Last-Event-ID` for a session this instance does not hold (another instance
//! issued it: the balancer sent the GET here, or that instance died), answered from the shared
//! store (`shared_events.rs`).
//!
//! The session must be genuine: its record, written by the instance that issued the id, must
//! exist (else 404, the spec's answer for an unknown session), name the same caller on a
//! protected server (else 404 as well: a session id alone lets no one in), and carry the tag
//! the event id starts with (else 400: the id is another session's, or made up; the spec gives
//! no status for it, only that messages of another stream are never replayed, and 404 would
//! make the client drop a session that is fine). Then exactly
//! the events after the client's last one are replayed, in order, when the store still holds
//! all of them (else 410, as on the instance itself).
//!
//! After the replay the stream ends: with the request's reply, when that was among the
//! events; otherwise with a `retry` hint ([`HttpOptions::retry`](super::HttpOptions::retry)).
//! This instance cannot carry the session's live events (they are made where the session
//! lives), so the client polls: it reconnects with its new `Last-Event-ID`, and gets whatever
//! was written since, wherever it lands. If the session's instance is gone, its next POST gets
//! 404 and it starts a new session, as the spec says.

use std::time::Duration;

use super::shared_events::{SharedEvents, Stored, StoredEvent, split_event_id, tagged_event_id};
use super::stream::Frame;

/// How long a resume waits for events the client has seen but the store does not hold yet
/// (their writes are in flight), looking every [`LOOK_EVERY`].
const WAIT_FOR_WRITES: Duration = Duration::from_secs(1);
const LOOK_EVERY: Duration = Duration::from_millis(50);

/// Why a resume elsewhere is refused.
#[derive(Debug, PartialEq)]
pub(super) enum Refusal {
    /// The store knows no such session of this caller: 404.
    UnknownSession,
    /// The event id is not one of this session's: 400.
    NotThisSession,
    /// Events after the client's last one are no longer held: 410.
    Gone(String),
    /// The store did not answer: 503.
    Unavailable,
}

/// The events to replay after `last_event_id` on `session`, for a caller that is `owner`, and
/// whether the last of them ends the stream (a request's reply).
pub(super) async fn replay(
    store: &dyn SharedEvents,
    session: &str,
    last_event_id: &str,
    owner: Option<String>,
) -> Result<(Vec<Frame>, bool), Refusal> {
    let Some((tag, (stream, after))) = split_event_id(last_event_id) else {
        return Err(Refusal::NotThisSession);
    };
    // Timed from here, loads included: each may take a round trip's whole timeout.
    let started = tokio::time::Instant::now();
    let stored = loop {
        let stored = store
            .load(session, stream, after)
            .await
            .map_err(|_| Refusal::Unavailable)?;
        let Some(record) = &stored.record else {
            return Err(Refusal::UnknownSession);
        };
        if record.owner.is_some() && record.owner != owner {
            return Err(Refusal::UnknownSession);
        }
        if record.tag != tag {
            return Err(Refusal::NotThisSession);
        }
        if !behind(&stored, after) || started.elapsed() >= WAIT_FOR_WRITES {
            break stored;
        }
        tokio::time::sleep(LOOK_EVERY).await;
    };
    let (Some(oldest), Some(newest)) = (stored.oldest, stored.newest) else {
        if after == 0 {
            // Only the priming event was sent: nothing yet to replay.
            return Ok((Vec::new(), false));
        }
        return Err(Refusal::Gone(format!(
            "stream {stream} can no longer be resumed: it ended and its events are no longer kept"
        )));
    };
    // The event the client needs next; none follows the largest sequence number there is.
    let next = after.checked_add(1);
    if let Some(next) = next
        && next < oldest.seq
    {
        let missed = oldest.seq - next;
        return Err(Refusal::Gone(format!(
            "at least {missed} event(s) of stream {stream} after the client's last one are no longer kept (HttpOptions::replay_events, replay_bytes): they cannot be replayed"
        )));
    }
    if after > newest.seq && !newest.last {
        return Err(Refusal::Gone(format!(
            "the shared store holds the events of stream {stream} up to {} only: the later ones did not reach it within {WAIT_FOR_WRITES:?} (Redis away, slow, or its writes overflowed) and cannot be replayed",
            newest.seq
        )));
    }
    let events: Vec<StoredEvent> = (stored.after.into_iter())
        .filter(|event| event.seq > after)
        .collect();
    // Each event is written on its own (trimmed from the oldest only), so a hole after the
    // client's last one is a write that never reached the store: replaying around it would
    // skip it silently.
    let mut expected = next;
    for event in &events {
        if let Some(missing) = expected.filter(|expected| *expected != event.seq) {
            return Err(Refusal::Gone(format!(
                "event(s) {missing} to {} of stream {stream} never reached the shared store (Redis was away, or the writes waiting for it overflowed): the stream cannot be replayed whole",
                event.seq - 1
            )));
        }
        expected = event.seq.checked_add(1);
    }
    // The store may give fewer events than follow (as many as it reads at once): the stream
    // ends with the reply only when the reply was among them, or was the client's last event.
    let replayed_to = events.last().map_or(after, |event| event.seq);
    let finished = newest.last && replayed_to >= newest.seq;
    let frames = events
        .into_iter()
        .map(|event| Frame::Event {
            id: tagged_event_id(tag, stream, event.seq),
            data: event.data,
            last: event.last,
        })
        .collect();
    Ok((frames, finished))
}

/// Whether the client has seen events that `stored` does not hold (nor a reply that ended the
/// stream).
fn behind(stored: &Stored, after: u64) -> bool {
    match &stored.newest {
        Some(newest) => newest.seq < after && !newest.last,
        None => after > 0,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::Ordering;

    use super::super::shared_events::SessionRecord;
    use super::super::shared_events::in_memory::InMemory;
    use super::*;

    /// A store holding session `s1` (owned by `alice`, tag `t1`) whose stream 2 kept events
    /// 3..=5, the last one its reply when `finished`.
    fn kept(finished: bool) -> InMemory {
        let store = InMemory::default();
        let record = SessionRecord {
            owner: Some("alice".to_owned()),
            tag: "t1".to_owned(),
        };
        store.open_session("s1", &record);
        for seq in 3..=5 {
            let event = StoredEvent {
                seq,
                data: Arc::from(format!("{seq}").as_bytes()),
                last: finished && seq == 5,
            };
            store.append("s1", &Arc::new(record.clone()), 2, event, 3);
        }
        store
    }

    /// Events `seqs` of `s1`'s stream 2, none of them its reply, after those [`kept`] holds.
    fn append(store: &InMemory, seqs: impl IntoIterator<Item = u64>) {
        let record = Arc::new(SessionRecord {
            owner: Some("alice".to_owned()),
            tag: "t1".to_owned(),
        });
        for seq in seqs {
            let event = StoredEvent {
                seq,
                data: Arc::from(format!("{seq}").as_bytes()),
                last: false,
            };
            store.append("s1", &record, 2, event, 3);
        }
    }

    fn alice() -> Option<String> {
        Some("alice".to_owned())
    }

    fn ids(frames: &[Frame]) -> Vec<&str> {
        frames
            .iter()
            .map(|frame| match frame {
                Frame::Event { id, .. } => id.as_str(),
                Frame::Close => "close",
            })
            .collect()
    }

    #[tokio::test]
    async fn exactly_the_events_after_the_last_one_seen_are_replayed() {
        let store = kept(true);
        let (frames, finished) = replay(&store, "s1", "t1.2-3", alice()).await.unwrap();
        assert_eq!(ids(&frames), ["t1.2-4", "t1.2-5"]);
        assert!(finished);
        let (frames, _) = replay(&store, "s1", "t1.2-5", alice()).await.unwrap();
        assert!(frames.is_empty());
        let (frames, finished) = replay(&kept(false), "s1", "t1.2-4", alice()).await.unwrap();
        assert_eq!(ids(&frames), ["t1.2-5"]);
        assert!(!finished, "the stream goes on where the session lives");
    }

    #[tokio::test]
    async fn a_resume_is_refused_for_another_caller_another_session_or_a_gap() {
        let store = kept(false);
        let refused = |session: &'static str, id: &'static str, owner: Option<String>| {
            let store = &store;
            async move { replay(store, session, id, owner).await.err() }
        };
        let unknown = Some(Refusal::UnknownSession);
        assert_eq!(refused("s2", "t1.2-4", alice()).await, unknown);
        assert_eq!(
            refused("s1", "t1.2-4", Some("eve".to_owned())).await,
            unknown
        );
        assert_eq!(refused("s1", "t1.2-4", None).await, unknown);
        let foreign = Some(Refusal::NotThisSession);
        assert_eq!(refused("s1", "t2.2-4", alice()).await, foreign);
        assert_eq!(refused("s1", "2-4", alice()).await, foreign);
        // Event 2 was trimmed: resuming after 1 would skip it silently.
        assert!(matches!(
            refused("s1", "t1.2-1", alice()).await,
            Some(Refusal::Gone(why)) if why.contains("at least 1 event")
        ));
        // A stream the store does not hold (never, or forgotten).
        assert!(matches!(
            refused("s1", "t1.9-1", alice()).await,
            Some(Refusal::Gone(_))
        ));
    }

    /// A write that never reached the store leaves a hole: a resume that would replay across
    /// it is refused (410), one after it is served.
    #[tokio::test]
    async fn a_resume_across_an_event_the_store_lacks_is_refused() {
        let store = kept(false);
        append(&store, [7, 8]);
        for after in ["t1.2-3", "t1.2-5"] {
            assert!(
                matches!(
                    replay(&store, "s1", after, alice()).await.err(),
                    Some(Refusal::Gone(why)) if why.contains("event(s) 6 to 6 of stream 2 never reached")
                ),
                "{after}"
            );
        }
        let (frames, _) = replay(&store, "s1", "t1.2-6", alice()).await.unwrap();
        assert_eq!(ids(&frames), ["t1.2-7", "t1.2-8"]);
    }

    /// A resume naming an event far ahead of what the store holds looks again every 50 ms
    /// for a second, each look reading two events (the oldest and newest kept), not the
    /// whole stream (the last 1024 events, by default, read 20 times over).
    #[tokio::test]
    async fn waiting_for_events_reads_two_events_a_look() {
        let store = kept(false);
        append(&store, 6..=100);
        let refused = replay(&store, "s1", "t1.2-1000", alice()).await.err();
        assert!(matches!(refused, Some(Refusal::Gone(why)) if why.contains("up to 100 only")));
        let loaded = store.events_loaded.load(Ordering::SeqCst);
        let looks = (WAIT_FOR_WRITES.as_millis() / LOOK_EVERY.as_millis()) as usize;
        assert!(loaded <= 2 * (looks + 2), "{loaded} events read");
    }

    /// When the store gives fewer events than follow, those are replayed and the stream
    /// ends with a retry hint, not as if the reply had been sent: the client resumes from
    /// the last one it got.
    #[tokio::test]
    async fn a_replay_cut_short_by_the_store_does_not_end_the_stream() {
        let store = InMemory {
            most_read: Some(2),
            ..kept(true)
        };
        let (frames, finished) = replay(&store, "s1", "t1.2-2", alice()).await.unwrap();
        assert_eq!(ids(&frames), ["t1.2-3", "t1.2-4"]);
        assert!(!finished);
        let (frames, finished) = replay(&store, "s1", "t1.2-4", alice()).await.unwrap();
        assert_eq!(ids(&frames), ["t1.2-5"]);
        assert!(finished);
    }

    /// A `Last-Event-ID` naming the largest sequence number there is: nothing follows it, so
    /// nothing is replayed (the reply ended the stream) or the store lacks it (410); counting
    /// on from it overflowed.
    #[tokio::test]
    async fn a_resume_after_the_largest_sequence_number_does_not_overflow() {
        let last = format!("t1.2-{}", u64::MAX);
        let (frames, finished) = replay(&kept(true), "s1", &last, alice()).await.unwrap();
        assert!(frames.is_empty());
        assert!(finished);
        let refused = replay(&kept(false), "s1", &last, alice()).await.err();
        assert!(matches!(refused, Some(Refusal::Gone(why)) if why.contains("up to 5 only")));
    }

    #[tokio::test]
    async fn events_the_client_saw_but_the_store_lacks_are_waited_for_then_refused() {
        let store = kept(false);
        let started = std::time::Instant::now();
        let refused = replay(&store, "s1", "t1.2-8", alice()).await.err();
        assert!(matches!(refused, Some(Refusal::Gone(why)) if why.contains("up to 5 only")));
        let waited = started.elapsed();
        assert!(
            waited >= WAIT_FOR_WRITES && waited < WAIT_FOR_WRITES * 3,
            "{waited:?}"
        );
    }
}
