//! The tasks' records on Redis (`shared.rs` says what is shared and who has the last word):
//! each task is a hash `mcp:task:NAME:ID` (NAME is the server's `serverInfo.name`) with its
//! `status` and its `record` (JSON), which expires when the task does (its `ttlMs` from its
//! creation). A command for a task goes to the instance that runs it on the pub/sub channel
//! `mcp:tasks:NAME:INSTANCE`, which that instance's change bus subscribes to
//! (`server/redis_bus.rs`); a status change, written by the running instance, is announced
//! on `mcp:task-status:NAME` (after the record is written: whoever hears of it reads the new
//! one), which every instance's bus subscribes to.
//!
//! Like the event store, the records are written from a thread of their own with a
//! one-thread Tokio runtime, fed by a bounded queue ([`QUEUE`]), on a connection made on first
//! use and again after a failure: a change on the running instance is queued and never waits
//! (one that finds the queue full, or Redis away, is not shared: a rate-limited line says so).
//! A new task, a read, and a command wait for their answer, within twice the connect timeout
//! (the writes queued before them go first, so a read sees them): a Redis that does not answer
//! fails the request with a clear error, never leaves it hanging. One whose caller stopped
//! waiting before its turn came is not carried out ([`Request::abandoned`]).
//!
//! The thread keeps the last record of each task of this instance until the record expires
//! ([`Own`]), so that Redis is told again what it missed: a change whose write failed is
//! written again every [`RETRY`] until Redis takes it, and after a new connection (Redis
//! restarted, and may have lost everything) every record is written again. While it keeps
//! records it asks Redis every [`CHECK`] whether the connection still stands, so that a
//! restart is noticed without waiting for a change.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::record::TaskRecord;
use super::shared::{Command, Pending, SharedTasks, Unavailable};
use crate::limit_log::LimitLog;
use crate::redis_link::{self, Reconnecting};

/// How many record changes may wait for Redis.
pub(crate) const QUEUE: usize = 4096;

/// How often records Redis missed are written again.
const RETRY: Duration = Duration::from_secs(1);

/// How often the connection is checked while the thread keeps records.
const CHECK: Duration = Duration::from_secs(5);

/// The last record of a task this instance runs, kept until it expires.
struct Own {
    record: TaskRecord,
    /// The connection this version was written on ([`Reconnecting::connections_made`] then),
    /// 0 before it is: Redis has it while that connection stands.
    written_on: u64,
    /// Whether its status change is still to be announced.
    announce: bool,
}

/// Writes a record unless the stored one has ended, or whatever the stored one when
/// `ARGV[4]` is `1` (the runner's word on its own task); expires it in `ARGV[3]` ms.
const WRITE: &str = r"
local stored = redis.call('HGET', KEYS[1], 'status')
if ARGV[4] ~= '1' and (stored == 'completed' or stored == 'failed' or stored == 'cancelled') then
  return 0
end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'record', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
";

/// The store: the queue to its thread.
pub(crate) struct RedisTasks {
    requests: mpsc::Sender<Request>,
    instance: String,
}

enum Request {
    /// The runner's change, and whether its status changed.
    Update(TaskRecord, bool),
    Create {
        record: TaskRecord,
        reply: oneshot::Sender<Result<(), String>>,
    },
    Load {
        id: String,
        reply: oneshot::Sender<Result<Option<TaskRecord>, String>>,
    },
    Command {
        record: TaskRecord,
        command: Command,
        reply: oneshot::Sender<Result<(), String>>,
    },
}

impl Request {
    /// Whether its caller stopped waiting for the answer (its wait ended) before its turn
    /// came: then it is not carried out. The caller rolled back a new task whose creation it
    /// gave up waiting for, and told the client that a command (a cancel, answers) failed:
    /// carried out later, either would stand against what the client was told. A load would answer no one. A change of the runner's own has no
    /// caller waiting, and always goes out. A caller that gives up while its request is
    /// carried out is too late: that one takes effect.
    fn abandoned(&self) -> bool {
        match self {
            Request::Update(..) => false,
            Request::Create { reply, .. } | Request::Command { reply, .. } => reply.is_closed(),
            Request::Load { reply, .. } => reply.is_closed(),
        }
    }
}

/// What the thread works with.
struct Link {
    connection: Reconnecting,
    /// `host:port`, for log lines.
    address: String,
    /// `NAME`, in every key.
    name: String,
    /// How long a task lives from its creation.
    ttl: Duration,
    /// This instance's name, in its announcements.
    instance: String,
    /// The last record of each task this instance runs, by id.
    own: HashMap<String, Own>,
}

/// The key of task `id`'s record.
fn task_key(name: &str, id: &str) -> String {
    format!("mcp:task:{name}:{id}")
}

/// A command for one task, as it travels to the instance that runs it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ForRunner {
    pub(crate) task: String,
    #[serde(flatten)]
    pub(crate) command: Command,
}

/// The channel on which every instance of server `name` hears of tasks' status changes.
pub(crate) fn status_channel(name: &str) -> String {
    format!("mcp:task-status:{name}")
}

/// A task's status changed, on the instance `from`, which runs it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct StatusChanged {
    pub(crate) from: String,
    pub(crate) task: String,
}

/// The channel on which the instance `instance` of server `name` hears commands for its tasks.
pub(crate) fn runner_channel(name: &str, instance: &str) -> String {
    format!("mcp:tasks:{name}:{instance}")
}

impl RedisTasks {
    /// The records of the server `name` on the Redis at `url`, this instance being `instance`
    /// (its name on the change bus), each kept for `ttl` from its task's creation. Connects on
    /// first use.
    pub(crate) fn start(
        url: &str,
        name: &str,
        instance: &str,
        ttl: Duration,
    ) -> Result<RedisTasks, String> {
        let (client, address) = crate::redis_link::open(url)?;
        let (requests, queue) = mpsc::channel(QUEUE);
        let link = Link {
            connection: Reconnecting::new(client),
            address,
            name: name.to_owned(),
            ttl,
            instance: instance.to_owned(),
            own: HashMap::new(),
        };
        redis_link::spawn_worker(
            "mcp-redis-tasks",
            "the Redis task store",
            "tasks are not shared with other instances, and creating one fails",
            move || link.serve(queue),
        )?;
        Ok(RedisTasks {
            requests,
            instance: instance.to_owned(),
        })
    }

    /// Queues `request` and waits for the answer `answer` brings, within twice the connect
    /// timeout (the thread bounds each round trip; this bounds the wait for what is queued
    /// before).
    fn ask<T: Send + 'static>(
        &self,
        request: Request,
        answer: oneshot::Receiver<Result<T, String>>,
    ) -> Pending<Result<T, Unavailable>> {
        let requests = self.requests.clone();
        Box::pin(async move {
            let asked = async {
                let ended = "the task store's thread has ended";
                requests.send(request).await.map_err(|_| ended.to_owned())?;
                answer.await.map_err(|_| ended.to_owned())?
            };
            redis_link::answer_within(asked).await.map_err(|why| {
                static FAILED: LimitLog = LimitLog::new();
                FAILED.hit(|| {
                    format!("the Redis task store failed ({why}): the tasks/* request or the task-creating call that needed it is refused")
                });
                Unavailable(why)
            })
        })
    }
}

impl SharedTasks for RedisTasks {
    fn instance(&self) -> &str {
        &self.instance
    }

    fn create(&self, record: TaskRecord) -> Pending<Result<(), Unavailable>> {
        let (reply, answer) = oneshot::channel();
        self.ask(Request::Create { record, reply }, answer)
    }

    fn update(&self, record: TaskRecord, announce: bool) {
        if self
            .requests
            .try_send(Request::Update(record, announce))
            .is_err()
        {
            static FULL: LimitLog = LimitLog::new();
            FULL.hit(|| {
                format!("{QUEUE} task changes wait for the Redis task store: this one is not shared, and other instances see the task as it was until its next change")
            });
        }
    }

    fn load(&self, id: &str) -> Pending<Result<Option<TaskRecord>, Unavailable>> {
        let (reply, answer) = oneshot::channel();
        let id = id.to_owned();
        self.ask(Request::Load { id, reply }, answer)
    }

    fn command(&self, record: TaskRecord, command: Command) -> Pending<Result<(), Unavailable>> {
        let (reply, answer) = oneshot::channel();
        let request = Request::Command {
            record,
            command,
            reply,
        };
        self.ask(request, answer)
    }
}

impl Link {
    async fn serve(mut self, mut queue: mpsc::Receiver<Request>) {
        loop {
            let behind = self.behind().next().is_some();
            let wait = if behind { RETRY } else { CHECK };
            let request = if self.own.is_empty() {
                queue.recv().await
            } else {
                match tokio::time::timeout(wait, queue.recv()).await {
                    Ok(request) => request,
                    Err(_) => {
                        self.catch_up(!behind).await;
                        continue;
                    }
                }
            };
            let Some(request) = request else {
                return;
            };
            if request.abandoned() {
                continue;
            }
            match request {
                Request::Update(record, announce) => {
                    let id = record.id.clone();
                    let announce = announce || self.own.get(&id).is_some_and(|own| own.announce);
                    self.own.insert(
                        id.clone(),
                        Own {
                            record,
                            written_on: 0,
                            announce,
                        },
                    );
                    if let Err(e) = self.write_own(&id).await {
                        static FAILED: LimitLog = LimitLog::new();
                        FAILED.hit(|| {
                            format!(
                                "writing a task's record to Redis at {} failed ({e}): other instances see it as it was until Redis takes it (tried again every {RETRY:?})",
                                self.address
                            )
                        });
                    } else {
                        self.catch_up(false).await;
                    }
                }
                Request::Create { record, reply } => {
                    let written = self.write(&record, true, None).await.map(drop);
                    if written.is_ok() {
                        let id = record.id.clone();
                        let own = Own {
                            record,
                            written_on: self.connection.connections_made(),
                            announce: false,
                        };
                        self.own.insert(id, own);
                    }
                    let caught_up = written.is_ok();
                    let _ = reply.send(written);
                    if caught_up {
                        self.catch_up(false).await;
                    }
                }
                Request::Load { id, reply } => {
                    let _ = reply.send(self.load(&id).await);
                }
                Request::Command {
                    record,
                    command,
                    reply,
                } => {
                    let _ = reply.send(self.command(record, command).await);
                }
            }
        }
    }

    /// Writes the kept record of task `id`, and announces its status change if that is
    /// still to be done.
    async fn write_own(&mut self, id: &str) -> Result<(), String> {
        let Some(own) = self.own.get(id) else {
            return Ok(());
        };
        let publish = own.announce.then(|| {
            let announcement = StatusChanged {
                from: self.instance.clone(),
                task: own.record.id.clone(),
            };
            let text = serde_json::to_string(&announcement).expect("an announcement serializes");
            (status_channel(&self.name), text)
        });
        // Over one that ended only with its own end: a change queued before a cancel from
        // elsewhere landed does not undo it.
        let ends = own.record.status.is_terminal();
        let record = own.record.clone();
        self.write(&record, ends, publish).await?;
        let made = self.connection.connections_made();
        if let Some(own) = self.own.get_mut(id) {
            own.written_on = made;
            own.announce = false;
        }
        Ok(())
    }

    /// The tasks whose kept record Redis may not have: never written, or written on a
    /// connection since replaced.
    fn behind(&self) -> impl Iterator<Item = &String> {
        let made = self.connection.connections_made();
        self.own
            .iter()
            .filter(move |(_, own)| own.written_on != made)
            .map(|(id, _)| id)
    }

    /// Forgets the expired records, then makes Redis hold the others: those it missed, and
    /// after a new connection (Redis may have restarted empty) all of them again; with
    /// `check`, asks Redis first whether the connection stands (a `PING`, which makes a new
    /// one if not). Stops at the first failure: the next turn tries again.
    async fn catch_up(&mut self, check: bool) {
        let now = SystemTime::now();
        let ttl = self.ttl;
        self.own.retain(|_, own| own.record.is_alive(ttl, now));
        if check && !self.own.is_empty() {
            let pinged = self
                .connection
                .round_trip(|mut connection| async move {
                    redis::cmd("PING").query_async::<()>(&mut connection).await
                })
                .await;
            if pinged.is_err() {
                return;
            }
        }
        // A write may need a new connection, after which the records written before it are
        // behind again: a few rounds, then the next turn.
        for _ in 0..3 {
            let behind: Vec<String> = self.behind().cloned().collect();
            if behind.is_empty() {
                return;
            }
            for id in behind {
                if self.write_own(&id).await.is_err() {
                    return;
                }
            }
        }
    }

    /// Writes `record` (over one that ended only when it is the `runners_word`), then
    /// publishes `publish`'s message on its channel, in one round trip: how many instances
    /// heard the message.
    async fn write(
        &mut self,
        record: &TaskRecord,
        runners_word: bool,
        publish: Option<(String, String)>,
    ) -> Result<i64, String> {
        let left = record.time_left(self.ttl, SystemTime::now());
        let left = u64::try_from(left.as_millis()).unwrap_or(u64::MAX);
        let key = task_key(&self.name, &record.id);
        let text = serde_json::to_string(record).expect("a record serializes");
        let status = record.status.as_str();
        let publishing = publish.is_some();
        if left == 0 && publish.is_none() {
            // It expired: Redis forgot it, or is about to.
            return Ok(0);
        }
        self.connection
            .round_trip(|mut connection| {
                let mut pipe = redis::pipe();
                if left > 0 {
                    pipe.cmd("EVAL")
                        .arg(WRITE)
                        .arg(1)
                        .arg(&key)
                        .arg(status)
                        .arg(&text)
                        .arg(left)
                        .arg(u8::from(runners_word))
                        .ignore();
                }
                match &publish {
                    Some((channel, message)) => {
                        pipe.cmd("PUBLISH").arg(channel).arg(message);
                    }
                    None => {
                        pipe.cmd("PING").ignore();
                    }
                }
                async move {
                    if publishing {
                        let (heard,): (i64,) = pipe.query_async(&mut connection).await?;
                        Ok(heard)
                    } else {
                        pipe.query_async::<()>(&mut connection).await?;
                        Ok(0)
                    }
                }
            })
            .await
    }

    async fn load(&mut self, id: &str) -> Result<Option<TaskRecord>, String> {
        let key = task_key(&self.name, id);
        let stored: Option<Vec<u8>> = self
            .connection
            .round_trip(|mut connection| {
                let mut command = redis::cmd("HGET");
                command.arg(&key).arg("record");
                async move { command.query_async(&mut connection).await }
            })
            .await?;
        match stored {
            Some(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(|e| format!("the record at {key} is not one ({e})")),
            None => Ok(None),
        }
    }

    /// Writes `record` (changed here) unless it ended, and hands `command` to its runner.
    /// Answers that no instance heard are an error (the runner stopped, or lost Redis): the
    /// task cannot go on with them. A cancel no one heard still stands in the record.
    async fn command(&mut self, record: TaskRecord, command: Command) -> Result<(), String> {
        let message = ForRunner {
            task: record.id.clone(),
            command,
        };
        let channel = runner_channel(&self.name, &record.runner);
        let text = serde_json::to_string(&message).expect("a command serializes");
        let heard = self.write(&record, false, Some((channel, text))).await?;
        if heard == 0 && matches!(message.command, Command::Answer { .. }) {
            return Err(format!(
                "the instance that runs task `{}` does not listen on Redis (it stopped, or lost its connection): the answers did not reach it",
                record.id
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::{Map, json};

    use super::super::record::Status;
    use super::*;
    use crate::redis_link::test_server::redis_server;

    fn record(status: Status) -> TaskRecord {
        TaskRecord {
            owner: Some("iss alice".to_owned()),
            pending: vec![("q".to_owned(), json!({"method": "elicitation/create"}))],
            ..TaskRecord::made_now("t1", status)
        }
    }

    /// The record lives in Redis for the task's TTL; a cancel from elsewhere stands against
    /// the runner's later changes but not against its end; answers no instance hears are an
    /// error; a Redis gone fails each request at once.
    #[tokio::test]
    async fn the_runner_has_the_last_word_and_a_cancel_stands_until_it_speaks() {
        let Some(server) = redis_server() else {
            return;
        };
        let url = server.url();
        let store = RedisTasks::start(&url, "t", "a", Duration::from_secs(60)).unwrap();
        let working = record(Status::InputRequired);
        store.create(working.clone()).await.unwrap();
        assert_eq!(store.load("t1").await.unwrap(), Some(working.clone()));
        assert_eq!(store.load("t2").await.unwrap(), None);
        let mut raw = redis::Client::open(url.as_str())
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap();
        let ttl: i64 = redis::cmd("PTTL")
            .arg("mcp:task:t:t1")
            .query_async(&mut raw)
            .await
            .unwrap();
        assert!((50_000..=60_000).contains(&ttl), "{ttl} ms");

        // Cancelled elsewhere: no instance listens on `a`'s channel, and the cancel stands.
        let mut cancelled = working.clone();
        cancelled.cancel();
        store.command(cancelled, Command::Cancel).await.unwrap();
        assert_eq!(
            store.load("t1").await.unwrap().unwrap().status,
            Status::Cancelled
        );
        // A change the runner queued before it heard of the cancel does not undo it...
        store.update(record(Status::Working), true);
        assert_eq!(
            store.load("t1").await.unwrap().unwrap().status,
            Status::Cancelled
        );
        // ... but its end does: it finished first.
        let mut completed = record(Status::Completed);
        completed.outcome = Some(Ok(json!({"content": []})));
        store.update(completed.clone(), true);
        assert_eq!(store.load("t1").await.unwrap(), Some(completed));

        // Answers no instance hears are refused, and change nothing.
        let answers = Command::Answer {
            responses: Map::new(),
        };
        let refused = store.command(working, answers).await.err().unwrap();
        assert!(refused.0.contains("does not listen"), "{}", refused.0);
        assert_eq!(
            store.load("t1").await.unwrap().unwrap().status,
            Status::Completed
        );

        drop(server);
        let started = std::time::Instant::now();
        let down = store.load("t1").await.expect_err("no Redis");
        assert!(!down.0.is_empty());
        assert!(started.elapsed() < redis_link::CONNECT_TIMEOUT * 2);
    }

    /// RELIABILITY.md, "Several instances": a change written while Redis is away reaches it
    /// once it is back, and a Redis that restarted empty is given every record again, without
    /// a further change: another instance reads each task as its runner has it.
    #[tokio::test]
    async fn what_redis_missed_or_forgot_is_written_again() {
        let Some(mut server) = redis_server() else {
            return;
        };
        let url = server.url();
        let runner = RedisTasks::start(&url, "t", "a", Duration::from_secs(60)).unwrap();
        let other = RedisTasks::start(&url, "t", "b", Duration::from_secs(60)).unwrap();
        let working = record(Status::Working);
        runner.create(working.clone()).await.unwrap();
        let mut second = TaskRecord::made_now("t2", Status::Working);
        second.runner = "a".to_owned();
        runner.create(second.clone()).await.unwrap();
        assert_eq!(other.load("t1").await.unwrap(), Some(working.clone()));

        // Redis away while the task completes: the write fails.
        server.stop();
        let mut completed = record(Status::Completed);
        completed.outcome = Some(Ok(json!({"content": []})));
        runner.update(completed.clone(), true);
        tokio::time::sleep(Duration::from_millis(300)).await;
        server.start_again();
        let read = |id: &'static str| {
            let other = &other;
            async move {
                for _ in 0..100 {
                    if let Ok(Some(record)) = other.load(id).await {
                        return Some(record);
                    }
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                None
            }
        };
        // Back, empty: the completed record (missed) and the second task's (forgotten) are
        // written again.
        assert_eq!(read("t1").await, Some(completed.clone()));
        assert_eq!(read("t2").await, Some(second.clone()));

        // Restarted empty again with nothing changing: the check notices, and writes both.
        server.start_again();
        assert_eq!(read("t1").await, Some(completed));
        assert_eq!(read("t2").await, Some(second));
    }

    /// A new task and a cancel whose callers stopped waiting while Redis was paused are not
    /// carried out once it answers again: the task's creation was rolled back, and the cancel
    /// was reported failed.
    #[tokio::test]
    async fn a_request_whose_caller_gave_up_is_not_carried_out() {
        let Some(server) = redis_server() else {
            return;
        };
        let url = server.url();
        let store = Arc::new(RedisTasks::start(&url, "t", "a", Duration::from_secs(60)).unwrap());
        let working = record(Status::Working);
        store.create(working.clone()).await.unwrap();

        server.pause(1000).await;
        // The thread waits on Redis for this read; what is queued behind it waits too.
        let waiting = tokio::spawn({
            let store = Arc::clone(&store);
            async move { store.load("t1").await.map(drop).map_err(|e| e.0) }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        let gave_up = Duration::from_millis(50);
        let mut cancelled = working.clone();
        cancelled.cancel();
        let cancel = store.command(cancelled, Command::Cancel);
        assert!(tokio::time::timeout(gave_up, cancel).await.is_err());
        let created = store.create(TaskRecord::made_now("t2", Status::Working));
        assert!(tokio::time::timeout(gave_up, created).await.is_err());
        waiting.await.unwrap().unwrap();

        assert_eq!(store.load("t1").await.unwrap(), Some(working));
        assert_eq!(store.load("t2").await.unwrap(), None);
    }

    #[test]
    fn a_command_round_trips_through_its_wire_form() {
        for command in [
            Command::Cancel,
            Command::Answer {
                responses: Map::from_iter([("a".to_owned(), json!({"action": "accept"}))]),
            },
        ] {
            let message = ForRunner {
                task: "t1".to_owned(),
                command,
            };
            let text = serde_json::to_string(&message).unwrap();
            assert_eq!(serde_json::from_str::<ForRunner>(&text).unwrap(), message);
        }
    }
}
