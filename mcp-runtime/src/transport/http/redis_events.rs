//! The shared event store on Redis (`shared_events.rs` says what it holds and why): each SSE
//! stream of a session of the 2025 revisions is a Redis stream, `mcp:events:NAME:SESSION:N`
//! (NAME is the server's `serverInfo.name`), whose entry ids are the events' sequence numbers
//! (`SEQ-0`); each event is one `XADD` that also trims what the instance no longer keeps
//! (`MINID`), so the Redis stream holds what the hub holds. The session's record (owner, event
//! id tag) is a JSON string at `mcp:session:NAME:SESSION`. Each event sets its stream's TTL
//! again and writes the record again, with the same TTL
//! ([`HttpOptions::shared_events_ttl`](super::HttpOptions::shared_events_ttl)): what a dead
//! instance left disappears on its own, and the record of a session that was quiet for longer
//! comes back with its next event.
//!
//! Like the change bus, the store works on a thread of its own with a one-thread Tokio runtime,
//! fed by a bounded queue ([`QUEUE`]): writing never waits on Redis. Queued writes go out as one
//! pipeline; a load waits for the writes queued before it, so it sees them. A write that finds
//! the queue full, or Redis away, is dropped with a rate-limited line on stderr; a load that
//! Redis does not answer within the bus's connect timeout fails ([`Unavailable`], a line on
//! stderr), and the resume that asked is refused with 503, never left hanging; a load whose
//! resume stopped waiting before its turn came is not run. The connection is made on first use
//! and again after a failure.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use super::shared_events::{
    Pending, SessionRecord, SharedEvents, Stored, StoredEvent, Unavailable,
};
use crate::limit_log::LimitLog;
use crate::longest_duration::at_most_a_year;
use crate::redis_link::{self, Reconnecting};

/// How many writes may wait for Redis.
pub(super) const QUEUE: usize = 4096;

/// How many queued writes go out in one pipeline at most.
const BATCH: usize = 256;

/// The store: the queue to its thread.
pub(super) struct RedisEvents {
    commands: mpsc::Sender<Command>,
}

enum Command {
    Write(Write),
    Load {
        session: String,
        stream: u64,
        after: u64,
        reply: oneshot::Sender<Result<Stored, String>>,
    },
}

enum Write {
    Open {
        session: String,
        record: String,
    },
    Append {
        session: String,
        record: Arc<SessionRecord>,
        stream: u64,
        event: StoredEvent,
        oldest_kept: u64,
    },
    /// The streams' keys, and the record's with `record`.
    Delete {
        session: String,
        streams: Vec<u64>,
        record: bool,
    },
}

/// What the thread works with.
struct Link {
    /// `host:port`, for log lines.
    address: String,
    /// `NAME`, in every key.
    name: String,
    ttl_ms: u64,
    /// How many events one load reads at most after the client's last one.
    most_read: usize,
    connection: Reconnecting,
}

impl RedisEvents {
    /// The store on the Redis at `url` for the server `name`, keeping what is written for
    /// `ttl` after the session's last event (at most a year: Redis refuses an expiry as long
    /// as `Duration::MAX`), and reading at most `most_read` events at once for a resume (as
    /// many as a stream keeps, [`HttpOptions::replay_events`](super::HttpOptions::replay_events):
    /// what another instance configured otherwise keeps beyond it is replayed by the client's
    /// next resume). Connects on first use.
    pub(super) fn start(
        url: &str,
        name: &str,
        ttl: Duration,
        most_read: usize,
    ) -> Result<RedisEvents, String> {
        let (client, address) = crate::redis_link::open(url)?;
        let (commands, queue) = mpsc::channel(QUEUE);
        let link = Link {
            address,
            name: name.to_owned(),
            ttl_ms: u64::try_from(at_most_a_year(ttl).as_millis())
                .expect("a year in milliseconds fits")
                .max(1),
            most_read: most_read.max(1),
            connection: Reconnecting::new(client),
        };
        redis_link::spawn_worker(
            "mcp-redis-events",
            "the Redis event store",
            "legacy streams are not shared with other instances",
            move || link.serve(queue),
        )?;
        Ok(RedisEvents { commands })
    }

    fn write(&self, write: Write) {
        if self.commands.try_send(Command::Write(write)).is_err() {
            static FULL: LimitLog = LimitLog::new();
            FULL.hit(|| {
                format!("{QUEUE} writes wait for the Redis event store: this one is dropped, and a resume on another instance will find a gap (refused with 410)")
            });
        }
    }
}

fn session_key(name: &str, session: &str) -> String {
    format!("mcp:session:{name}:{session}")
}

fn events_key(name: &str, session: &str, stream: u64) -> String {
    format!("mcp:events:{name}:{session}:{stream}")
}

impl SharedEvents for RedisEvents {
    fn open_session(&self, session: &str, record: &SessionRecord) {
        let record = serde_json::to_string(record).expect("a record serializes");
        self.write(Write::Open {
            session: session.to_owned(),
            record,
        });
    }

    fn append(
        &self,
        session: &str,
        record: &Arc<SessionRecord>,
        stream: u64,
        event: StoredEvent,
        oldest_kept: u64,
    ) {
        self.write(Write::Append {
            session: session.to_owned(),
            record: Arc::clone(record),
            stream,
            event,
            oldest_kept,
        });
    }

    fn forget_streams(&self, session: &str, streams: &[u64]) {
        self.write(Write::Delete {
            session: session.to_owned(),
            streams: streams.to_vec(),
            record: false,
        });
    }

    fn end_session(&self, session: &str, streams: &[u64]) {
        self.write(Write::Delete {
            session: session.to_owned(),
            streams: streams.to_vec(),
            record: true,
        });
    }

    fn load(&self, session: &str, stream: u64, after: u64) -> Pending<Result<Stored, Unavailable>> {
        let commands = self.commands.clone();
        let session = session.to_owned();
        Box::pin(async move {
            let (reply, answer) = oneshot::channel();
            let asked = async {
                commands
                    .send(Command::Load {
                        session,
                        stream,
                        after,
                        reply,
                    })
                    .await
                    .map_err(|_| "the store's thread has ended".to_owned())?;
                answer
                    .await
                    .map_err(|_| "the store's thread has ended".to_owned())?
            };
            redis_link::answer_within(asked).await.map_err(|why| {
                static FAILED: LimitLog = LimitLog::new();
                FAILED.hit(|| {
                    format!("reading the Redis event store failed ({why}): a resume on this instance of another instance's stream is refused with 503")
                });
                Unavailable
            })
        })
    }
}

impl Link {
    async fn serve(mut self, mut queue: mpsc::Receiver<Command>) {
        let mut writes = Vec::new();
        while let Some(command) = queue.recv().await {
            let mut load = None;
            match command {
                Command::Write(write) => writes.push(write),
                Command::Load { .. } => load = Some(command),
            }
            // What else waits goes out in the same pipeline, up to a load.
            while load.is_none() && writes.len() < BATCH {
                match queue.try_recv() {
                    Ok(Command::Write(write)) => writes.push(write),
                    Ok(command) => load = Some(command),
                    Err(_) => break,
                }
            }
            if !writes.is_empty() {
                self.write_all(std::mem::take(&mut writes)).await;
            }
            // A load whose caller stopped waiting (its wait ended) would answer no one, and
            // hold up the loads behind it.
            if let Some(Command::Load {
                session,
                stream,
                after,
                reply,
            }) = load
                && !reply.is_closed()
            {
                let _ = reply.send(self.load(&session, stream, after).await);
            }
        }
    }

    fn pipeline(&self, writes: &[Write]) -> redis::Pipeline {
        let mut pipe = redis::pipe();
        for write in writes {
            match write {
                Write::Open { session, record } => {
                    self.set_record(&mut pipe, session, record);
                }
                Write::Append {
                    session,
                    record,
                    stream,
                    event,
                    oldest_kept,
                } => {
                    let key = events_key(&self.name, session, *stream);
                    pipe.cmd("XADD")
                        .arg(&key)
                        .arg("MINID")
                        .arg("=")
                        .arg(format!("{oldest_kept}-0"))
                        .arg(format!("{}-0", event.seq))
                        .arg("d")
                        .arg(&*event.data)
                        .arg("l")
                        .arg(u8::from(event.last))
                        .ignore();
                    pipe.cmd("PEXPIRE").arg(&key).arg(self.ttl_ms).ignore();
                    // Written again rather than given more time: a record that expired while
                    // the session was quiet comes back with its next event.
                    let record = serde_json::to_string(&**record).expect("a record serializes");
                    self.set_record(&mut pipe, session, &record);
                }
                Write::Delete {
                    session,
                    streams,
                    record,
                } => {
                    let mut del = redis::cmd("DEL");
                    for stream in streams {
                        del.arg(events_key(&self.name, session, *stream));
                    }
                    if *record {
                        del.arg(session_key(&self.name, session));
                    }
                    pipe.add_command(del).ignore();
                }
            }
        }
        pipe
    }

    fn set_record(&self, pipe: &mut redis::Pipeline, session: &str, record: &str) {
        pipe.cmd("SET")
            .arg(session_key(&self.name, session))
            .arg(record)
            .arg("PX")
            .arg(self.ttl_ms)
            .ignore();
    }

    /// Sends `writes` as one pipeline, on a new connection if the first fails (Redis
    /// restarted since it was made).
    async fn write_all(&mut self, writes: Vec<Write>) {
        let pipe = self.pipeline(&writes);
        let outcome = self.connection.round_trip(|mut connection| {
            let pipe = pipe.clone();
            async move { pipe.query_async::<()>(&mut connection).await }
        });
        if let Err(e) = outcome.await {
            static FAILED: LimitLog = LimitLog::new();
            FAILED.hit(|| {
                format!(
                    "writing {} event(s) to the Redis event store at {} failed ({e}): a resume of them on another instance will be refused",
                    writes.len(),
                    self.address
                )
            });
        }
    }

    /// The session's record, the oldest and newest events of `stream`, and at most
    /// [`most_read`](Self::most_read) events after `after`, in one round trip: a resume waiting
    /// for events the store does not hold yet reads two events a look, not the whole stream.
    async fn load(&mut self, session: &str, stream: u64, after: u64) -> Result<Stored, String> {
        let record_key = session_key(&self.name, session);
        let key = events_key(&self.name, session, stream);
        let from = format!("{}-0", after.saturating_add(1));
        let most_read = self.most_read;
        type Entries = Vec<(String, Vec<Vec<u8>>)>;
        let (record, oldest, newest, after): (Option<Vec<u8>>, Entries, Entries, Entries) = self
            .connection
            .round_trip(|mut connection| {
                let mut pipe = redis::pipe();
                pipe.cmd("GET").arg(&record_key);
                pipe.cmd("XRANGE")
                    .arg(&key)
                    .arg("-")
                    .arg("+")
                    .arg("COUNT")
                    .arg(1);
                pipe.cmd("XREVRANGE")
                    .arg(&key)
                    .arg("+")
                    .arg("-")
                    .arg("COUNT")
                    .arg(1);
                (pipe.cmd("XRANGE").arg(&key).arg(&from).arg("+"))
                    .arg("COUNT")
                    .arg(most_read);
                async move { pipe.query_async(&mut connection).await }
            })
            .await?;
        let record = match record {
            Some(bytes) => Some(
                serde_json::from_slice::<SessionRecord>(&bytes)
                    .map_err(|e| format!("the record at {record_key} is not one ({e})"))?,
            ),
            None => None,
        };
        let events = |entries: Entries| -> Result<Vec<StoredEvent>, String> {
            (entries.into_iter())
                .map(|(id, fields)| {
                    entry(&id, fields).ok_or_else(|| format!("the entry {id} of {key} is not one"))
                })
                .collect()
        };
        Ok(Stored {
            record,
            oldest: events(oldest)?.pop(),
            newest: events(newest)?.pop(),
            after: events(after)?,
        })
    }
}

/// A stream entry `SEQ-0` with fields `d` (the message) and `l` (1: the last event).
fn entry(id: &str, fields: Vec<Vec<u8>>) -> Option<StoredEvent> {
    let seq = id.strip_suffix("-0")?.parse().ok()?;
    let mut data = None;
    let mut last = false;
    let mut fields = fields.into_iter();
    while let (Some(name), Some(value)) = (fields.next(), fields.next()) {
        match name.as_slice() {
            b"d" => data = Some(Arc::from(value)),
            b"l" => last = value == b"1",
            _ => {}
        }
    }
    Some(StoredEvent {
        seq,
        data: data?,
        last,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redis_link::test_server::redis_server;

    fn event(seq: u64, last: bool) -> StoredEvent {
        StoredEvent {
            seq,
            data: Arc::from(format!("message {seq}").as_bytes()),
            last,
        }
    }

    /// A connection of its own to the Redis at `url`, to look at what the store wrote.
    async fn raw_connection(url: &str) -> redis::aio::MultiplexedConnection {
        redis::Client::open(url)
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap()
    }

    /// The time left (`PTTL`, in ms) of the keys of session `s`'s record and stream 1 of
    /// server `t`.
    async fn ttls(raw: &mut redis::aio::MultiplexedConnection) -> Vec<(&'static str, i64)> {
        let mut ttls = Vec::new();
        for key in ["mcp:events:t:s:1", "mcp:session:t:s"] {
            let ttl: i64 = redis::cmd("PTTL").arg(key).query_async(raw).await.unwrap();
            ttls.push((key, ttl));
        }
        ttls
    }

    #[tokio::test]
    async fn redis_holds_what_the_hub_keeps_for_the_ttl_and_nothing_after_the_session_ends() {
        let Some(server) = redis_server() else {
            return;
        };
        let url = server.url();
        let store = RedisEvents::start(&url, "t", Duration::from_secs(60), 1024).unwrap();
        let record = SessionRecord {
            owner: None,
            tag: "ab".to_owned(),
        };
        // Not written at first (say Redis was away): the first event writes it.
        let shared = Arc::new(record.clone());
        // The hub keeps the last three: it says so with each event.
        for seq in 1..=5u64 {
            let oldest_kept = seq.saturating_sub(2).max(1);
            store.append("s", &shared, 1, event(seq, seq == 5), oldest_kept);
        }
        let stored = store.load("s", 1, 0).await.unwrap();
        assert_eq!(stored.record.as_ref(), Some(&record));
        assert_eq!(
            stored.after,
            [event(3, false), event(4, false), event(5, true)]
        );
        assert_eq!(stored.oldest, Some(event(3, false)));
        assert_eq!(stored.newest, Some(event(5, true)));

        let mut raw = raw_connection(&url).await;
        for (key, ttl) in ttls(&mut raw).await {
            assert!((50_000..=60_000).contains(&ttl), "{key}: {ttl} ms");
        }

        store.forget_streams("s", &[1]);
        assert!(store.load("s", 1, 0).await.unwrap().newest.is_none());
        store.open_session("s", &record);
        store.append("s", &shared, 2, event(1, false), 1);
        store.end_session("s", &[2]);
        let stored = store.load("s", 2, 0).await.unwrap();
        assert_eq!((stored.record, stored.newest), (None, None));
        let keys: Vec<String> = redis::cmd("KEYS")
            .arg("mcp:*")
            .query_async(&mut raw)
            .await
            .unwrap();
        assert!(keys.is_empty(), "{keys:?}");

        drop(server);
        let refused = store.load("s", 2, 0).await;
        assert!(
            refused.is_err(),
            "no Redis: the load fails instead of hanging"
        );
    }

    /// A load reads the oldest and newest events and those after the client's last one, at
    /// most as many as a stream keeps: a client ahead of the store reads two events a look.
    #[tokio::test]
    async fn a_load_reads_what_follows_the_last_event_seen_and_no_more() {
        let Some(server) = redis_server() else {
            return;
        };
        let store = RedisEvents::start(&server.url(), "t", Duration::from_secs(60), 3).unwrap();
        let record = Arc::new(SessionRecord {
            owner: None,
            tag: "ab".to_owned(),
        });
        for seq in 1..=10 {
            store.append("s", &record, 1, event(seq, false), 1);
        }
        let stored = store.load("s", 1, 4).await.unwrap();
        assert_eq!(
            stored.after,
            [event(5, false), event(6, false), event(7, false)]
        );
        assert_eq!(
            (stored.oldest, stored.newest),
            (Some(event(1, false)), Some(event(10, false)))
        );
        for ahead in [10, 1000, u64::MAX] {
            let stored = store.load("s", 1, ahead).await.unwrap();
            assert!(stored.after.is_empty(), "{ahead}");
            assert_eq!(stored.newest, Some(event(10, false)));
        }
    }

    /// RELIABILITY.md: a duration too long to add to a clock is taken as a year.
    /// `shared_events_ttl(Duration::MAX)` keeps what is written for a year; written as it
    /// was, Redis refused the expiry (`PX 18446744073709551615`) and the record with it.
    #[tokio::test]
    async fn an_endless_ttl_keeps_the_events_for_a_year() {
        let Some(server) = redis_server() else {
            return;
        };
        let url = server.url();
        let store = RedisEvents::start(&url, "t", Duration::MAX, 1024).unwrap();
        let record = Arc::new(SessionRecord {
            owner: None,
            tag: "ab".to_owned(),
        });
        store.append("s", &record, 1, event(1, false), 1);
        let stored = store.load("s", 1, 0).await.unwrap();
        assert_eq!(stored.record.as_ref(), Some(&*record));
        assert_eq!(stored.after, [event(1, false)]);
        let year = i64::try_from(crate::longest_duration::LONGEST.as_millis()).unwrap();
        for (key, ttl) in ttls(&mut raw_connection(&url).await).await {
            assert!((year - 60_000..=year).contains(&ttl), "{key}: {ttl} ms");
        }
    }

    /// Loads whose resumes stopped waiting while Redis was paused are not run once it
    /// answers again: Redis counts the `XRANGE`s of the loads still waited for only.
    #[tokio::test]
    async fn a_load_whose_caller_gave_up_is_not_run() {
        let Some(server) = redis_server() else {
            return;
        };
        let url = server.url();
        let store = RedisEvents::start(&url, "t", Duration::from_secs(60), 1024).unwrap();
        let store = Arc::new(store);
        store.load("s", 1, 0).await.unwrap();
        server.pause(1000).await;
        // The thread waits on Redis for this load; the loads queued behind it wait too.
        let waiting = tokio::spawn({
            let store = Arc::clone(&store);
            async move { store.load("s", 1, 0).await.is_ok() }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        for _ in 0..10 {
            let gave_up = tokio::time::timeout(Duration::from_millis(10), store.load("s", 1, 0));
            assert!(gave_up.await.is_err());
        }
        assert!(waiting.await.unwrap());
        store.load("s", 1, 0).await.unwrap();
        let stats: String = redis::cmd("INFO")
            .arg("commandstats")
            .query_async(&mut raw_connection(&url).await)
            .await
            .unwrap();
        let xranges = stats
            .lines()
            .find_map(|line| line.strip_prefix("cmdstat_xrange:calls="))
            .and_then(|calls| calls.split(',').next())
            .unwrap_or_default();
        // Two a load: the oldest event, and those after the client's last one.
        assert_eq!(xranges, "6", "{stats}");
    }

    #[test]
    fn an_entry_reads_back_as_the_event_written() {
        let fields = vec![b"d".to_vec(), b"{}".to_vec(), b"l".to_vec(), b"1".to_vec()];
        let event = entry("7-0", fields).unwrap();
        assert_eq!((event.seq, &*event.data, event.last), (7, &b"{}"[..], true));
        assert!(entry("7-1", vec![b"d".to_vec(), b"{}".to_vec()]).is_none());
        assert!(entry("7-0", vec![b"l".to_vec(), b"0".to_vec()]).is_none());
    }
}
