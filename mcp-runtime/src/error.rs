//! Errors a server program can meet: building the server, and serving.

use std::fmt;
use std::io;

/// A server could not be built: every problem its configuration has, found at once.
///
/// Adding one tool, resource or prompt to a running server ([`ServerHandle`]) can only meet
/// one problem, so its error lists exactly one.
///
/// [`ServerHandle`]: crate::ServerHandle
#[derive(Clone, PartialEq, Eq)]
pub struct BuildError {
    problems: Vec<BuildProblem>,
}

impl BuildError {
    /// Every problem, in the order found (never empty).
    pub fn problems(&self) -> &[BuildProblem] {
        &self.problems
    }

    /// The error for `problems`; `None` if there is none.
    pub(crate) fn of(problems: Vec<BuildProblem>) -> Option<BuildError> {
        (!problems.is_empty()).then_some(BuildError { problems })
    }
}

impl From<BuildProblem> for BuildError {
    fn from(problem: BuildProblem) -> BuildError {
        BuildError {
            problems: vec![problem],
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problems[..] {
            [one] => fmt::Display::fmt(one, f),
            several => {
                write!(f, "{} problems:", several.len())?;
                for (number, problem) in several.iter().enumerate() {
                    write!(f, "\n  {}. {problem}", number + 1)?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for BuildError {}

/// The location of a tool made at run time (a `DynamicTool`), as a [`BuildProblem::Duplicate`]
/// names it: no place in the source, so two entries with it are two definitions, never one
/// registered twice.
pub(crate) const MADE_AT_RUN_TIME: &str = "a tool made at run time (DynamicTool)";

/// [`MADE_AT_RUN_TIME`] of a resource made at run time (a `DynamicResource`).
pub(crate) const RESOURCE_MADE_AT_RUN_TIME: &str = "a resource made at run time (DynamicResource)";

/// Whether `location` is that of a handler made at run time.
pub(crate) fn made_at_run_time(location: &str) -> bool {
    location == MADE_AT_RUN_TIME || location == RESOURCE_MADE_AT_RUN_TIME
}

/// One problem of a server's configuration.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildProblem {
    /// Two different tools, prompts or resources have the same name (or URI).
    Duplicate {
        /// "tool", "prompt" or "resource".
        kind: &'static str,
        /// The name they share.
        name: String,
        /// Where the first is defined.
        first: String,
        /// Where the second is defined.
        second: String,
    },
    /// A handler reads `State<T>` but no state of type `T` was given.
    MissingState {
        /// The handler: `tool `x``, `prompt `y``, ...
        handler: String,
        /// The state type.
        type_name: &'static str,
    },
    /// A prompt argument or URI template variable has a type no string can express.
    NotAStringArgument {
        /// The handler: `prompt `x`` or `resource template `...``.
        handler: String,
        /// What is wrong.
        problem: String,
    },
    /// A resource's URI or URI template is malformed.
    InvalidUri {
        /// The URI or template.
        uri: String,
        /// What is wrong.
        problem: String,
    },
    /// A tool, resource or prompt built at run time is malformed, or a tool's schema mirrors
    /// an argument into a header (`x-mcp-header`) against the rules.
    InvalidDefinition {
        /// "tool", "prompt" or "resource".
        kind: &'static str,
        /// Its name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A tool declares task support (`task_support = "optional"` or `"required"`) but the
    /// crate was built without its `tasks` feature.
    TasksNotEnabled {
        /// The tool's name.
        tool: String,
        /// Where it is defined.
        location: String,
    },
    /// A page size of zero was configured.
    ZeroPageSize,
    /// `max_requests_in_flight` was set to zero: no request could run.
    NoRequestsInFlight,
    /// `max_requests_in_flight_total` was set to zero: no request could run.
    NoRequestsInFlightTotal,
    /// A limit was set to zero, so that everything it bounds would be refused.
    ZeroLimit {
        /// The setting: `ServerBuilder::max_message_bytes`, `HttpOptions::max_connections`, ...
        setting: &'static str,
    },
    /// A value given to `HostPolicy::allow` (a host and an optional port) or
    /// `HostPolicy::only` (a host alone) that no request could match, such as a URL.
    UnusableHost {
        /// `HostPolicy::allow` or `HostPolicy::only`.
        setting: &'static str,
        /// The value as given.
        value: String,
    },
    /// The bus shared with other instances could not start (Redis unreachable).
    ChangeBus {
        /// What went wrong, naming the address.
        problem: String,
    },
}

impl fmt::Display for BuildProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildProblem::Duplicate {
                kind,
                name,
                first,
                second,
            } => {
                let key = if *kind == "resource" { "uri" } else { "name" };
                write!(
                    f,
                    "two {kind}s have the {key} `{name}`: `{first}` and `{second}`; "
                )?;
                if made_at_run_time(second) {
                    let made = if *kind == "resource" {
                        "DynamicResource::new"
                    } else {
                        "DynamicTool::new"
                    };
                    write!(
                        f,
                        "give one of them another {key} (`{made}`); to replace a {kind} of a running server, remove it first (`ServerHandle::remove_{kind}`)"
                    )
                } else {
                    write!(
                        f,
                        "give one of them another {key} with #[mcp_{kind}({key} = \"...\")], or build the server with only one of them (`Server::builder(..).{kind}::<...>()`)"
                    )
                }
            }
            BuildProblem::MissingState { handler, type_name } => write!(
                f,
                "{handler} takes `State<{type_name}>`, but the server was given no state of that type; add `.state(value)` to the server builder, with a `{type_name}` or an `Arc<{type_name}>`"
            ),
            BuildProblem::NotAStringArgument { handler, problem } => {
                write!(f, "{handler}: {problem}")
            }
            BuildProblem::InvalidUri { uri, problem } => {
                write!(f, "invalid resource URI `{uri}`: {problem}")
            }
            BuildProblem::InvalidDefinition {
                kind,
                name,
                problem,
            } => {
                write!(f, "invalid {kind} `{name}`: {problem}")
            }
            BuildProblem::TasksNotEnabled { tool, location } => write!(
                f,
                "tool `{tool}` (`{location}`) declares task support, which needs the `tasks` feature of mcp-runtime: add `features = [\"tasks\"]` to its dependency, or remove `task_support`"
            ),
            BuildProblem::ZeroPageSize => {
                f.write_str("the page size must be at least 1 (`ServerBuilder::page_size`)")
            }
            BuildProblem::NoRequestsInFlight => f.write_str(
                "`ServerBuilder::max_requests_in_flight` is 0, so every request would be refused: set it to at least 1",
            ),
            BuildProblem::NoRequestsInFlightTotal => f.write_str(
                "`ServerBuilder::max_requests_in_flight_total` is 0, so every request would be refused: set it to at least 1",
            ),
            BuildProblem::ZeroLimit { setting } => write!(
                f,
                "`{setting}` is 0, so everything it bounds would be refused: set it to at least 1"
            ),
            BuildProblem::UnusableHost { setting, value } => {
                let form = if *setting == "HostPolicy::allow" {
                    "a host name or IP address with an optional port, such as `mcp.example.com:443`"
                } else {
                    "a host name or IP address alone, such as `mcp.example.com` (its port is the server's)"
                };
                write!(
                    f,
                    "`{setting}(\"{value}\")` would match no request's Host: give {form}, without a scheme or a path"
                )
            }
            BuildProblem::ChangeBus { problem } => f.write_str(problem),
        }
    }
}

impl fmt::Debug for BuildProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A server stopped with an error.
#[non_exhaustive]
pub enum Error {
    /// The server's configuration is inconsistent.
    Build(BuildError),
    /// An I/O operation failed: reading from or writing to the transport, listening on an
    /// address (the message names it), or an `io::Error` of the program's own passed on with
    /// `?`.
    Io(io::Error),
    /// The program was started with arguments it cannot use.
    Usage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Build(error) => write!(f, "cannot start the MCP server: {error}"),
            Error::Io(error) => write!(f, "the MCP server stopped on an I/O error: {error}"),
            Error::Usage(problem) => f.write_str(problem),
        }
    }
}

// `main` returning `Result<(), Error>` prints the Debug form: make it the readable one.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Build(error) => Some(error),
            Error::Io(error) => Some(error),
            Error::Usage(_) => None,
        }
    }
}

impl From<BuildError> for Error {
    fn from(error: BuildError) -> Error {
        Error::Build(error)
    }
}

impl From<io::Error> for Error {
    fn from(error: io::Error) -> Error {
        Error::Io(error)
    }
}
