//! Where a task's record lives for the instances that do not run it, and how a command reaches
//! the instance that does: the one interface in front of both ways a server holds tasks.
//!
//! [`NotShared`] is one instance alone (no Redis): every task is in its memory, there is
//! nowhere else to look, and nothing to tell anyone. `redis_records.rs` (the `redis` feature
//! with [`ServerBuilder::redis`](crate::ServerBuilder::redis)) writes each task's record to
//! Redis for its `ttl`, so that any instance answers `tasks/get` about it, and hands
//! `tasks/cancel` and `tasks/update` received elsewhere to the instance that runs it (on the
//! change bus's connection: `server/redis_bus.rs`), and tells every instance of a status
//! change, so that their `subscriptions/listen` streams that follow the task send
//! `notifications/tasks` (read from its record).
//!
//! The instance that runs a task has the last word on it: what it writes when the task ends
//! stands, whatever was written before; another instance writes only a task that has not ended
//! (a cancel, answers taken off its questions), so that a `tasks/get` right after is true, and
//! the runner's next write confirms or corrects it.

use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::record::TaskRecord;

pub(crate) type Pending<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// The shared store could not answer: why (a line on stderr says it too).
#[derive(Debug)]
pub(crate) struct Unavailable(pub(crate) String);

/// What another instance asks of the instance that runs a task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub(crate) enum Command {
    /// `tasks/cancel`.
    Cancel,
    /// `tasks/update`'s answers.
    Answer { responses: Map<String, Value> },
}

/// Where the records of tasks are shared with other instances.
pub(crate) trait SharedTasks: Send + Sync {
    /// This instance's name, which the records of the tasks it runs carry.
    fn instance(&self) -> &str;
    /// Writes a new task's record, and waits until it is written: a `tasks/get` that reaches
    /// another instance right after the task's handle finds it.
    fn create(&self, record: TaskRecord) -> Pending<Result<(), Unavailable>>;
    /// Writes the record again after a change on this instance, its runner, and when its
    /// status changed (`announce`) tells the other instances, whose listen streams may follow
    /// the task; never waits.
    fn update(&self, record: TaskRecord, announce: bool);
    /// The record of a task this instance does not run: `None` when there is none (never
    /// created, or expired).
    fn load(&self, id: &str) -> Pending<Result<Option<TaskRecord>, Unavailable>>;
    /// Writes `record` (a task another instance runs, changed here) unless the task ended,
    /// and hands `command` to the instance that runs it.
    fn command(&self, record: TaskRecord, command: Command) -> Pending<Result<(), Unavailable>>;
}

/// One instance alone: its tasks are in its memory, and nowhere else.
pub(crate) struct NotShared;

impl SharedTasks for NotShared {
    fn instance(&self) -> &str {
        ""
    }

    fn create(&self, _record: TaskRecord) -> Pending<Result<(), Unavailable>> {
        Box::pin(async { Ok(()) })
    }

    fn update(&self, _record: TaskRecord, _announce: bool) {}

    fn load(&self, _id: &str) -> Pending<Result<Option<TaskRecord>, Unavailable>> {
        Box::pin(async { Ok(None) })
    }

    fn command(&self, _record: TaskRecord, _command: Command) -> Pending<Result<(), Unavailable>> {
        // `load` finds nothing, so there is never a task elsewhere to command.
        Box::pin(async { Ok(()) })
    }
}
