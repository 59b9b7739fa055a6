//! Configuring a server: which tools, what it says about itself, and its limits.

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use super::changes::{ChangeBus, InProcessBus, Listeners};
use super::{ServerHandle, Sessions, methods};
use crate::catalog::Live;
use crate::error::{BuildError, BuildProblem};
use crate::handler::registered;
use crate::jsonrpc::RpcError;
use crate::limit_log::LimitLog;
use crate::longest_duration::at_most_a_year;
use crate::prompt::{Prompt, PromptCatalog, PromptEntry};
use crate::protocol::envelope::LastClient;
use crate::protocol::stateless_result::CompleteMembers;
use crate::protocol::{CacheHints, Implementation};
use crate::resource::{Resource, ResourceCatalog, ResourceEntry};
use crate::sealed_state::StateKeys;
use crate::state_map::StateMap;
use crate::tool::Tool;
use crate::tool::{ToolEntry, ToolRegistry};

/// The default number of items in one page of `tools/list`.
const DEFAULT_PAGE_SIZE: usize = 100;
/// The default largest incoming message, in bytes.
const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;
/// The default time the server waits for the client to answer one of its requests.
const DEFAULT_REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// The default time requests in flight may run on once stdin has ended.
const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// The default output backlog above which stdio stops reading.
const DEFAULT_MAX_OUTPUT_BACKLOG: usize = 16 * 1024 * 1024;
/// The default number of requests one session may have in flight: as many as hyper lets one
/// HTTP/2 connection carry at once.
const DEFAULT_MAX_REQUESTS_IN_FLIGHT: usize = 200;
/// How many requests all the sessions of a server may have in flight together, unless
/// `ServerBuilder::max_requests_in_flight_total` says otherwise: eight per connection at the
/// HTTP transport's default `max_connections` (512).
const DEFAULT_MAX_REQUESTS_IN_FLIGHT_TOTAL: usize = 4096;
/// How many bytes of params the requests in flight of all the sessions may hold together,
/// unless `ServerBuilder::max_request_bytes_in_flight` says otherwise.
const DEFAULT_MAX_REQUEST_BYTES_IN_FLIGHT: usize = 64 * 1024 * 1024;
/// The default bounds of one session's resource subscriptions.
const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = SubscriptionLimits {
    max: 64,
    // nginx's request line buffer (`large_client_header_buffers 4 8k`).
    max_uri_bytes: 8 * 1024,
    max_listeners: 1024,
};

/// Whether `MCP_TRACE`'s value asks for traces: set, and not empty, `0`, `false`, `no` or
/// `off`.
fn trace_asked(value: Option<&std::ffi::OsStr>) -> bool {
    value.is_some_and(|v| !matches!(v.to_str(), Some("" | "0" | "false" | "no" | "off")))
}

/// How many resources one session may subscribe to, how long a URI a client names may be, and
/// how many listen streams may be open.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SubscriptionLimits {
    pub(crate) max: usize,
    pub(crate) max_uri_bytes: usize,
    /// How many `subscriptions/listen` streams the server keeps open at once.
    pub(crate) max_listeners: usize,
}

/// Configures a [`Server`]. Start from [`server!`](crate::server!) (every registered tool,
/// named after your crate) or [`Server::builder`] (nothing registered yet).
pub struct ServerBuilder {
    info: Implementation,
    instructions: Option<String>,
    tools: Vec<ToolEntry>,
    /// Mistakes found while adding, reported by `build`.
    errors: Vec<BuildProblem>,
    resources: Vec<ResourceEntry>,
    prompts: Vec<PromptEntry>,
    page_size: usize,
    cache_hints: CacheHints,
    state_keys: Option<StateKeys>,
    #[cfg(feature = "redis")]
    redis: Option<String>,
    state: StateMap,
    trace: bool,
    max_message_bytes: usize,
    request_timeout: Duration,
    shutdown_grace: Duration,
    max_output_backlog: usize,
    max_requests_in_flight: usize,
    max_requests_in_flight_total: usize,
    max_request_bytes_in_flight: usize,
    max_log_backlog: usize,
    subscriptions: SubscriptionLimits,
    // Used only to serve tasks (the `tasks` feature).
    #[cfg_attr(not(feature = "tasks"), allow(dead_code))]
    task_limits: crate::tasks::TaskLimits,
}

/// A built server: immutable, cheap to clone, able to serve any number of connections.
#[derive(Clone)]
pub struct Server {
    pub(crate) core: Arc<ServerCore>,
}

/// What every connection of a server shares.
pub(crate) struct ServerCore {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) tools: Live<ToolRegistry>,
    pub(crate) resources: Live<ResourceCatalog>,
    pub(crate) prompts: Live<PromptCatalog>,
    pub(crate) sessions: Sessions,
    pub(crate) page_size: usize,
    /// The server's cache hints, for [`complete_members`](Self::complete_members).
    cache_hints: CacheHints,
    /// What every complete stateless result adds, written at the first such result: a
    /// server that only meets the session revisions never writes it.
    complete_members: OnceLock<CompleteMembers>,
    pub(crate) state_keys: StateKeys,
    /// The client the last stateless request declared, decoded (see [`LastClient`]).
    pub(crate) last_client: LastClient,
    /// Where list changes and resource updates go to reach every listen stream.
    pub(crate) changes: Box<dyn ChangeBus>,
    /// The Redis the instances share ([`ServerBuilder::redis`]): the HTTP transport keeps the
    /// events of its legacy sessions there too.
    #[cfg(feature = "redis")]
    #[cfg_attr(
        not(feature = "http"),
        expect(dead_code, reason = "read by the HTTP transport")
    )]
    pub(crate) redis: Option<String>,
    pub(crate) listeners: Listeners,
    /// Shared with each completion's `CompletionContext`.
    pub(crate) state: Arc<StateMap>,
    pub(crate) trace: bool,
    pub(crate) max_message_bytes: usize,
    pub(crate) request_timeout: Duration,
    pub(crate) shutdown_grace: Duration,
    pub(crate) max_output_backlog: usize,
    /// How many requests one session may have in flight ([`ServerBuilder::max_requests_in_flight`]).
    pub(crate) max_requests_in_flight: usize,
    /// How many all sessions may have in flight together
    /// ([`ServerBuilder::max_requests_in_flight_total`]), and how many they have.
    pub(crate) max_requests_in_flight_total: usize,
    pub(crate) requests_in_flight: std::sync::atomic::AtomicUsize,
    /// How many bytes of params they may hold together
    /// ([`ServerBuilder::max_request_bytes_in_flight`]), and how many they hold.
    pub(crate) max_request_bytes_in_flight: usize,
    pub(crate) request_bytes_in_flight: std::sync::atomic::AtomicUsize,
    pub(crate) subscriptions: SubscriptionLimits,
    /// The tasks of the tasks extension, held within their limits.
    #[cfg(feature = "tasks")]
    pub(crate) tasks: crate::tasks::store::TaskStore,
}

impl ServerCore {
    /// Refuses a resource URI longer than [`ServerBuilder::max_uri_bytes`]: checked before
    /// anything else is done with it (matching a long URI against templates costs time and
    /// memory that grow with its length).
    pub(crate) fn check_uri(&self, uri: &str) -> Result<(), RpcError> {
        let max = self.subscriptions.max_uri_bytes;
        if uri.len() <= max {
            return Ok(());
        }
        static LOG: LimitLog = LimitLog::new();
        LOG.hit(|| {
            format!(
                "a resource URI of {} bytes is refused (ServerBuilder::max_uri_bytes: {max})",
                uri.len()
            )
        });
        Err(RpcError::invalid_params(format!(
            "the URI is {} bytes long, over the server's limit of {max} bytes for a resource URI (ServerBuilder::max_uri_bytes)",
            uri.len()
        ))
        .with_data(serde_json::json!({ "field": "uri" })))
    }

    /// What every complete stateless result adds after its own members (cache hints
    /// included).
    pub(crate) fn complete_members(&self) -> &CompleteMembers {
        self.complete_members
            .get_or_init(|| CompleteMembers::new(&self.info, self.cache_hints))
    }
}

impl Server {
    /// A builder for a server that introduces itself as `info` and has no tools yet.
    pub fn builder(info: Implementation) -> ServerBuilder {
        ServerBuilder {
            info,
            instructions: None,
            tools: Vec::new(),
            errors: Vec::new(),
            resources: Vec::new(),
            prompts: Vec::new(),
            page_size: DEFAULT_PAGE_SIZE,
            cache_hints: CacheHints::NONE,
            state_keys: None,
            #[cfg(feature = "redis")]
            redis: None,
            state: StateMap::default(),
            trace: trace_asked(std::env::var_os("MCP_TRACE").as_deref()),
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            request_timeout: DEFAULT_REQUEST_TIMEOUT,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
            max_output_backlog: DEFAULT_MAX_OUTPUT_BACKLOG,
            max_requests_in_flight: DEFAULT_MAX_REQUESTS_IN_FLIGHT,
            max_requests_in_flight_total: DEFAULT_MAX_REQUESTS_IN_FLIGHT_TOTAL,
            max_request_bytes_in_flight: DEFAULT_MAX_REQUEST_BYTES_IN_FLIGHT,
            max_log_backlog: crate::stderr::DEFAULT_BACKLOG_BYTES,
            subscriptions: DEFAULT_SUBSCRIPTION_LIMITS,
            task_limits: crate::tasks::TaskLimits::default(),
        }
    }

    /// The `serverInfo` the server sends.
    pub fn info(&self) -> &Implementation {
        &self.core.info
    }

    /// The names of the server's tools, in the order `tools/list` gives them.
    pub fn tool_names(&self) -> Vec<String> {
        self.core
            .tools
            .load()
            .iter()
            .map(|tool| tool.name().to_owned())
            .collect()
    }

    /// A handle for changing the running server (adding and removing tools, resources and
    /// prompts) and announcing changes to every connected client.
    pub fn handle(&self) -> ServerHandle {
        ServerHandle {
            core: Arc::clone(&self.core),
        }
    }
}

impl ServerBuilder {
    /// Adds every tool, resource and prompt annotated in the program, in any crate.
    pub fn registered(self) -> ServerBuilder {
        self.registered_tools()
            .registered_resources()
            .registered_prompts()
    }

    /// Adds every function annotated with `#[mcp_resource]` in the program.
    pub fn registered_resources(mut self) -> ServerBuilder {
        self.resources.extend(registered());
        self
    }

    /// Adds every function annotated with `#[mcp_prompt]` in the program.
    pub fn registered_prompts(mut self) -> ServerBuilder {
        self.prompts.extend(registered());
        self
    }

    /// Adds one resource or resource template, by the name of its `#[mcp_resource]` function.
    pub fn resource<R: Resource>(mut self) -> ServerBuilder {
        self.resources.push(methods::resource_entry::<R>());
        self
    }

    /// Adds a resource or template built at run time from a URI, a name and a closure.
    ///
    /// A malformed one (a URI without a scheme, a template that does not parse, an empty
    /// name) makes [`build`](Self::build) fail, saying why.
    pub fn dynamic_resource(mut self, resource: crate::DynamicResource) -> ServerBuilder {
        match methods::dynamic_resource_entry(resource) {
            Ok(entry) => self.resources.push(entry),
            Err(error) => self.errors.push(error),
        }
        self
    }

    /// Adds one prompt, by the name of its `#[mcp_prompt]` function.
    pub fn prompt<P: Prompt>(mut self) -> ServerBuilder {
        self.prompts.push(methods::prompt_entry::<P>());
        self
    }

    /// Adds every function annotated with `#[mcp_tool]` in the program, in any crate.
    pub fn registered_tools(mut self) -> ServerBuilder {
        self.tools.extend(registered());
        self
    }

    /// Adds a tool built at run time from a name, a schema and a closure.
    ///
    /// A malformed one (a name the specification does not allow, an `inputSchema` whose root
    /// is not an object) makes [`build`](Self::build) fail, saying why.
    pub fn dynamic_tool(mut self, tool: crate::DynamicTool) -> ServerBuilder {
        match tool.into_entry() {
            Ok(entry) => self.tools.push(entry),
            Err(error) => self.errors.push(error),
        }
        self
    }

    /// Adds one tool, by the name of its `#[mcp_tool]` function.
    ///
    /// Adding a tool that is already there (say after [`registered_tools`](Self::registered_tools))
    /// is harmless; adding two different tools with one name makes [`build`](Self::build) fail.
    pub fn tool<T: Tool>(mut self) -> ServerBuilder {
        self.tools.push(ToolEntry::of::<T>());
        self
    }

    /// Sets the `serverInfo.name` (by default the crate's name).
    pub fn name(mut self, name: impl Into<Cow<'static, str>>) -> ServerBuilder {
        self.info.name = name.into();
        self
    }

    /// Sets the `serverInfo.version` (by default the crate's version).
    pub fn version(mut self, version: impl Into<Cow<'static, str>>) -> ServerBuilder {
        self.info.version = version.into();
        self
    }

    /// Sets the human-readable `serverInfo.title`.
    pub fn title(mut self, title: impl Into<Cow<'static, str>>) -> ServerBuilder {
        self.info.title = Some(title.into());
        self
    }

    /// Sets the `instructions` sent in the `initialize` result: how to use the server.
    pub fn instructions(mut self, instructions: impl Into<String>) -> ServerBuilder {
        self.instructions = Some(instructions.into());
        self
    }

    /// How long, and by whom, clients of revision 2026-07-28 may cache `server/discover`, the
    /// lists and `resources/read` results (`ttlMs`, `cacheScope`). Default:
    /// [`CacheHints::NONE`] (not reused, private). Session-based revisions have no such
    /// hints: their clients hear of changes through list-changed notifications. A resource
    /// may set its own for its reads (`#[mcp_resource(cache_ttl_ms = .., cache_scope = ..)]`,
    /// [`Resource::CACHE_TTL`](crate::Resource::CACHE_TTL)).
    pub fn cache_hints(mut self, hints: CacheHints) -> ServerBuilder {
        self.cache_hints = hints;
        self
    }

    /// The keys that seal the `requestState` of input-required results (revision
    /// 2026-07-28), so that a retry is believed only with the answers this server (or
    /// another instance holding the same keys) gave. Default: a random key for this process,
    /// so a retry that reaches another process, or this one after a restart, is refused and
    /// the client starts over. Several instances behind a load balancer share keys from a
    /// file ([`StateKeys::from_file`], [`StateKeys::watch_file`] for rotation).
    pub fn state_keys(mut self, keys: StateKeys) -> ServerBuilder {
        self.state_keys = Some(keys);
        self
    }

    /// Shares the changes clients hear of (list changes, resource updates: what
    /// [`ServerHandle`] announces) with every instance of this server that uses the Redis at
    /// `url` (`redis://HOST:PORT`, `redis://:PASSWORD@HOST:PORT/DB`; TLS, `rediss://`, is not
    /// built in), on the pub/sub channel `mcp:changes:NAME` (NAME is the server's
    /// `serverInfo.name`): a tool added on one instance reaches the `subscriptions/listen`
    /// streams and the sessions of every instance. Needs the `redis` feature.
    ///
    /// [`build`](Self::build) connects, waiting at most 5 s: a Redis it cannot reach fails
    /// the build naming its address. A connection lost later is retried (250 ms, doubling up
    /// to every 5 s), with a line on stderr when it is lost and when it is back; meanwhile
    /// changes reach this instance's clients only, and those made elsewhere are missed (the
    /// HTTP transport's `/ready` says so, and stays 200: every request is still served). Only
    /// notifications travel: each instance keeps its own lists, so a change that every
    /// instance must serve is made on every instance.
    ///
    /// With the `http` feature, the HTTP transport also keeps the events of its sessions of the
    /// 2025 revisions in that Redis, so that a stream resumed with `Last-Event-ID` on another
    /// instance replays what the client missed
    /// (`HttpOptions::shared_events_ttl` says what is kept, and for how long).
    ///
    /// With the `tasks` feature, the tasks of the tasks extension are shared too: each task's
    /// record is written to that Redis (at `mcp:task:NAME:ID`, until its `ttlMs` from its
    /// creation ends) so that any instance answers `tasks/get`, `tasks/update` and
    /// `tasks/cancel` about it, handing the last two to the instance that runs it (the
    /// `tasks` module says more). A call that becomes a task waits until its record is
    /// written; one that Redis does not answer is refused with -32603 (as is a `tasks/*`
    /// request about a task another instance runs), within 10 s, never hanging.
    #[cfg(feature = "redis")]
    #[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
    pub fn redis(mut self, url: impl Into<String>) -> ServerBuilder {
        self.redis = Some(url.into());
        self
    }

    /// Sets how many items one page of a list holds (100 by default).
    pub fn page_size(mut self, page_size: usize) -> ServerBuilder {
        self.page_size = page_size;
        self
    }

    /// Gives the server a value that handlers read with `State<T>` or [`Context::state`]. A
    /// `T` given as an `Arc<T>` serves `State<T>` too, sharing that `Arc`.
    ///
    /// [`Context::state`]: crate::Context::state
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> ServerBuilder {
        self.state.insert(value);
        self
    }

    /// Writes every raw message in and out to stderr, with its direction and id. Also turned
    /// on by the environment variable `MCP_TRACE=1`.
    ///
    /// Trace lines never make the server wait: they go through a bounded backlog
    /// ([`max_log_backlog`](Self::max_log_backlog), 1 MiB by default) that a thread of its own
    /// writes to stderr. When stderr is not read and the backlog is full, lines are dropped,
    /// and a line says how many bytes were once stderr moves again.
    pub fn trace(mut self, on: bool) -> ServerBuilder {
        self.trace = on;
        self
    }

    /// Sets the largest incoming stdio message, in bytes (16 MiB by default). A larger one is
    /// discarded and answered with an error. Over HTTP, the body limit is
    /// `HttpOptions::max_body_bytes` (4 MiB by default).
    pub fn max_message_bytes(mut self, bytes: usize) -> ServerBuilder {
        self.max_message_bytes = bytes;
        self
    }

    /// Sets how long the server waits for the client to answer one of its own requests
    /// (60 s by default).
    pub fn request_timeout(mut self, timeout: Duration) -> ServerBuilder {
        self.request_timeout = timeout;
        self
    }

    /// Sets how long requests in flight may run on once stdin has ended (10 s by default):
    /// their replies are still written, and when the time is up the requests left are
    /// cancelled and serving over stdio returns. Over HTTP, the same time is given to the
    /// connections still open once a graceful shutdown starts
    /// (`Server::serve_http_with_shutdown`, SIGTERM with `run`).
    pub fn shutdown_grace(mut self, grace: Duration) -> ServerBuilder {
        self.shutdown_grace = grace;
        self
    }

    /// Sets how many bytes of output may wait for a stdio client to read them (16 MiB by
    /// default). Above that the server stops reading stdin until the client has read enough:
    /// a client that stops reading is not read either, and the backlog grows past the limit
    /// only by what requests already in flight send.
    pub fn max_output_backlog(mut self, bytes: usize) -> ServerBuilder {
        self.max_output_backlog = bytes;
        self
    }

    /// Sets how many requests one session may have in flight at once (200 by default, as many
    /// as hyper lets one HTTP/2 connection carry): a stdio connection, a legacy HTTP session
    /// (whose requests go on for `HttpOptions::resume_grace` after their stream is lost), a
    /// stateless HTTP request. A request past the limit is answered at once with -32603
    /// naming it, and does not run; `subscriptions/listen` streams count too. A batch
    /// (revision 2025-03-26) of more messages than this is refused whole with -32600. It must
    /// be at least 1.
    pub fn max_requests_in_flight(mut self, requests: usize) -> ServerBuilder {
        self.max_requests_in_flight = requests;
        self
    }

    /// Sets how many requests all the sessions of the server may have in flight together
    /// (4,096 by default, eight per connection at the HTTP transport's default
    /// `max_connections`): what bounds the server's work and memory when many sessions, or
    /// many stateless HTTP requests, each stay under
    /// [`max_requests_in_flight`](Self::max_requests_in_flight). A request past it is answered
    /// at once with -32603 naming it, and does not run; a request that ends or is cancelled
    /// frees its place. It must be at least 1.
    pub fn max_requests_in_flight_total(mut self, requests: usize) -> ServerBuilder {
        self.max_requests_in_flight_total = requests;
        self
    }

    /// Sets how many bytes of params the requests in flight of all the sessions may hold
    /// together (64 MiB by default): what bounds the memory of requests that are large and
    /// slow, whose count stays under
    /// [`max_requests_in_flight_total`](Self::max_requests_in_flight_total) (a request holds
    /// its params, the arguments read from them and what the handler makes of them, a few
    /// times their size, until it ends: over HTTP, also for `HttpOptions::resume_grace` after
    /// its stream is lost). A request that would pass it is answered at once with -32603
    /// naming it, and does not run, unless nothing else is in flight (so one request as large
    /// as the server accepts, `max_message_bytes` or `HttpOptions::max_body_bytes`, always
    /// runs). It must be at least 1.
    pub fn max_request_bytes_in_flight(mut self, bytes: usize) -> ServerBuilder {
        self.max_request_bytes_in_flight = bytes;
        self
    }

    /// Sets how many bytes of log may wait for stderr (1 MiB by default): trace lines, the
    /// runtime's notices and, over stdio, what is printed to stdout. They are written by a
    /// thread of their own, so a stderr nobody reads never makes the server wait; past this
    /// backlog they are dropped, and a line says how many bytes were. The process has one
    /// stderr: the server built last sets it. It must be at least 1.
    pub fn max_log_backlog(mut self, bytes: usize) -> ServerBuilder {
        self.max_log_backlog = bytes;
        self
    }

    /// Sets how many resources one session may subscribe to at once (64 by default). One more
    /// `resources/subscribe` is refused with -32602 (invalid params) naming the limit. It also
    /// bounds how many resources, and how many task ids, one `subscriptions/listen` request
    /// (revision 2026-07-28) may name. It must be at least 1.
    pub fn max_subscriptions(mut self, subscriptions: usize) -> ServerBuilder {
        self.subscriptions.max = subscriptions;
        self
    }

    /// Sets the longest resource URI a client may name, in bytes (8 KiB by default, nginx's
    /// request line buffer): in `resources/read`, `resources/subscribe` and
    /// `subscriptions/listen`. A longer one is refused with -32602 (invalid params) naming
    /// the limit, before it is matched against any template.
    pub fn max_uri_bytes(mut self, bytes: usize) -> ServerBuilder {
        self.subscriptions.max_uri_bytes = bytes;
        self
    }

    /// Sets how many `subscriptions/listen` streams (revision 2026-07-28) the server keeps
    /// open at once, over every transport (1024 by default). One more is refused with -32603
    /// naming the limit. Each listen request may name at most
    /// [`max_subscriptions`](Self::max_subscriptions) resources, and as many task ids. It must
    /// be at least 1.
    pub fn max_listeners(mut self, listeners: usize) -> ServerBuilder {
        self.subscriptions.max_listeners = listeners;
        self
    }

    /// Sets how many tasks of the tasks extension the server holds at once, for how long, and
    /// how often clients are told to poll ([`TaskLimits`](crate::tasks::TaskLimits); 1024
    /// tasks kept 10 minutes by default). A call that would make one task too many is refused
    /// with -32603 naming the limit. A time to live or a poll interval beyond a year
    /// (`Duration::MAX` for "no end") is taken as a year.
    pub fn task_limits(mut self, mut limits: crate::tasks::TaskLimits) -> ServerBuilder {
        limits.ttl = at_most_a_year(limits.ttl);
        limits.poll_interval = at_most_a_year(limits.poll_interval);
        self.task_limits = limits;
        self
    }

    /// Checks the configuration and freezes it. The error lists every problem found, not only
    /// the first.
    pub fn build(self) -> Result<Server, BuildError> {
        let mut problems = self.errors;
        if self.page_size == 0 {
            problems.push(BuildProblem::ZeroPageSize);
        }
        if self.max_requests_in_flight == 0 {
            problems.push(BuildProblem::NoRequestsInFlight);
        }
        if self.max_requests_in_flight_total == 0 {
            problems.push(BuildProblem::NoRequestsInFlightTotal);
        }
        for (setting, value) in [
            ("ServerBuilder::max_message_bytes", self.max_message_bytes),
            (
                "ServerBuilder::max_request_bytes_in_flight",
                self.max_request_bytes_in_flight,
            ),
            (
                "ServerBuilder::max_uri_bytes",
                self.subscriptions.max_uri_bytes,
            ),
            ("ServerBuilder::max_subscriptions", self.subscriptions.max),
            (
                "ServerBuilder::max_listeners",
                self.subscriptions.max_listeners,
            ),
            ("ServerBuilder::max_log_backlog", self.max_log_backlog),
            ("TaskLimits::max_live", self.task_limits.max_live),
            (
                "TaskLimits::max_live_per_caller",
                self.task_limits.max_live_per_caller,
            ),
            ("TaskLimits::max_bytes", self.task_limits.max_bytes),
            (
                "TaskLimits::max_bytes_per_caller",
                self.task_limits.max_bytes_per_caller,
            ),
        ] {
            if value == 0 {
                problems.push(BuildProblem::ZeroLimit { setting });
            }
        }
        for prompt in &self.prompts {
            problems.extend(prompt.details.specs.problems.iter().map(|problem| {
                BuildProblem::NotAStringArgument {
                    handler: format!("prompt `{}`", prompt.name()),
                    problem: problem.clone(),
                }
            }));
        }
        let needs = self
            .tools
            .iter()
            .flat_map(|t| {
                t.needs_state
                    .iter()
                    .map(move |n| (format!("tool `{}`", t.name()), n))
            })
            .chain(self.resources.iter().flat_map(|r| {
                r.needs_state
                    .iter()
                    .map(move |n| (format!("resource `{}`", r.definition.uri), n))
            }))
            .chain(self.prompts.iter().flat_map(|p| {
                p.needs_state
                    .iter()
                    .map(move |n| (format!("prompt `{}`", p.name()), n))
            }));
        for (handler, need) in needs {
            let problem = BuildProblem::MissingState {
                handler,
                type_name: need.type_name,
            };
            // The same handler added twice is one handler: report it once.
            if !need.is_met(&self.state) && !problems.contains(&problem) {
                problems.push(problem);
            }
        }
        let tools = ToolRegistry::new(self.tools);
        let resources = ResourceCatalog::new(self.resources);
        let prompts = PromptCatalog::new(self.prompts);
        let failures = [
            tools.as_ref().err(),
            resources.as_ref().err(),
            prompts.as_ref().err(),
        ];
        for error in failures.into_iter().flatten() {
            problems.extend(error.problems().iter().cloned());
        }
        if let Some(error) = BuildError::of(problems) {
            return Err(error);
        }
        let (tools, resources, prompts) = (tools?, resources?, prompts?);
        #[cfg(feature = "redis")]
        let bus = (self.redis.as_deref())
            .map(|url| super::redis_bus::RedisBus::connect(url, &self.info.name))
            .transpose()
            .map_err(|problem| BuildError::from(BuildProblem::ChangeBus { problem }))?;
        #[cfg(feature = "tasks")]
        let shared_tasks = shared_tasks(
            self.task_limits.ttl,
            #[cfg(feature = "redis")]
            self.redis.as_deref().zip(bus.as_ref()),
            #[cfg(feature = "redis")]
            &self.info.name,
        )?;
        #[cfg(feature = "redis")]
        let changes: Box<dyn ChangeBus> = match bus {
            Some(bus) => Box::new(bus),
            None => Box::new(InProcessBus::new()),
        };
        #[cfg(not(feature = "redis"))]
        let changes: Box<dyn ChangeBus> = Box::new(InProcessBus::new());
        crate::stderr::set_backlog(self.max_log_backlog);
        let core = Arc::new(ServerCore {
            info: self.info,
            instructions: self.instructions,
            tools: Live::new(tools),
            resources: Live::new(resources),
            prompts: Live::new(prompts),
            sessions: Sessions::default(),
            page_size: self.page_size,
            cache_hints: self.cache_hints,
            complete_members: OnceLock::new(),
            state_keys: self.state_keys.unwrap_or_else(StateKeys::random),
            last_client: LastClient::default(),
            changes,
            #[cfg(feature = "redis")]
            redis: self.redis,
            listeners: Listeners::default(),
            state: Arc::new(self.state),
            trace: self.trace,
            max_message_bytes: self.max_message_bytes,
            request_timeout: self.request_timeout,
            shutdown_grace: self.shutdown_grace,
            max_output_backlog: self.max_output_backlog,
            max_requests_in_flight: self.max_requests_in_flight,
            max_requests_in_flight_total: self.max_requests_in_flight_total,
            requests_in_flight: std::sync::atomic::AtomicUsize::new(0),
            max_request_bytes_in_flight: self.max_request_bytes_in_flight,
            request_bytes_in_flight: std::sync::atomic::AtomicUsize::new(0),
            subscriptions: self.subscriptions,
            #[cfg(feature = "tasks")]
            tasks: crate::tasks::store::TaskStore::new(self.task_limits, shared_tasks),
        });
        core.changes.attach(Arc::downgrade(&core));
        Ok(Server { core })
    }
}

/// Where the records of tasks are shared: in the Redis at `url` with its bus (the bus carries
/// the commands for the tasks this instance runs) for the server `name`, nowhere without it.
#[cfg(feature = "tasks")]
fn shared_tasks(
    ttl: Duration,
    #[cfg(feature = "redis")] redis: Option<(&str, &super::redis_bus::RedisBus)>,
    #[cfg(feature = "redis")] name: &str,
) -> Result<Arc<dyn crate::tasks::shared::SharedTasks>, BuildError> {
    #[cfg(feature = "redis")]
    if let Some((url, bus)) = redis {
        let records =
            crate::tasks::redis_records::RedisTasks::start(url, name, bus.instance(), ttl)
                .map_err(|problem| BuildError::from(BuildProblem::ChangeBus { problem }))?;
        return Ok(Arc::new(records));
    }
    let _ = ttl;
    Ok(Arc::new(crate::tasks::shared::NotShared))
}

#[cfg(test)]
mod tests {
    use super::trace_asked;

    #[test]
    fn mcp_trace_is_on_unless_empty_or_a_no() {
        for on in ["1", "true", "yes", "all"] {
            assert!(trace_asked(Some(on.as_ref())), "{on}");
        }
        for off in ["", "0", "false", "no", "off"] {
            assert!(!trace_asked(Some(off.as_ref())), "{off:?}");
        }
        assert!(!trace_asked(None));
    }
}
