//! The tasks the server holds: those this instance runs, each with its record, the answers
//! given and the handle that stops it, within [`TaskLimits`]; and, through [`SharedTasks`],
//! those other instances run (with Redis).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::SystemTime;

use serde_json::{Map, Value};
use tokio::sync::{Notify, broadcast};
use tokio::task::AbortHandle;

use super::TaskLimits;
use super::record::{Status, TaskRecord};
use super::shared::{Command, SharedTasks, Unavailable};
use crate::issued_id;
use crate::jsonrpc::{RpcError, json_bytes};
use crate::limit_log::LimitLog;

/// One task this instance runs.
pub(crate) struct Task {
    pub(crate) id: String,
    state: Mutex<TaskState>,
    /// Wakes the run waiting for answers.
    answered: Notify,
    /// Where its status changes are announced (the store's [`TaskStore::status_changes`]).
    changes: broadcast::Sender<String>,
    /// Where its record is written for the other instances.
    shared: Arc<dyn SharedTasks>,
    /// The bytes it holds, toward [`TaskLimits::max_bytes`]: its arguments, then the answers
    /// taken and its result, as JSON text.
    held: AtomicUsize,
}

/// What changes as a task runs.
struct TaskState {
    record: TaskRecord,
    /// Every answer given, by key.
    answers: Map<String, Value>,
    run: Option<Run>,
}

/// A task's run, as a cancel (or the end of its `ttl`) stops it.
pub(crate) struct Run {
    /// Stops the run at its next `.await`.
    pub(crate) abort: AbortHandle,
    /// Cancels the context the tool runs with, as a cancelled request's is: the tool sees
    /// `ctx.is_cancelled()` and `ctx.cancelled()`, on a `spawn_blocking` thread too.
    pub(crate) cancel_context: Box<dyn FnOnce() + Send>,
}

impl Run {
    fn stop(self) {
        (self.cancel_context)();
        self.abort.abort();
    }
}

impl Task {
    fn lock(&self) -> std::sync::MutexGuard<'_, TaskState> {
        self.state.lock().expect("lock poisoned")
    }

    /// The task as it stands.
    pub(crate) fn record(&self) -> TaskRecord {
        self.lock().record.clone()
    }

    /// Shares its new record and, when its status changed, tells the listen streams that
    /// follow it (none listening is not an error).
    fn changed(&self, record: TaskRecord, status_changed: bool) {
        self.shared.update(record, status_changed);
        if status_changed {
            let _ = self.changes.send(self.id.clone());
        }
    }

    /// Records the task's run, which a cancel stops (at once if it came first).
    pub(crate) fn set_run(&self, run: Run) {
        let mut state = self.lock();
        if state.record.status.is_terminal() {
            run.stop();
        } else {
            state.run = Some(run);
        }
    }

    /// Parks the task on `questions` and waits until every one is answered; the answers so far.
    /// A task that ended meanwhile (a `tasks/cancel` came while its tool was asking) stays as
    /// it ended and the wait never ends: its run is being stopped.
    pub(crate) async fn ask(&self, questions: Vec<(String, Value)>) -> Map<String, Value> {
        let parked = {
            let mut state = self.lock();
            let ended = state.record.status.is_terminal();
            if !ended {
                state.record.pending = questions;
                state.record.status = Status::InputRequired;
                state.record.last_updated_at = SystemTime::now();
            }
            (!ended).then(|| state.record.clone())
        };
        let Some(record) = parked else {
            return std::future::pending().await;
        };
        self.changed(record, true);
        loop {
            let answered = self.answered.notified();
            match self.resume_when_answered() {
                Waiting::Answered(answers) => return answers,
                Waiting::Ended => return std::future::pending().await,
                Waiting::ForAnswers => answered.await,
            }
        }
    }

    /// Once every question is answered, the task working again (unless it ended).
    fn resume_when_answered(&self) -> Waiting {
        let mut state = self.lock();
        if state.record.status.is_terminal() {
            return Waiting::Ended;
        }
        if !state.record.pending.is_empty() {
            return Waiting::ForAnswers;
        }
        state.record.status = Status::Working;
        state.record.last_updated_at = SystemTime::now();
        let (answers, record) = (state.answers.clone(), state.record.clone());
        drop(state);
        self.changed(record, true);
        Waiting::Answered(answers)
    }

    /// Takes the answers to pending questions (keys no pending question has are ignored),
    /// unless together they take more than `room` bytes: then none is taken, and `Err` says
    /// how many they take.
    fn answer(&self, responses: Map<String, Value>, room: usize) -> Result<(), usize> {
        let mut state = self.lock();
        let taken: Vec<(String, Value)> = responses
            .into_iter()
            .filter(|(key, _)| state.record.pending.iter().any(|(asked, _)| asked == key))
            .collect();
        let bytes = taken.iter().map(|(_, answer)| json_bytes(answer)).sum();
        let fits = bytes <= room;
        let took = fits && !taken.is_empty();
        if took {
            self.held.fetch_add(bytes, Ordering::Relaxed);
            for (key, answer) in taken {
                state.record.pending.retain(|(asked, _)| *asked != key);
                state.answers.insert(key, answer);
            }
            state.record.last_updated_at = SystemTime::now();
        }
        let record = state.record.clone();
        drop(state);
        // Written even when nothing was taken: another instance may have written answers
        // taken off a record older than this one.
        self.changed(record, false);
        if !fits {
            return Err(bytes);
        }
        if took {
            self.answered.notify_waiters();
        }
        Ok(())
    }

    /// Ends the task with `outcome`, unless it already ended (a cancel came first).
    pub(crate) fn finish(&self, outcome: Result<Value, RpcError>) {
        let mut state = self.lock();
        if state.record.status.is_terminal() {
            return;
        }
        state.record.status = if outcome.is_ok() {
            Status::Completed
        } else {
            Status::Failed
        };
        state.record.pending.clear();
        let bytes = match &outcome {
            Ok(result) => json_bytes(result),
            Err(error) => json_bytes(error),
        };
        self.held.fetch_add(bytes, Ordering::Relaxed);
        state.record.outcome = Some(outcome);
        state.run = None;
        state.record.last_updated_at = SystemTime::now();
        let record = state.record.clone();
        drop(state);
        self.changed(record, true);
    }

    /// Stops the task, unless it already ended.
    pub(crate) fn cancel(&self) {
        let mut state = self.lock();
        if state.record.status.is_terminal() {
            return;
        }
        if let Some(run) = state.run.take() {
            run.stop();
        }
        state.record.cancel();
        let record = state.record.clone();
        drop(state);
        self.changed(record, true);
    }
}

/// Where a task parked on questions stands.
enum Waiting {
    /// Some are not answered yet.
    ForAnswers,
    /// All are: every answer given, the task working again.
    Answered(Map<String, Value>),
    /// It ended meanwhile (cancelled, or expired).
    Ended,
}

/// A task found by its id: run here, or by another instance.
pub(crate) enum Found {
    Here(Arc<Task>),
    Elsewhere(Box<TaskRecord>),
}

impl Found {
    pub(crate) fn record(&self) -> TaskRecord {
        match self {
            Found::Here(task) => task.record(),
            Found::Elsewhere(record) => (**record).clone(),
        }
    }
}

/// The tasks held, by id.
pub(crate) struct TaskStore {
    pub(crate) limits: TaskLimits,
    /// The tasks this instance runs (or ran), until their `ttl` ends.
    tasks: Mutex<HashMap<String, Arc<Task>>>,
    /// The id of each task whose status changes, for `notifications/tasks`.
    changes: broadcast::Sender<String>,
    shared: Arc<dyn SharedTasks>,
}

/// How many status changes a listen stream may fall behind by before it misses some.
const STATUS_BACKLOG: usize = 256;

impl TaskStore {
    pub(crate) fn new(limits: TaskLimits, shared: Arc<dyn SharedTasks>) -> TaskStore {
        TaskStore {
            limits,
            tasks: Mutex::new(HashMap::new()),
            changes: broadcast::Sender::new(STATUS_BACKLOG),
            shared,
        }
    }

    /// The ids of the tasks whose status changes from now on.
    pub(crate) fn status_changes(&self) -> broadcast::Receiver<String> {
        self.changes.subscribe()
    }

    /// A new working task of `owner` running `tool`, whose arguments take `bytes`, held (and shared) before
    /// it is returned: a `tasks/get` right after finds it, on any instance. -32603 when this
    /// instance holds `max_live` tasks already, or `max_live_per_caller` of `owner`'s, or when
    /// its tasks with these arguments would take more than `max_bytes` (`owner`'s more than
    /// `max_bytes_per_caller`), or when the shared
    /// store does not answer.
    pub(crate) async fn create(
        &self,
        tool: &str,
        owner: Option<String>,
        bytes: usize,
    ) -> Result<Arc<Task>, RpcError> {
        let now = SystemTime::now();
        let task = {
            let mut tasks = self.tasks.lock().expect("lock poisoned");
            self.forget_expired(&mut tasks, now);
            if tasks.len() >= self.limits.max_live {
                return Err(RpcError::internal(format!(
                    "the server holds {} tasks, its limit (TaskLimits::max_live): try again when some have expired",
                    self.limits.max_live
                )));
            }
            if let Some(owner) = &owner {
                let max = self.limits.max_live_per_caller;
                let mine = |task: &&Arc<Task>| task.lock().record.owner.as_ref() == Some(owner);
                if tasks.values().filter(mine).count() >= max {
                    return Err(RpcError::internal(format!(
                        "you hold {max} tasks on this server, its limit per caller (TaskLimits::max_live_per_caller): try again when some have expired"
                    )));
                }
            }
            let held = held(&tasks);
            if held.saturating_add(bytes) > self.limits.max_bytes {
                return Err(self.over_budget(held, "this call's", bytes));
            }
            if let Some(owner) = &owner {
                let mine = held_by(&tasks, owner);
                if mine.saturating_add(bytes) > self.limits.max_bytes_per_caller {
                    return Err(self.over_share(mine, "this call's", bytes));
                }
            }
            let id = issued_id::new();
            let record = TaskRecord {
                id: id.clone(),
                owner,
                tool: tool.to_owned(),
                runner: self.shared.instance().to_owned(),
                created_at: now,
                status: Status::Working,
                last_updated_at: now,
                pending: Vec::new(),
                outcome: None,
            };
            let task = Arc::new(Task {
                id,
                state: Mutex::new(TaskState {
                    record,
                    answers: Map::new(),
                    run: None,
                }),
                answered: Notify::new(),
                changes: self.changes.clone(),
                shared: Arc::clone(&self.shared),
                held: AtomicUsize::new(bytes),
            });
            tasks.insert(task.id.clone(), Arc::clone(&task));
            task
        };
        if let Err(Unavailable(why)) = self.shared.create(task.record()).await {
            self.tasks.lock().expect("lock poisoned").remove(&task.id);
            return Err(unavailable(&why));
        }
        Ok(task)
    }

    /// The task `id` of `owner` that this instance runs: `None` when there is none, it
    /// expired, or it is another's.
    pub(crate) fn get(&self, id: &str, owner: Option<&str>) -> Option<Arc<Task>> {
        let mut tasks = self.tasks.lock().expect("lock poisoned");
        self.forget_expired(&mut tasks, SystemTime::now());
        tasks
            .get(id)
            .filter(|task| task.lock().record.owner.as_deref() == owner)
            .cloned()
    }

    /// The task `id` of `owner`, here or on another instance: `None` when there is none, it
    /// expired, or it is another's, and for an id of another form than the runtime issues
    /// (not looked up); -32603 when the shared store does not answer.
    pub(crate) async fn find(
        &self,
        id: &str,
        owner: Option<&str>,
    ) -> Result<Option<Found>, RpcError> {
        if !issued_id::has_issued_form(id) {
            return Ok(None);
        }
        if let Some(task) = self.get(id, owner) {
            return Ok(Some(Found::Here(task)));
        }
        let record = self
            .shared
            .load(id)
            .await
            .map_err(|Unavailable(why)| unavailable(&why))?;
        let now = SystemTime::now();
        Ok(record
            .filter(|record| {
                record.owner.as_deref() == owner && record.is_alive(self.limits.ttl, now)
            })
            .map(|record| Found::Elsewhere(Box::new(record))))
    }

    /// The tasks `ids` of `owner`, each as [`find`](Self::find) finds it, looked up all at
    /// once: one after another, the waits of a shared store that does not answer would add
    /// up. -32603 when the shared store fails to answer for one of them.
    pub(crate) async fn find_each(
        &self,
        ids: &[String],
        owner: Option<&str>,
    ) -> Result<Vec<Option<Found>>, RpcError> {
        all_at_once(ids.iter().map(|id| self.find(id, owner)).collect())
            .await
            .into_iter()
            .collect()
    }

    /// `tasks/cancel`: stops the task unless it ended.
    pub(crate) async fn cancel(&self, found: Found) -> Result<(), RpcError> {
        match found {
            Found::Here(task) => task.cancel(),
            Found::Elsewhere(mut record) => {
                if !record.status.is_terminal() {
                    record.cancel();
                    (self.shared.command(*record, Command::Cancel).await)
                        .map_err(|Unavailable(why)| unavailable(&why))?;
                }
            }
        }
        Ok(())
    }

    /// `tasks/update`: answers to the task's pending questions (others are ignored).
    pub(crate) async fn answer(
        &self,
        found: Found,
        responses: Map<String, Value>,
    ) -> Result<(), RpcError> {
        match found {
            Found::Here(task) => {
                self.answer_here(&task, responses)?;
            }
            Found::Elsewhere(mut record) => {
                if !record.status.is_terminal() {
                    record.take_answered(responses.keys().map(String::as_str));
                    let command = Command::Answer { responses };
                    (self.shared.command(*record, command).await)
                        .map_err(|Unavailable(why)| unavailable(&why))?;
                }
            }
        }
        Ok(())
    }

    /// A command from another instance for a task this one runs (it checked the caller);
    /// one this instance no longer holds is ignored.
    #[cfg_attr(
        not(feature = "redis"),
        expect(dead_code, reason = "commands travel on the Redis bus")
    )]
    pub(crate) fn command(&self, id: &str, command: Command) {
        let task = self.tasks.lock().expect("lock poisoned").get(id).cloned();
        if let Some(task) = task {
            match command {
                Command::Cancel => task.cancel(),
                Command::Answer { responses } => {
                    if let Err(error) = self.answer_here(&task, responses) {
                        static OVER: LimitLog = LimitLog::new();
                        OVER.hit(|| format!("mcp-runtime: answers to task {id}, given on another instance, were not taken: {}", error.message));
                    }
                }
            }
        }
    }

    /// Gives `task` the answers, if they fit within [`TaskLimits::max_bytes`] and, for a task
    /// of a caller, [`TaskLimits::max_bytes_per_caller`]; -32603 naming the limit they would
    /// pass otherwise. A task's answers are taken with the tasks' lock held, so that two calls
    /// cannot both take the room left.
    fn answer_here(&self, task: &Task, responses: Map<String, Value>) -> Result<(), RpcError> {
        let mut tasks = self.tasks.lock().expect("lock poisoned");
        self.forget_expired(&mut tasks, SystemTime::now());
        let held = held(&tasks);
        let room = self.limits.max_bytes.saturating_sub(held);
        let owner = task.lock().record.owner.clone();
        let mine = owner.as_deref().map(|owner| held_by(&tasks, owner));
        let my_room = mine.map_or(usize::MAX, |mine| {
            self.limits.max_bytes_per_caller.saturating_sub(mine)
        });
        task.answer(responses, room.min(my_room)).map_err(|bytes| {
            if bytes > room {
                self.over_budget(held, "these answers'", bytes)
            } else {
                self.over_share(mine.unwrap_or_default(), "these answers'", bytes)
            }
        })
    }

    /// -32603 for what would take the tasks held past [`TaskLimits::max_bytes`]: `what` and
    /// its `bytes`, on top of the `held` ones.
    fn over_budget(&self, held: usize, what: &str, bytes: usize) -> RpcError {
        let max = self.limits.max_bytes;
        RpcError::internal(format!(
            "the tasks this server holds take {held} bytes (their arguments, answers and results), and {what} {bytes} more would pass its limit of {max} (TaskLimits::max_bytes): try again when some have expired"
        ))
    }

    /// -32603 for what would take the tasks of one caller past
    /// [`TaskLimits::max_bytes_per_caller`]: `what` and its `bytes`, on top of the `mine` its
    /// tasks hold.
    fn over_share(&self, mine: usize, what: &str, bytes: usize) -> RpcError {
        let max = self.limits.max_bytes_per_caller;
        RpcError::internal(format!(
            "your tasks on this server take {mine} bytes (their arguments, answers and results), and {what} {bytes} more would pass its limit per caller of {max} (TaskLimits::max_bytes_per_caller): try again when some have expired"
        ))
    }

    /// A task another instance runs changed its status: the listen streams here that follow
    /// it hear of it.
    #[cfg_attr(
        all(not(feature = "redis"), not(test)),
        expect(
            dead_code,
            reason = "status changes travel on the Redis bus (a unit test announces one itself)"
        )
    )]
    pub(crate) fn changed_elsewhere(&self, id: String) {
        let _ = self.changes.send(id);
    }

    fn forget_expired(&self, tasks: &mut HashMap<String, Arc<Task>>, now: SystemTime) {
        let ttl = self.limits.ttl;
        tasks.retain(|_, task| {
            let alive = task.lock().record.is_alive(ttl, now);
            if !alive {
                task.cancel();
            }
            alive
        });
    }
}

/// The outputs of `futures`, in their order, polled together until every one is ready.
async fn all_at_once<F: Future>(futures: Vec<F>) -> Vec<F::Output> {
    let mut running: Vec<_> = futures.into_iter().map(Box::pin).collect();
    let mut outputs: Vec<Option<F::Output>> = running.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut waiting = false;
        for (future, output) in running.iter_mut().zip(&mut outputs) {
            if output.is_none() {
                match future.as_mut().poll(cx) {
                    Poll::Ready(ready) => *output = Some(ready),
                    Poll::Pending => waiting = true,
                }
            }
        }
        if waiting {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    outputs
        .into_iter()
        .map(|output| output.expect("every future is ready"))
        .collect()
}

/// The bytes the tasks held take, toward [`TaskLimits::max_bytes`].
fn held(tasks: &HashMap<String, Arc<Task>>) -> usize {
    tasks
        .values()
        .map(|task| task.held.load(Ordering::Relaxed))
        .sum()
}

/// The bytes the tasks of `owner` held take, toward [`TaskLimits::max_bytes_per_caller`].
fn held_by(tasks: &HashMap<String, Arc<Task>>, owner: &str) -> usize {
    tasks
        .values()
        .filter(|task| task.lock().record.owner.as_deref() == Some(owner))
        .map(|task| task.held.load(Ordering::Relaxed))
        .sum()
}

/// -32603 for a shared store that does not answer, or answers with an error (out of memory).
fn unavailable(why: &str) -> RpcError {
    RpcError::internal(format!(
        "the store of tasks shared by this server's instances could not be used ({why}): try again later"
    ))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use serde_json::json;

    use std::time::UNIX_EPOCH;

    use super::super::shared::{NotShared, Pending};
    use super::*;

    /// Another instance's tasks as a shared store would give them: `record`, with the id
    /// asked, for every read, or `failure`, each after `delay`; counting the reads.
    #[derive(Default)]
    struct Elsewhere {
        record: Option<TaskRecord>,
        failure: Option<&'static str>,
        delay: Duration,
        loads: AtomicUsize,
    }

    impl SharedTasks for Elsewhere {
        fn instance(&self) -> &str {
            "here"
        }

        fn create(&self, _record: TaskRecord) -> Pending<Result<(), Unavailable>> {
            Box::pin(async { Ok(()) })
        }

        fn update(&self, _record: TaskRecord, _announce: bool) {}

        fn load(&self, id: &str) -> Pending<Result<Option<TaskRecord>, Unavailable>> {
            self.loads.fetch_add(1, Ordering::SeqCst);
            let record = self.record.clone().map(|record| TaskRecord {
                id: id.to_owned(),
                ..record
            });
            let (failure, delay) = (self.failure, self.delay);
            Box::pin(async move {
                tokio::time::sleep(delay).await;
                match failure {
                    Some(why) => Err(Unavailable(why.to_owned())),
                    None => Ok(record),
                }
            })
        }

        fn command(
            &self,
            _record: TaskRecord,
            _command: Command,
        ) -> Pending<Result<(), Unavailable>> {
            Box::pin(async { Ok(()) })
        }
    }

    /// A task id of the form this runtime issues.
    const SOME_ID: &str = "0123456789abcdef0123456789abcdef";

    /// A record read from the shared store whose creation is near the end of time is expired,
    /// not a panic adding its time to live.
    #[tokio::test]
    async fn a_record_created_at_the_end_of_time_is_expired() {
        let end_of_time = UNIX_EPOCH + Duration::from_secs(i64::MAX as u64);
        let elsewhere = Elsewhere {
            record: Some(TaskRecord {
                created_at: end_of_time,
                last_updated_at: end_of_time,
                ..TaskRecord::made_now(SOME_ID, Status::Working)
            }),
            ..Elsewhere::default()
        };
        let store = TaskStore::new(TaskLimits::default(), Arc::new(elsewhere));
        assert!(store.find(SOME_ID, None).await.unwrap().is_none());
    }

    /// SECURITY.md, "Several instances": a task id of another form than the runtime issues is
    /// no task, found without asking the shared store (its key would name another server's
    /// tasks, `mcp:task:NAME:staging:ID`, or cost a round trip of any size).
    #[tokio::test]
    async fn an_id_the_runtime_never_issues_is_not_looked_up() {
        let elsewhere = Arc::new(Elsewhere {
            record: Some(TaskRecord::made_now(SOME_ID, Status::Working)),
            ..Elsewhere::default()
        });
        let store = TaskStore::new(TaskLimits::default(), elsewhere.clone());
        for id in [
            format!("staging:{SOME_ID}"),
            format!("{SOME_ID}:1"),
            SOME_ID.to_uppercase(),
            format!("{}z", &SOME_ID[1..]),
            "a".repeat(100_000),
        ] {
            assert!(store.find(&id, None).await.unwrap().is_none(), "{id}");
        }
        assert_eq!(elsewhere.loads.load(Ordering::SeqCst), 0);
        assert!(store.find(SOME_ID, None).await.unwrap().is_some());
        assert_eq!(elsewhere.loads.load(Ordering::SeqCst), 1);
    }

    /// RELIABILITY.md, "Several instances": the 64 tasks a listen request may follow are
    /// looked up at once, so a shared store that takes 10 s to answer (or to fail) makes the
    /// request wait 10 s, not 64 times that; one lookup that fails fails them all, -32603.
    #[tokio::test(start_paused = true)]
    async fn tasks_elsewhere_are_looked_up_at_once_and_a_failure_is_said() {
        let ids: Vec<String> = (0..64).map(|_| issued_id::new()).collect();
        let slow = Elsewhere {
            record: Some(TaskRecord::made_now("-", Status::Working)),
            delay: Duration::from_secs(10),
            ..Elsewhere::default()
        };
        let store = TaskStore::new(TaskLimits::default(), Arc::new(slow));
        let started = tokio::time::Instant::now();
        let found = store.find_each(&ids, None).await.unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(10));
        let found: Vec<String> = found.iter().flatten().map(|f| f.record().id).collect();
        assert_eq!(found, ids, "each in its place");

        let failing = Elsewhere {
            failure: Some("no answer within 10s"),
            delay: Duration::from_secs(10),
            ..Elsewhere::default()
        };
        let store = TaskStore::new(TaskLimits::default(), Arc::new(failing));
        let started = tokio::time::Instant::now();
        let error = store.find_each(&ids, None).await.err().unwrap();
        assert_eq!(started.elapsed(), Duration::from_secs(10));
        assert_eq!(error.code, -32603);
        assert!(error.message.contains("no answer within 10s"), "{error}");
    }

    fn store(max_live: usize, ttl: Duration) -> TaskStore {
        let limits = TaskLimits {
            max_live,
            ttl,
            ..TaskLimits::default()
        };
        TaskStore::new(limits, Arc::new(NotShared))
    }

    #[tokio::test]
    async fn refuses_beyond_the_cap_and_forgets_expired_tasks() {
        let store = store(2, Duration::from_secs(60));
        store.create("t", None, 0).await.unwrap();
        store.create("t", None, 0).await.unwrap();
        let error = store.create("t", None, 0).await.err().unwrap();
        assert!(error.to_string().contains("holds 2 tasks"), "{error}");

        let store = self::store(1, Duration::ZERO);
        let first = store.create("t", None, 0).await.unwrap();
        assert!(store.get(&first.id, None).is_none());
        store.create("t", None, 0).await.unwrap();
        assert_eq!(first.record().status, Status::Cancelled);
    }

    /// One caller holds at most `max_live_per_caller` tasks; others, and tasks without a
    /// caller, still get theirs.
    #[tokio::test]
    async fn one_caller_holds_at_most_its_share() {
        let store = TaskStore::new(
            TaskLimits {
                max_live: 10,
                max_live_per_caller: 2,
                ..TaskLimits::default()
            },
            Arc::new(NotShared),
        );
        let alice = || Some("iss alice".to_owned());
        store.create("t", alice(), 0).await.unwrap();
        store.create("t", alice(), 0).await.unwrap();
        let error = store.create("t", alice(), 0).await.err().unwrap();
        assert!(
            error.to_string().contains("you hold 2 tasks")
                && error
                    .to_string()
                    .contains("TaskLimits::max_live_per_caller"),
            "{error}"
        );
        store
            .create("t", Some("iss bob".to_owned()), 0)
            .await
            .unwrap();
        for _ in 0..3 {
            store.create("t", None, 0).await.unwrap();
        }
    }

    /// RELIABILITY.md, "Tasks": one caller's tasks take at most `max_bytes_per_caller`,
    /// counted as `max_bytes` counts them: a call, or answers, that would pass it are refused
    /// naming the setting; other callers, and tasks without a caller, get the rest.
    #[tokio::test]
    async fn one_caller_takes_at_most_its_share_of_the_bytes() {
        let store = TaskStore::new(
            TaskLimits {
                max_bytes: 100,
                max_bytes_per_caller: 40,
                ..TaskLimits::default()
            },
            Arc::new(NotShared),
        );
        let alice = || Some("iss alice".to_owned());
        let first = store.create("t", alice(), 30).await.unwrap();
        let error = store
            .create("t", alice(), 11)
            .await
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("your tasks on this server take 30 bytes")
                && error.contains("this call's 11 more")
                && error.contains("TaskLimits::max_bytes_per_caller"),
            "{error}"
        );
        first.lock().record.pending = vec![("q".into(), json!({}))];
        let answer = serde_json::from_value(json!({"q": "y".repeat(9)})).unwrap();
        let error = store
            .answer(Found::Here(Arc::clone(&first)), answer)
            .await
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("these answers' 11 more")
                && error.contains("TaskLimits::max_bytes_per_caller"),
            "{error}"
        );
        assert_eq!(first.record().pending.len(), 1);
        store.create("t", alice(), 10).await.unwrap();
        store
            .create("t", Some("iss bob".to_owned()), 40)
            .await
            .unwrap();
        store.create("t", None, 20).await.unwrap();
        let error = store.create("t", None, 1).await.err().unwrap().to_string();
        assert!(error.contains("(TaskLimits::max_bytes)"), "{error}");
    }

    /// RELIABILITY.md, "Tasks": the tasks held take at most `max_bytes`, counting each
    /// one's arguments, then the answers taken and its result; a call that would pass it is
    /// refused, naming the limit, until tasks expire.
    #[tokio::test]
    async fn the_tasks_held_take_at_most_max_bytes() {
        let store = TaskStore::new(
            TaskLimits {
                max_bytes: 100,
                ttl: Duration::from_millis(300),
                ..TaskLimits::default()
            },
            Arc::new(NotShared),
        );
        let first = store.create("t", None, 40).await.unwrap();
        let error = store.create("t", None, 61).await.err().unwrap().to_string();
        assert!(
            error.contains("take 40 bytes")
                && error.contains("this call's 61 more")
                && error.contains("TaskLimits::max_bytes"),
            "{error}"
        );
        // Answers that would pass it are refused, none of them taken, the question still
        // pending: 40 held, 2 + 61 more.
        first.lock().record.pending = vec![("q".into(), json!({})), ("r".into(), json!({}))];
        let answers = |text: &str| {
            let answers = json!({"q": {"ok": "yes"}, "r": text, "never asked": "x".repeat(200)});
            serde_json::from_value(answers).unwrap()
        };
        let error = store
            .answer(Found::Here(Arc::clone(&first)), answers(&"y".repeat(59)))
            .await
            .err()
            .unwrap()
            .to_string();
        assert!(
            error.contains("take 40 bytes")
                && error.contains("these answers' 73 more")
                && error.contains("TaskLimits::max_bytes"),
            "{error}"
        );
        assert_eq!(first.record().pending.len(), 2);
        assert_eq!(first.held.load(Ordering::Relaxed), 40);
        // Those that fit are taken, and count, as the result does: 40 + 12 + 3 + 12 of 100.
        store
            .answer(Found::Here(Arc::clone(&first)), answers("y"))
            .await
            .unwrap();
        assert!(first.record().pending.is_empty());
        first.finish(Ok(json!({"result": 1})));
        assert_eq!(first.held.load(Ordering::Relaxed), 40 + 12 + 3 + 12);
        assert!(store.create("t", None, 34).await.is_err());
        store.create("t", None, 33).await.unwrap();
        // Expired, they hold nothing.
        tokio::time::sleep(Duration::from_millis(350)).await;
        store.create("t", None, 100).await.unwrap();
    }

    #[tokio::test]
    async fn a_task_is_its_owners_only() {
        let store = store(4, Duration::from_secs(60));
        let task = store
            .create("t", Some("iss alice".into()), 0)
            .await
            .unwrap();
        assert!(store.get(&task.id, Some("iss alice")).is_some());
        assert!(store.get(&task.id, Some("iss mallory")).is_none());
        assert!(store.get(&task.id, None).is_none());
        let found = store.find(&task.id, Some("iss mallory")).await.unwrap();
        assert!(found.is_none());
    }

    #[tokio::test]
    async fn answers_only_pending_questions_and_ends_once() {
        let store = store(4, Duration::from_secs(60));
        let task = store.create("t", None, 0).await.unwrap();
        task.lock().record.pending = vec![("a".into(), json!({})), ("b".into(), json!({}))];
        let answers = Map::from_iter([("a".into(), json!(1)), ("zz".into(), json!(2))]);
        store
            .answer(Found::Here(Arc::clone(&task)), answers)
            .await
            .unwrap();
        let state = task.lock();
        assert_eq!(state.record.pending.len(), 1);
        assert_eq!(state.answers, Map::from_iter([("a".into(), json!(1))]));
        drop(state);
        task.cancel();
        task.finish(Ok(json!({})));
        task.cancel();
        assert_eq!(task.record().status, Status::Cancelled);
    }

    /// A task's status never leaves a terminal one (tasks.md, "Task Status", its state
    /// diagram: `completed`, `failed` and `cancelled` lead nowhere): a `tasks/cancel` that
    /// comes while the tool is asking, before or after its questions are parked, leaves it
    /// cancelled, and the tool's run, waiting for answers that never come, ends nothing.
    #[tokio::test]
    async fn a_cancel_racing_a_question_stays_cancelled() {
        let store = store(4, Duration::from_secs(60));
        let questions = || vec![("q".to_owned(), json!({"method": "elicitation/create"}))];
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());

        // Cancelled before the tool's question is parked.
        let task = store.create("t", None, 0).await.unwrap();
        task.cancel();
        let mut asking = std::pin::pin!(task.ask(questions()));
        assert!(asking.as_mut().poll(&mut cx).is_pending());
        assert_eq!(task.record().status, Status::Cancelled);
        assert!(task.record().pending.is_empty());
        task.finish(Ok(json!({})));
        assert_eq!(task.record().status, Status::Cancelled);

        // Cancelled while the question waits, then woken as an answer would wake it.
        let task = store.create("t", None, 0).await.unwrap();
        let mut asking = std::pin::pin!(task.ask(questions()));
        assert!(asking.as_mut().poll(&mut cx).is_pending());
        assert_eq!(task.record().status, Status::InputRequired);
        task.cancel();
        task.answered.notify_waiters();
        assert!(asking.as_mut().poll(&mut cx).is_pending());
        assert_eq!(task.record().status, Status::Cancelled);
        task.finish(Ok(json!({})));
        assert_eq!(task.record().status, Status::Cancelled);
    }

    #[test]
    fn a_record_elsewhere_takes_answers_and_a_cancel_until_it_ends() {
        let now = SystemTime::now();
        let mut record = TaskRecord {
            id: "t".into(),
            owner: None,
            tool: "t".into(),
            runner: "a".into(),
            created_at: now,
            status: Status::InputRequired,
            last_updated_at: now,
            pending: vec![("a".into(), json!({})), ("b".into(), json!({}))],
            outcome: None,
        };
        assert!(!record.take_answered(["zz"]));
        assert!(record.take_answered(["a"]));
        assert_eq!(record.status, Status::InputRequired);
        assert!(record.take_answered(["b"]));
        assert_eq!(record.status, Status::Working);
        record.cancel();
        assert_eq!(record.status, Status::Cancelled);
        record.status = Status::Completed;
        record.cancel();
        assert_eq!(record.status, Status::Completed);
    }
}
