//! The tasks the server holds: each with its status, its pending questions and the answers
//! given, its outcome, and the handle that stops it; within [`TaskLimits`].

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use serde_json::{Map, Value};
use tokio::sync::{Notify, broadcast};
use tokio::task::AbortHandle;

use super::TaskLimits;
use crate::jsonrpc::RpcError;

/// Where a task stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// One task.
pub(crate) struct Task {
    pub(crate) id: String,
    /// Who created it ([`Authentication::owner`](crate::auth::Authentication::owner)).
    owner: Option<String>,
    pub(crate) created_at: SystemTime,
    pub(crate) state: Mutex<TaskState>,
    /// Wakes the run waiting for answers.
    answered: Notify,
    /// Where its status changes are announced (the store's [`TaskStore::status_changes`]).
    changes: broadcast::Sender<String>,
}

/// What changes as a task runs.
pub(crate) struct TaskState {
    pub(crate) status: Status,
    pub(crate) last_updated_at: SystemTime,
    /// Questions not answered yet: key, then `{method, params}`.
    pub(crate) pending: Vec<(String, Value)>,
    /// Every answer given, by key.
    pub(crate) answers: Map<String, Value>,
    /// The tool's result (`completed`) or the protocol error (`failed`).
    pub(crate) outcome: Option<Result<Value, RpcError>>,
    abort: Option<AbortHandle>,
}

impl Task {
    fn lock(&self) -> std::sync::MutexGuard<'_, TaskState> {
        self.state.lock().expect("lock poisoned")
    }

    /// Tells the listen streams that follow the task that its status changed (none listening
    /// is not an error).
    fn announce(&self) {
        let _ = self.changes.send(self.id.clone());
    }

    /// Records the handle that stops the task's run.
    pub(crate) fn set_abort(&self, abort: AbortHandle) {
        let mut state = self.lock();
        if state.status.is_terminal() {
            abort.abort();
        } else {
            state.abort = Some(abort);
        }
    }

    /// Parks the task on `questions` and waits until every one is answered; the answers so far.
    pub(crate) async fn ask(&self, questions: Vec<(String, Value)>) -> Map<String, Value> {
        {
            let mut state = self.lock();
            state.pending = questions;
            state.status = Status::InputRequired;
            state.last_updated_at = SystemTime::now();
        }
        self.announce();
        loop {
            let answered = self.answered.notified();
            {
                let mut state = self.lock();
                if state.pending.is_empty() {
                    state.status = Status::Working;
                    state.last_updated_at = SystemTime::now();
                    let answers = state.answers.clone();
                    drop(state);
                    self.announce();
                    return answers;
                }
            }
            answered.await;
        }
    }

    /// Takes the answers to pending questions; keys no pending question has are ignored.
    pub(crate) fn answer(&self, responses: Map<String, Value>) {
        let mut state = self.lock();
        let mut taken = false;
        for (key, answer) in responses {
            if let Some(at) = state.pending.iter().position(|(asked, _)| *asked == key) {
                state.pending.remove(at);
                state.answers.insert(key, answer);
                taken = true;
            }
        }
        if taken {
            state.last_updated_at = SystemTime::now();
            drop(state);
            self.answered.notify_waiters();
        }
    }

    /// Ends the task with `outcome`, unless it already ended (a cancel came first).
    pub(crate) fn finish(&self, outcome: Result<Value, RpcError>) {
        let mut state = self.lock();
        if state.status.is_terminal() {
            return;
        }
        state.status = if outcome.is_ok() {
            Status::Completed
        } else {
            Status::Failed
        };
        state.pending.clear();
        state.outcome = Some(outcome);
        state.abort = None;
        state.last_updated_at = SystemTime::now();
        drop(state);
        self.announce();
    }

    /// Stops the task, unless it already ended.
    pub(crate) fn cancel(&self) {
        let mut state = self.lock();
        if state.status.is_terminal() {
            return;
        }
        if let Some(abort) = state.abort.take() {
            abort.abort();
        }
        state.status = Status::Cancelled;
        state.pending.clear();
        state.last_updated_at = SystemTime::now();
        drop(state);
        self.announce();
    }
}

/// The tasks held, by id.
pub(crate) struct TaskStore {
    pub(crate) limits: TaskLimits,
    tasks: Mutex<HashMap<String, Arc<Task>>>,
    /// The id of each task whose status changes, for `notifications/tasks`.
    changes: broadcast::Sender<String>,
}

/// How many status changes a listen stream may fall behind by before it misses some.
const STATUS_BACKLOG: usize = 256;

impl TaskStore {
    pub(crate) fn new(limits: TaskLimits) -> TaskStore {
        TaskStore {
            limits,
            tasks: Mutex::new(HashMap::new()),
            changes: broadcast::Sender::new(STATUS_BACKLOG),
        }
    }

    /// The ids of the tasks whose status changes from now on.
    pub(crate) fn status_changes(&self) -> broadcast::Receiver<String> {
        self.changes.subscribe()
    }

    /// A new working task of `owner`, held before it is returned (a `tasks/get` right after
    /// finds it); -32603 when `max_live` tasks are held already.
    pub(crate) fn create(&self, owner: Option<String>) -> Result<Arc<Task>, RpcError> {
        let now = SystemTime::now();
        let mut tasks = self.tasks.lock().expect("lock poisoned");
        self.forget_expired(&mut tasks, now);
        if tasks.len() >= self.limits.max_live {
            return Err(RpcError::internal(format!(
                "the server holds {} tasks, its limit: try again when some have expired",
                self.limits.max_live
            )));
        }
        let task = Arc::new(Task {
            id: new_id(),
            owner,
            created_at: now,
            state: Mutex::new(TaskState {
                status: Status::Working,
                last_updated_at: now,
                pending: Vec::new(),
                answers: Map::new(),
                outcome: None,
                abort: None,
            }),
            answered: Notify::new(),
            changes: self.changes.clone(),
        });
        tasks.insert(task.id.clone(), Arc::clone(&task));
        Ok(task)
    }

    /// The task `id` of `owner`: `None` when there is none, it expired, or it is another's.
    pub(crate) fn get(&self, id: &str, owner: Option<&str>) -> Option<Arc<Task>> {
        let mut tasks = self.tasks.lock().expect("lock poisoned");
        self.forget_expired(&mut tasks, SystemTime::now());
        tasks
            .get(id)
            .filter(|task| task.owner.as_deref() == owner)
            .cloned()
    }

    fn forget_expired(&self, tasks: &mut HashMap<String, Arc<Task>>, now: SystemTime) {
        let ttl = self.limits.ttl;
        tasks.retain(|_, task| {
            let alive = task.created_at + ttl > now;
            if !alive {
                task.cancel();
            }
            alive
        });
    }
}

/// 128 random bits, hex: not guessable, so an id is all a client needs to name its task.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source");
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;

    use super::*;

    fn store(max_live: usize, ttl: Duration) -> TaskStore {
        TaskStore::new(TaskLimits {
            max_live,
            ttl,
            ..TaskLimits::default()
        })
    }

    #[test]
    fn refuses_beyond_the_cap_and_forgets_expired_tasks() {
        let store = store(2, Duration::from_secs(60));
        store.create(None).unwrap();
        store.create(None).unwrap();
        let error = store.create(None).err().unwrap();
        assert!(error.to_string().contains("holds 2 tasks"), "{error}");

        let store = self::store(1, Duration::ZERO);
        let first = store.create(None).unwrap();
        assert!(store.get(&first.id, None).is_none());
        store.create(None).unwrap();
        assert_eq!(first.state.lock().unwrap().status, Status::Cancelled);
    }

    #[test]
    fn a_task_is_its_owners_only() {
        let store = store(4, Duration::from_secs(60));
        let task = store.create(Some("iss alice".into())).unwrap();
        assert!(store.get(&task.id, Some("iss alice")).is_some());
        assert!(store.get(&task.id, Some("iss mallory")).is_none());
        assert!(store.get(&task.id, None).is_none());
    }

    #[test]
    fn answers_only_pending_questions_and_ends_once() {
        let store = store(4, Duration::from_secs(60));
        let task = store.create(None).unwrap();
        task.state.lock().unwrap().pending = vec![("a".into(), json!({})), ("b".into(), json!({}))];
        task.answer(Map::from_iter([
            ("a".into(), json!(1)),
            ("zz".into(), json!(2)),
        ]));
        let state = task.state.lock().unwrap();
        assert_eq!(state.pending.len(), 1);
        assert_eq!(state.answers, Map::from_iter([("a".into(), json!(1))]));
        drop(state);
        task.cancel();
        task.finish(Ok(json!({})));
        task.cancel();
        assert_eq!(task.state.lock().unwrap().status, Status::Cancelled);
    }
}
