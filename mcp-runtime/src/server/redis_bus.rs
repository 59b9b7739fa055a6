//! The change bus shared by several instances of a server through Redis (the `redis` feature,
//! [`ServerBuilder::redis`](super::ServerBuilder::redis)): a change made on one instance
//! reaches the `subscriptions/listen` streams of every instance.
//!
//! With the `tasks` feature the bus also carries what another instance asks of the tasks this
//! one runs (`tasks/cancel`, `tasks/update`): it subscribes to this instance's own channel
//! `mcp:tasks:NAME:INSTANCE` and hands each command to the server's task store
//! (`tasks/redis_records.rs` publishes them); and, on `mcp:task-status:NAME`, the status
//! changes of the tasks other instances run, for the listen streams here that follow them.
//!
//! Each change is delivered to this instance's listeners at once, as the in-process bus does,
//! and published on a Redis channel (`PUBLISH`, one JSON message naming the instance that made
//! it); every instance subscribes to that channel and hands the changes of the *other*
//! instances to its own listeners, and to its sessions of the 2025 revisions (list changes to
//! every initialized session, a resource update to those subscribed to it). Redis pub/sub
//! keeps nothing: it is a relay, not a store.
//!
//! The connections live on a thread of their own with a one-thread Tokio runtime, so the bus
//! works whatever runtime (or none) the server is built and served on, and a Redis that stalls
//! never holds up a request. Building waits for the first subscription, within
//! [`CONNECT_TIMEOUT`]: a Redis that cannot be reached at start-up fails the build with a
//! message naming its address, instead of a server that hangs or serves without the bus.
//!
//! Later, a lost connection (closed, or silent to a ping every [`HEARTBEAT`]) is retried with
//! a backoff ([`FIRST_RETRY`] doubling up to [`LAST_RETRY`]); one stderr line says it was
//! lost (what is published meanwhile reaches this instance's clients only, and changes of
//! other instances are missed), another that it is back. Publishing goes through a bounded
//! queue ([`QUEUE`]): a change that finds it full, or finds Redis away, is not relayed (a
//! rate-limited line says so). `/ready` says whether the bus is connected (and stays 200: an
//! instance without Redis still serves every request).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;

use futures_util::StreamExt as _;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::ServerCore;
use super::changes::{BACKLOG, Change, ChangeBus};
use crate::limit_log::LimitLog;
use crate::redis_link::{self, CONNECT_TIMEOUT};

/// The wait before the first retry after a lost connection.
pub(crate) const FIRST_RETRY: Duration = Duration::from_millis(250);
/// The longest wait between two retries.
pub(crate) const LAST_RETRY: Duration = Duration::from_secs(5);
/// How many changes may wait to be published.
pub(crate) const QUEUE: usize = 1024;
/// How often a silent subscription is pinged.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(5);

/// The bus: local delivery, and the queue to the Redis thread.
pub(crate) struct RedisBus {
    /// This instance's name on the channels.
    #[cfg_attr(
        not(feature = "tasks"),
        expect(dead_code, reason = "names the runner of a task")
    )]
    me: String,
    local: broadcast::Sender<Change>,
    outgoing: mpsc::Sender<Change>,
    #[cfg_attr(
        not(feature = "http"),
        expect(dead_code, reason = "read by `/ready`, which the http feature serves")
    )]
    connected: Arc<AtomicBool>,
    server: Arc<OnceLock<Weak<ServerCore>>>,
    /// Dropped with the bus: stops the Redis thread.
    _stop: oneshot::Sender<()>,
}

/// One change on the wire: which instance made it, and what it is.
#[derive(Serialize, Deserialize)]
struct Message {
    from: String,
    #[serde(flatten)]
    change: WireChange,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "change", rename_all = "snake_case")]
enum WireChange {
    ToolsListChanged,
    PromptsListChanged,
    ResourcesListChanged,
    ResourceUpdated { uri: String },
}

impl From<&Change> for WireChange {
    fn from(change: &Change) -> WireChange {
        match change {
            Change::ToolsListChanged => WireChange::ToolsListChanged,
            Change::PromptsListChanged => WireChange::PromptsListChanged,
            Change::ResourcesListChanged => WireChange::ResourcesListChanged,
            Change::ResourceUpdated(uri) => WireChange::ResourceUpdated { uri: uri.clone() },
        }
    }
}

impl From<WireChange> for Change {
    fn from(change: WireChange) -> Change {
        match change {
            WireChange::ToolsListChanged => Change::ToolsListChanged,
            WireChange::PromptsListChanged => Change::PromptsListChanged,
            WireChange::ResourcesListChanged => Change::ResourcesListChanged,
            WireChange::ResourceUpdated { uri } => Change::ResourceUpdated(uri),
        }
    }
}

/// What the Redis thread works with.
struct Link {
    client: redis::Client,
    /// `host:port` (never the URL, which may hold a password), for log lines.
    address: String,
    channel: String,
    /// The channel of commands for this instance's tasks.
    #[cfg(feature = "tasks")]
    tasks_channel: String,
    /// The channel on which tasks' status changes are announced.
    #[cfg(feature = "tasks")]
    status_channel: String,
    /// This instance's name on the channel: its own messages come back and are skipped.
    me: String,
    local: broadcast::Sender<Change>,
    connected: Arc<AtomicBool>,
    /// The server, whose sessions of the 2025 revisions hear of other instances' changes.
    server: Arc<OnceLock<Weak<ServerCore>>>,
}

impl RedisBus {
    /// Connects to the Redis at `url` and subscribes to the channel of the server `name`
    /// (`mcp:changes:NAME`), within [`CONNECT_TIMEOUT`]; `Err` says why not, naming the
    /// address.
    pub(crate) fn connect(url: &str, name: &str) -> Result<RedisBus, String> {
        let (client, address) = crate::redis_link::open(url)?;
        let local = broadcast::Sender::new(BACKLOG);
        let (outgoing, queue) = mpsc::channel(QUEUE);
        let connected = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = oneshot::channel();
        let (started, start) = std::sync::mpsc::sync_channel(1);
        let server = Arc::new(OnceLock::new());
        let me = instance_name();
        let link = Link {
            client,
            address,
            channel: format!("mcp:changes:{name}"),
            #[cfg(feature = "tasks")]
            tasks_channel: crate::tasks::redis_records::runner_channel(name, &me),
            #[cfg(feature = "tasks")]
            status_channel: crate::tasks::redis_records::status_channel(name),
            me: me.clone(),
            local: local.clone(),
            connected: Arc::clone(&connected),
            server: Arc::clone(&server),
        };
        crate::named_thread::spawn(
            "mcp-redis-bus",
            Box::new(move || link.run(queue, stopped, started)),
        )
        .map_err(|e| format!("cannot start the Redis bus's thread: {e}"))?;
        match start.recv() {
            Ok(Ok(())) => Ok(RedisBus {
                me,
                local,
                outgoing,
                connected,
                server,
                _stop: stop,
            }),
            Ok(Err(problem)) => Err(problem),
            Err(_) => Err("the Redis bus's thread ended before connecting".to_owned()),
        }
    }
}

impl RedisBus {
    /// This instance's name on the channels: the runner its tasks' records name.
    #[cfg(feature = "tasks")]
    pub(crate) fn instance(&self) -> &str {
        &self.me
    }
}

/// A name for this instance on the channel: 64 random bits in hex.
fn instance_name() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system provides random bytes");
    format!("{:016x}", u64::from_le_bytes(bytes))
}

impl ChangeBus for RedisBus {
    fn publish(&self, change: Change) {
        let _ = self.local.send(change.clone());
        if self.outgoing.try_send(change).is_err() {
            static FULL: LimitLog = LimitLog::new();
            FULL.hit(|| {
                format!("{QUEUE} changes wait to be published on Redis: this one reaches this instance's listeners only")
            });
        }
    }

    fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.local.subscribe()
    }

    #[cfg(feature = "http")]
    fn connected(&self) -> bool {
        self.connected.load(Ordering::Acquire)
    }

    fn attach(&self, server: Weak<ServerCore>) {
        let _ = self.server.set(server);
    }
}

impl Link {
    /// The thread's body: the first subscription (reported on `started`), then relaying both
    /// ways until the bus is dropped.
    fn run(
        self,
        queue: mpsc::Receiver<Change>,
        stopped: oneshot::Receiver<()>,
        started: std::sync::mpsc::SyncSender<Result<(), String>>,
    ) {
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => {
                let _ = started.send(Err(format!("cannot start the Redis bus's runtime: {e}")));
                return;
            }
        };
        runtime.block_on(async move {
            let first = match self.subscribe().await {
                Ok(pubsub) => {
                    self.connected.store(true, Ordering::Release);
                    let _ = started.send(Ok(()));
                    pubsub
                }
                Err(e) => {
                    // Reached, but refused: the URL's credentials, not the server, are wrong.
                    let refused = ["NOAUTH", "WRONGPASS", "uthentication"]
                        .iter()
                        .any(|word| e.contains(word));
                    let problem = if refused {
                        format!(
                            "Redis at {} refused this server (ServerBuilder::redis, --redis): {e}; give the user and password it expects in the URL (redis://USER:PASSWORD@HOST:PORT)",
                            self.address
                        )
                    } else {
                        format!(
                            "cannot reach Redis at {} (ServerBuilder::redis, --redis): {e}; start it, or correct the URL",
                            self.address
                        )
                    };
                    let _ = started.send(Err(problem));
                    return;
                }
            };
            let link = Arc::new(self);
            let publishing = tokio::spawn(Arc::clone(&link).publish_all(queue));
            tokio::select! {
                () = Arc::clone(&link).receive_all(first) => {}
                _ = stopped => {}
            }
            publishing.abort();
        });
    }

    /// A connection subscribed to the channel, within [`CONNECT_TIMEOUT`].
    async fn subscribe(&self) -> Result<redis::aio::PubSub, String> {
        let attempt = async {
            let mut pubsub = self.client.get_async_pubsub().await?;
            pubsub.subscribe(&self.channel).await?;
            #[cfg(feature = "tasks")]
            pubsub
                .subscribe(&[&self.tasks_channel, &self.status_channel])
                .await?;
            Ok::<_, redis::RedisError>(pubsub)
        };
        match tokio::time::timeout(CONNECT_TIMEOUT, attempt).await {
            Ok(Ok(pubsub)) => Ok(pubsub),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!("no answer within {CONNECT_TIMEOUT:?}")),
        }
    }

    /// Hands every other instance's change to the local listeners; resubscribes with a
    /// backoff whenever the connection is lost. Never returns.
    async fn receive_all(self: Arc<Self>, mut pubsub: redis::aio::PubSub) {
        static LOST: LimitLog = LimitLog::new();
        static BACK: LimitLog = LimitLog::new();
        loop {
            let why = self.receive(pubsub).await;
            self.connected.store(false, Ordering::Release);
            LOST.hit(|| {
                format!(
                    "lost the connection to Redis at {} ({why}): retrying; until it is back, changes reach this instance's clients only, and other instances' changes are missed",
                    self.address
                )
            });
            let mut wait = FIRST_RETRY;
            pubsub = loop {
                tokio::time::sleep(wait).await;
                match self.subscribe().await {
                    Ok(pubsub) => break pubsub,
                    Err(e) => {
                        LOST.hit(|| {
                            format!(
                                "Redis at {} is still unreachable ({e}): retrying every {:?} at most",
                                self.address, LAST_RETRY
                            )
                        });
                        wait = (wait * 2).min(LAST_RETRY);
                    }
                }
            };
            self.connected.store(true, Ordering::Release);
            BACK.hit(|| {
                format!(
                    "reconnected to Redis at {}: changes reach every instance again (those made while it was away were not relayed)",
                    self.address
                )
            });
        }
    }

    /// Delivers the messages of one subscribed connection until it fails; says why. A
    /// connection that stays silent is pinged every [`HEARTBEAT`], so that one lost without
    /// a word (a network partition, a host gone) is noticed within two of them.
    async fn receive(&self, pubsub: redis::aio::PubSub) -> String {
        let (mut sink, mut messages) = pubsub.split();
        let mut heartbeat = tokio::time::interval(HEARTBEAT);
        heartbeat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        heartbeat.reset();
        loop {
            tokio::select! {
                message = messages.next() => match message {
                    Some(message) => self.deliver(message.get_channel_name(), message.get_payload_bytes()),
                    None => return "the connection closed".to_owned(),
                },
                _ = heartbeat.tick() => {
                    let ping = tokio::time::timeout(CONNECT_TIMEOUT, sink.ping::<redis::Value>());
                    match ping.await {
                        Ok(Ok(_)) => {}
                        Ok(Err(e)) => return format!("a ping failed: {e}"),
                        Err(_) => return format!("no answer to a ping within {CONNECT_TIMEOUT:?}"),
                    }
                }
            }
        }
    }

    /// One message from a channel: a change, to the local listeners unless this instance sent
    /// it; a command, to the task store.
    fn deliver(&self, channel: &str, payload: &[u8]) {
        #[cfg(feature = "tasks")]
        if channel == self.tasks_channel {
            return self.command(payload);
        }
        #[cfg(feature = "tasks")]
        if channel == self.status_channel {
            return self.status_changed(payload);
        }
        let _ = channel;
        match serde_json::from_slice::<Message>(payload) {
            Ok(message) if message.from == self.me => {}
            Ok(message) => {
                let change = Change::from(message.change);
                if let Some(server) = self.server.get().and_then(Weak::upgrade) {
                    server.sessions.tell(&change);
                }
                let _ = self.local.send(change);
            }
            Err(e) => {
                static MALFORMED: LimitLog = LimitLog::new();
                MALFORMED.hit(|| {
                    format!(
                        "a message on the Redis channel `{}` is not a change ({e}): ignored",
                        self.channel
                    )
                });
            }
        }
    }

    /// A command for a task this instance runs, to the server's task store.
    #[cfg(feature = "tasks")]
    fn command(&self, payload: &[u8]) {
        use crate::tasks::redis_records::ForRunner;
        match serde_json::from_slice::<ForRunner>(payload) {
            Ok(message) => {
                if let Some(server) = self.server.get().and_then(Weak::upgrade) {
                    server.tasks.command(&message.task, message.command);
                }
            }
            Err(e) => {
                static MALFORMED: LimitLog = LimitLog::new();
                MALFORMED.hit(|| {
                    format!(
                        "a message on the Redis channel `{}` is not a command for a task ({e}): ignored",
                        self.tasks_channel
                    )
                });
            }
        }
    }

    /// A task another instance runs changed its status: to the server's task store, for the
    /// listen streams that follow it.
    #[cfg(feature = "tasks")]
    fn status_changed(&self, payload: &[u8]) {
        use crate::tasks::redis_records::StatusChanged;
        match serde_json::from_slice::<StatusChanged>(payload) {
            Ok(message) if message.from == self.me => {}
            Ok(message) => {
                if let Some(server) = self.server.get().and_then(Weak::upgrade) {
                    server.tasks.changed_elsewhere(message.task);
                }
            }
            Err(e) => {
                static MALFORMED: LimitLog = LimitLog::new();
                MALFORMED.hit(|| {
                    format!(
                        "a message on the Redis channel `{}` is not a task's status change ({e}): ignored",
                        self.status_channel
                    )
                });
            }
        }
    }

    /// Publishes each queued change, on a connection made (again) when needed: a change that
    /// fails on a connection made earlier (Redis restarted since) is tried once more on a new
    /// one.
    async fn publish_all(self: Arc<Self>, mut queue: mpsc::Receiver<Change>) {
        static FAILED: LimitLog = LimitLog::new();
        let mut connection: Option<redis::aio::MultiplexedConnection> = None;
        while let Some(change) = queue.recv().await {
            let text = serde_json::to_string(&Message {
                from: self.me.clone(),
                change: WireChange::from(&change),
            })
            .expect("a change serializes");
            let mut failure = None;
            for _ in 0..2 {
                let fresh = connection.is_none();
                let open = match connection.as_mut() {
                    Some(open) => open,
                    None => match redis_link::connect(&self.client).await {
                        Ok(open) => connection.insert(open),
                        Err(e) => {
                            failure = Some(e);
                            break;
                        }
                    },
                };
                let published = redis::cmd("PUBLISH")
                    .arg(&self.channel)
                    .arg(&text)
                    .query_async::<i64>(open)
                    .await;
                match published {
                    Ok(_) => {
                        failure = None;
                        break;
                    }
                    Err(e) => {
                        connection = None;
                        failure = Some(e.to_string());
                        if fresh {
                            break;
                        }
                    }
                }
            }
            if let Some(e) = failure {
                FAILED.hit(|| {
                    format!(
                        "publishing a change on Redis at {} failed ({e}): it reaches this instance's clients only",
                        self.address
                    )
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_change_round_trips_through_its_wire_form() {
        for change in [
            Change::ToolsListChanged,
            Change::PromptsListChanged,
            Change::ResourcesListChanged,
            Change::ResourceUpdated("file:///a b".to_owned()),
        ] {
            let text = serde_json::to_string(&Message {
                from: "me".to_owned(),
                change: WireChange::from(&change),
            })
            .unwrap();
            let back: Message = serde_json::from_str(&text).unwrap();
            assert_eq!(back.from, "me");
            assert_eq!(Change::from(back.change), change, "{text}");
        }
    }

    /// A Redis that wants a password (here a listener answering every command as such a Redis
    /// does) is told apart from one that is not there: the message asks for the credentials.
    #[test]
    fn a_redis_that_refuses_the_credentials_says_so() {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { return };
                std::thread::spawn(move || {
                    let mut buffer = [0; 4096];
                    loop {
                        let read = match stream.read(&mut buffer) {
                            Ok(0) | Err(_) => return,
                            Ok(read) => read,
                        };
                        // One answer per command: each begins a line with `*` (an array).
                        let bytes = &buffer[..read];
                        let commands = bytes
                            .iter()
                            .enumerate()
                            .filter(|&(i, &b)| b == b'*' && (i == 0 || bytes[i - 1] == b'\n'))
                            .count();
                        for _ in 0..commands {
                            if stream
                                .write_all(b"-NOAUTH Authentication required.\r\n")
                                .is_err()
                            {
                                return;
                            }
                        }
                    }
                });
            }
        });
        let error = RedisBus::connect(&format!("redis://127.0.0.1:{port}"), "test")
            .err()
            .expect("the listener refuses every command");
        assert!(
            error.contains(&format!("Redis at 127.0.0.1:{port} refused this server"))
                && error.contains("redis://USER:PASSWORD@HOST:PORT"),
            "{error}"
        );
    }

    #[test]
    fn an_unreachable_redis_fails_at_once_naming_its_address() {
        // Port 1 on the loopback: nothing listens there, the connection is refused.
        let started = std::time::Instant::now();
        let error = RedisBus::connect("redis://127.0.0.1:1", "test")
            .err()
            .expect("nothing listens on port 1");
        assert!(
            error.contains("cannot reach Redis at 127.0.0.1:1"),
            "{error}"
        );
        assert!(started.elapsed() <= CONNECT_TIMEOUT + Duration::from_secs(1));
        let error = RedisBus::connect("http://example.com", "test")
            .err()
            .expect("not a Redis URL");
        assert!(error.contains("is not a Redis URL"), "{error}");
    }
}
