//! The tasks extension of revision 2026-07-28 (served with the `tasks` feature; without it a
//! tool that declares task support is refused when the server is built) (`io.modelcontextprotocol/tasks`, SEP-2663): a
//! `tools/call` answered with a task handle (`resultType: "task"`) while the tool runs in the
//! background; the client polls `tasks/get`, answers the tool's questions with
//! `tasks/update`, and may `tasks/cancel` it. There is no `tasks/result` nor `tasks/list`.
//!
//! A tool opts in with [`TaskSupport`]: `#[mcp_tool(task_support = "optional")]` (or
//! `"required"`), or [`DynamicTool::task_support`](crate::DynamicTool::task_support). The
//! client asks nothing: a call to such a tool from a request that declares the extension in
//! its client capabilities runs in the request until the tool first waits. A tool that returns
//! without waiting is answered with its result; one that asks a question first gets the
//! input-required flow of revision 2026-07-28 (its retry runs it again); one that waits on
//! anything else, or reaches [`Context::continue_as_task`](crate::Context::continue_as_task),
//! becomes a task and goes on in the background. A tool whose support is
//! [`TaskSupport::Required`] is refused (-32021, `requiredCapabilities.extensions`) to a request
//! that does not declare the extension; an [`TaskSupport::Optional`] one then runs as an
//! ordinary call. The session-based revisions have no tasks extension: there every call is
//! ordinary.
//!
//! The server holds every task in memory, within [`TaskLimits`]: at most `max_live` tasks at
//! once (a call beyond it is refused with -32603, saying so), each kept for `ttl` from its
//! creation (its `ttlMs`), after which it is forgotten and, if still running, stopped (by the
//! sweep that each creation and lookup of a task makes first). A task belongs to the caller
//! that created it (the issuer and subject of its access token over HTTP with a resource
//! server); another caller naming its id is told the id is unknown.
//!
//! Questions a task's tool asks (`ctx.elicit(..)`, ...) park it in `input_required` with the
//! questions in `inputRequests`; when `tasks/update` has answered all of them the tool runs
//! again from the start with the answers at hand, the same re-execution as the input-required
//! flow of a stateless request ([`Context::question`](crate::Context::question)). An answer
//! that does not fit its question fails the task (-32602 in its `error`). A status change is
//! announced as `notifications/tasks` on the `subscriptions/listen` streams whose `taskIds`
//! name the task, each new state once (a status, or new questions, the stream has not told).
//!
//! Once the call is a task, its request has been answered: progress and log messages the tool
//! sends from then on reach no one, and `tasks/cancel` (or the end of its `ttl`) cancels the
//! tool's context (`ctx.is_cancelled()`, `ctx.cancelled()`) and stops it at its next `.await`,
//! as a cancelled request's.
//!
//! A task runs, and is held, on the instance that created it. With
//! [`ServerBuilder::redis`](crate::ServerBuilder::redis) (the `redis` feature) several
//! instances share their tasks: each task's record (status, timestamps, pending questions,
//! result or error, owner) is also in Redis for its `ttl`, so `tasks/get`, `tasks/update` and
//! `tasks/cancel` are served by any instance, the last two handed on to the instance that runs
//! the task; each status change is announced to every instance, whose listen streams that
//! follow the task send `notifications/tasks`. `max_live` counts the tasks one instance runs.
//! Without Redis nothing is shared.

#[cfg(feature = "tasks")]
pub(crate) mod clock;
#[cfg(feature = "tasks")]
pub(crate) mod record;
#[cfg(all(feature = "tasks", feature = "redis"))]
pub(crate) mod redis_records;
#[cfg(feature = "tasks")]
pub(crate) mod shared;
#[cfg(feature = "tasks")]
pub(crate) mod store;
#[cfg(feature = "tasks")]
pub(crate) mod told;
#[cfg(feature = "tasks")]
pub(crate) mod wire;

use std::time::Duration;

/// The extension's identifier, in capabilities.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// Whether a tool's calls may run as tasks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TaskSupport {
    /// Never: every call is answered with its result (the default).
    #[default]
    Forbidden,
    /// A call from a client that declares the extension becomes a task; others run as usual.
    Optional,
    /// Only as a task: a client that does not declare the extension is refused (-32021).
    Required,
}

/// How many tasks the server holds and for how long ([`ServerBuilder::task_limits`](crate::ServerBuilder::task_limits)).
#[derive(Clone, Copy, Debug)]
pub struct TaskLimits {
    /// Tasks held at once, running or finished (by each instance, when several share Redis); a
    /// call beyond it is refused.
    pub max_live: usize,
    /// Of those, the tasks one caller of a protected server may hold (as the issuer and
    /// subject of its token say), so that one client cannot take them all; tasks without a
    /// caller (an unprotected server) count only toward `max_live`.
    pub max_live_per_caller: usize,
    /// The bytes the tasks held may take: each task's arguments (the call's params as
    /// received), the answers given to it and its result, counted as JSON text, until the task
    /// expires; a call, or a `tasks/update` whose answers would take more, is refused.
    pub max_bytes: usize,
    /// Of those, the bytes the tasks of one caller of a protected server may take, so that
    /// one client cannot take them all; tasks without a caller count only toward `max_bytes`.
    pub max_bytes_per_caller: usize,
    /// How long a task is kept from its creation (`ttlMs`); a task still running then is stopped.
    pub ttl: Duration,
    /// How often a client is told to poll (`pollIntervalMs`).
    pub poll_interval: Duration,
}

impl Default for TaskLimits {
    /// 1024 tasks (256 of one caller) taking at most 64 MiB (16 MiB of one caller), kept
    /// 10 minutes each, polled
    /// every 500 ms.
    fn default() -> TaskLimits {
        TaskLimits {
            max_live: 1024,
            max_live_per_caller: 256,
            max_bytes: 64 * 1024 * 1024,
            max_bytes_per_caller: 16 * 1024 * 1024,
            ttl: Duration::from_secs(600),
            poll_interval: Duration::from_millis(500),
        }
    }
}
