//! Write [Model Context Protocol](https://modelcontextprotocol.io) servers by annotating plain
//! Rust functions.
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! /// Adds two numbers.
//! #[mcp_tool(read_only)]
//! fn add(
//!     /// The first number.
//!     a: i64,
//!     /// The second number.
//!     b: i64,
//! ) -> String {
//!     (a + b).to_string()
//! }
//!
//! fn main() -> Result<(), mcp_runtime::Error> {
//! #   if true {
//! #       // In the doctest, talk to the server in-process instead of blocking on stdin.
//! #       let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<add>().build()?;
//! #       let runtime = tokio::runtime::Runtime::new()?;
//! #       return runtime.block_on(async {
//! #           let client = mcp_runtime::testing::TestClient::new(&server);
//! #           client.initialize().await.unwrap();
//! #           let result = client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await.unwrap();
//! #           assert_eq!(result.content[0].as_text(), Some("5"));
//! #           Ok(())
//! #       });
//! #   }
//!     mcp_runtime::server!().run() // stdio, or HTTP with `--http ADDR`
//! }
//! ```
//!
//! `#[mcp_tool]` leaves the function as it is (it stays callable and testable) and registers
//! it: its name, its doc comment as the description, each parameter's `///` as that
//! argument's description, an `inputSchema` generated from the parameter types and an
//! `outputSchema` from the return type. [`server!`] builds a server with every registered
//! tool, introducing itself with your crate's name and version; [`Server::builder`] starts an
//! empty one to which tools are added by name (`.tool::<add>()`).
//!
//! # Parameters
//!
//! A parameter whose type implements `serde::Deserialize` and `schemars::JsonSchema` is an
//! argument; `Option<T>` arguments are optional. A parameter whose type implements
//! [`FromContext`] is supplied by the runtime: [`Context`] (the request: id, revision, client,
//! a channel back to the client) and [`State<T>`] (state given with
//! [`ServerBuilder::state`]). Which is which is decided by the type's traits, so type
//! aliases and wrappers work.
//!
//! # Results
//!
//! `String`/`&str` become a text block; [`Content`], `Vec<Content>` and [`CallToolResult`]
//! pass through; any other `Serialize + JsonSchema` type becomes `structuredContent` with an
//! `outputSchema`, plus the same JSON as text. `Result<T, E>` with `E: Display` turns `Err`
//! into a result with `isError: true` carrying the message, for the model to read.
//! Arguments that fail to decode also give an `isError` result naming each argument.
//!
//! # Transports and testing
//!
//! [`ServerBuilder::run`] serves stdio, or Streamable HTTP with `--http ADDR`;
//! [`Server::serve_stdio`] speaks newline-delimited JSON on stdin/stdout, keeping stdout for
//! protocol messages only (stray prints go to stderr). [`testing::TestClient`] drives a server
//! in-process through the real protocol. Set `MCP_TRACE=1` to log every raw message.

#![warn(missing_docs)]

// Every public item has one path: the crate root (plus the `prelude` glob, `testing` and
// `log_bridge`); the modules below are private.
mod args;
#[doc(hidden)]
pub mod __internals {
    //! See `internals`.
    pub use crate::internals::*;
}
mod catalog;
mod completion;
mod context;
mod error;
mod handler;
mod handler_error;
mod internals;
mod jsonrpc;
mod limit_log;
#[cfg(feature = "tracing")]
pub mod log_bridge;
mod prompt;
mod protocol;
mod resource;
mod schema;
mod server;
mod sharded;
pub mod testing;
mod tool;
mod transport;

pub use args::{ArgumentSpec, ArgumentSpecs, StringArgs};
pub use completion::{CompleteFn, Completer, CompletionContext};
pub use context::{
    ClientError, Context, Elicitation, LoggingLevel, Root, SamplingRequest, SamplingResponse,
    Shareable, State, UrlElicitation,
};
pub use error::{BuildError, BuildProblem, Error};
pub use handler::{FromContext, Requirements};
pub use handler_error::HandlerError;
pub use jsonrpc::{ErrorCode, RequestId, RpcError};
pub use mcp_macros::{mcp_prompt, mcp_resource, mcp_tool};
pub use prompt::{IntoPromptResult, Prompt};
pub use protocol::{
    Annotations, AudioContent, CallToolResult, ClientInfo, Content, EmbeddedResource,
    GetPromptResult, ImageContent, Implementation, PromptDefinition, PromptMessage,
    ReadResourceResult, ResourceContents, ResourceDefinition, ResourceLink, Revision, Role,
    TextContent, ToolAnnotations, ToolDefinition,
};
pub use resource::{IntoResourceContents, Resource, list_files, read_file, safe_join};
pub use server::{Server, ServerBuilder, ServerHandle};
pub use tool::{Arguments, DynamicTool, InputSchema, IntoToolResult, Tool};
#[cfg(feature = "http")]
pub use transport::http::{HostPolicy, HttpOptions};

/// Re-exported for deriving on argument and result types.
pub use schemars::JsonSchema;
/// Re-exported for deriving on argument and result types.
pub use serde::{Deserialize, Serialize};

/// The names a server program usually needs: `use mcp_runtime::prelude::*;`.
pub mod prelude {
    pub use crate::{
        CallToolResult, Content, Context, Deserialize, GetPromptResult, HandlerError, JsonSchema,
        PromptMessage, ResourceContents, Serialize, State, mcp_prompt, mcp_resource, mcp_tool,
    };
}

/// The `serverInfo` of the crate this is written in: its Cargo package name and version.
#[macro_export]
macro_rules! server_info {
    () => {
        $crate::Implementation::new(
            ::core::env!("CARGO_PKG_NAME"),
            ::core::env!("CARGO_PKG_VERSION"),
        )
    };
}

/// A [`ServerBuilder`] with every tool, resource and prompt of the program, introducing itself with the
/// calling crate's name and version.
#[macro_export]
macro_rules! server {
    () => {
        $crate::Server::builder($crate::server_info!()).registered()
    };
}

/// What code generated by the macros refers to (`mcp-macros/src/paths.rs` lists each use),
/// and the traits those items' bounds name. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use inventory;

    pub use crate::args::{ArgumentSpecs, StringArgs};
    pub use crate::completion::CompleteFn;
    pub use crate::context::Context;
    pub use crate::handler::{
        ArgumentSource, Convert, Direct, Failure, FromArguments, FromRequestContext, Param, Probe,
        Registration, Returns, Serialized, kinds,
    };
    pub use crate::handler_error::HandlerError;
    pub use crate::prompt::{IntoPromptResult, Prompt};
    pub use crate::protocol::{
        Annotations, CallToolResult, GetPromptResult, PromptDefinition, ResourceContents,
        ResourceDefinition, Role, ToolAnnotations, ToolDefinition,
    };
    pub use crate::resource::{Resource, ResourceReturns, SuppliedParam};
    pub use crate::tool::{ArgErrors, Arguments, InputSchema, OutputCache, Tool, ToolReturns};

    /// A parameter that may take `#[complete(...)]`: an argument the client sends as a string.
    /// Generated code calls [`CompletedParam::check`] spanned on the attribute, so a completer
    /// on a value the runtime supplies is reported there, not on the (legal) parameter.
    #[diagnostic::on_unimplemented(
        message = "`#[complete(...)]` suggests values for an argument the client sends as a string, and `{Self}` is not one",
        label = "remove this `#[complete(...)]`",
        note = "`Context`, `State<T>` and other values the runtime supplies have no values to suggest"
    )]
    pub trait CompletedParam {
        /// Compiles when `Self` may be completed (the marker carries the attribute's span).
        fn check(_: core::marker::PhantomData<Self>) {}
    }

    #[diagnostic::do_not_recommend]
    impl<T: Param<StringArgs, FromArguments>> CompletedParam for T {}
}
