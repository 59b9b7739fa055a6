//! A task's record: what every instance may read of it (its status and timestamps, its
//! pending questions, its outcome, its owner) and which instance runs it. The runner's memory
//! holds the rest (the answers given, the handle that stops the run).

use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::jsonrpc::RpcError;

/// Where a task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    Working,
    InputRequired,
    Completed,
    Failed,
    Cancelled,
}

impl Status {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }

    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }
}

/// One task, as it stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct TaskRecord {
    pub(crate) id: String,
    /// Who created it ([`Authentication::owner`](crate::auth::Authentication::owner)).
    pub(crate) owner: Option<String>,
    /// The tool it runs: each request about it needs the scopes calling the tool needs (empty
    /// in a record an older instance wrote).
    #[serde(default)]
    pub(crate) tool: String,
    /// The instance that runs it ([`SharedTasks::instance`](super::shared::SharedTasks::instance)).
    pub(crate) runner: String,
    pub(crate) created_at: SystemTime,
    pub(crate) status: Status,
    pub(crate) last_updated_at: SystemTime,
    /// Questions not answered yet: key, then `{method, params}`.
    pub(crate) pending: Vec<(String, Value)>,
    /// The tool's result (`completed`) or the protocol error (`failed`).
    pub(crate) outcome: Option<Result<Value, RpcError>>,
}

#[cfg(test)]
impl TaskRecord {
    /// A record made and updated now, for tests: run by instance `a`, with no owner, no
    /// questions and no outcome.
    pub(crate) fn made_now(id: &str, status: Status) -> TaskRecord {
        let now = SystemTime::now();
        TaskRecord {
            id: id.to_owned(),
            owner: None,
            tool: "t".to_owned(),
            runner: "a".to_owned(),
            created_at: now,
            status,
            last_updated_at: now,
            pending: Vec::new(),
            outcome: None,
        }
    }
}

impl TaskRecord {
    /// How long it has left to live, with a time to live of `ttl`, at `now`: nothing once it
    /// expired, nor when its creation is too late to add `ttl` to (a record read from Redis
    /// that this runtime did not write).
    pub(crate) fn time_left(&self, ttl: Duration, now: SystemTime) -> Duration {
        self.created_at
            .checked_add(ttl)
            .and_then(|end| end.duration_since(now).ok())
            .unwrap_or_default()
    }

    /// Whether it is still alive at `now`, with a time to live of `ttl`.
    pub(crate) fn is_alive(&self, ttl: Duration, now: SystemTime) -> bool {
        !self.time_left(ttl, now).is_zero()
    }

    /// Cancels it, unless it ended.
    pub(crate) fn cancel(&mut self) {
        if !self.status.is_terminal() {
            self.status = Status::Cancelled;
            self.pending.clear();
            self.last_updated_at = SystemTime::now();
        }
    }

    /// Takes the questions whose keys are `keys` off its pending ones; when none is left it
    /// is working again. Whether any was taken.
    pub(crate) fn take_answered<'a>(&mut self, keys: impl IntoIterator<Item = &'a str>) -> bool {
        let before = self.pending.len();
        for key in keys {
            self.pending.retain(|(asked, _)| asked != key);
        }
        let taken = self.pending.len() < before;
        if taken {
            if self.pending.is_empty() && self.status == Status::InputRequired {
                self.status = Status::Working;
            }
            self.last_updated_at = SystemTime::now();
        }
        taken
    }
}
