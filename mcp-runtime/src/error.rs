//! Errors a server program can meet: building the server, and serving.

use std::fmt;
use std::io;

/// A server could not be built: its configuration contradicts itself.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
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
    /// A tool, resource or prompt built at run time is malformed.
    InvalidDefinition {
        /// "tool", "prompt" or "resource".
        kind: &'static str,
        /// Its name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A page size of zero was configured.
    ZeroPageSize,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Duplicate {
                kind,
                name,
                first,
                second,
            } => {
                let key = if *kind == "resource" { "uri" } else { "name" };
                write!(
                    f,
                    "two {kind}s have the {key} `{name}`: `{first}` and `{second}`; give one of them another {key} with #[mcp_{kind}({key} = \"...\")], or build the server with only one of them (`Server::builder(..).{kind}::<...>()`)"
                )
            }
            BuildError::MissingState { handler, type_name } => write!(
                f,
                "{handler} takes `State<{type_name}>`, but the server was given no state of that type; add `.state(value)` to the server builder, with a `{type_name}` or an `Arc<{type_name}>`"
            ),
            BuildError::NotAStringArgument { handler, problem } => {
                write!(f, "{handler}: {problem}")
            }
            BuildError::InvalidUri { uri, problem } => {
                write!(f, "invalid resource URI `{uri}`: {problem}")
            }
            BuildError::InvalidDefinition {
                kind,
                name,
                problem,
            } => {
                write!(f, "invalid {kind} `{name}`: {problem}")
            }
            BuildError::ZeroPageSize => {
                f.write_str("the page size must be at least 1 (`ServerBuilder::page_size`)")
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

/// A server stopped with an error.
#[non_exhaustive]
pub enum Error {
    /// The server's configuration is inconsistent.
    Build(BuildError),
    /// Reading from or writing to the transport failed.
    Io(io::Error),
    /// The program was started with arguments it cannot use.
    Usage(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Build(error) => write!(f, "cannot start the MCP server: {error}"),
            Error::Io(error) => write!(f, "the MCP transport failed: {error}"),
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
