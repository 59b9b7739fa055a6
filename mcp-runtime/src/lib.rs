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
//! [`#[mcp_tool]`](macro@mcp_tool) leaves the function as it is (it stays callable and testable)
//! and registers it: its name, its doc comment as the description, each parameter's `///` as that
//! argument's description, an `inputSchema` generated from the parameter types and an
//! `outputSchema` from the return type. [`server!`] builds a server with every registered tool,
//! resource and prompt, introducing itself with your crate's name and version;
//! [`Server::builder`] starts an empty one to which they are added by name (`.tool::<add>()`).
//!
//! # Dependencies
//!
//! ```toml
//! [dependencies]
//! mcp-runtime = "0.1"                                 # features: see "Features" below
//! serde = { version = "1", features = ["derive"] }    # #[derive(Deserialize, Serialize)]
//! schemars = "1"                                      # #[derive(JsonSchema)]: 1.x, not 0.8
//! ```
//!
//! The [`prelude`] brings the names [`Deserialize`], [`Serialize`] and [`JsonSchema`] into
//! scope, but their derives expand to paths into the `serde` and `schemars` crates, so deriving
//! them on your own types needs those two dependencies (a function whose parameters and results
//! are `String`s and numbers needs neither). A type deriving schemars 0.8's `JsonSchema` is
//! refused with an error saying that schemars 1.x is needed. The code the macros generate needs
//! nothing besides `mcp-runtime`.
//!
//! `tokio` is needed only by code that uses it: [`ServerBuilder::run`] starts a runtime of its
//! own, and an `async fn` handler runs on it with no `tokio` dependency. A program with its own
//! `#[tokio::main]` (to call [`Server::serve_stdio`] or `Server::serve_http`) needs `tokio`
//! with `macros` and `rt-multi-thread` (and `net` for a `TcpListener`); handlers that sleep or
//! spawn need the features they use. `axum` is needed only to mount `Server::http_router` in
//! an app of your own, and must be axum 0.8, the version the router is built with: with axum 0.7
//! the app's `Router::nest` fails with `expected Router<_>, found Router` and the note "there are
//! multiple different versions of crate `axum` in the dependency graph".
//!
//! # Parameters
//!
//! A parameter whose type implements `serde::Deserialize` and `schemars::JsonSchema` is an
//! argument; `Option<T>` arguments are optional. A parameter whose type implements
//! [`FromContext`] is supplied by the runtime: [`Context`] (the request: id, revision, client,
//! a channel back to the client), [`State<T>`] (state given with
//! [`ServerBuilder::state`]) and [`Caller`] (who sent the request, over HTTP with an access
//! token: see [`auth`]). Which is which is decided by the type's traits, so type
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
//! # Compile time, and start-up
//!
//! Mistakes in one annotated function are compile errors on the offending tokens: an unknown
//! attribute key, an invalid name, a generic function or a `self` receiver, a parameter type
//! that is neither an argument nor supplied, a return type that cannot become a result, a URI
//! template that does not match the parameters. What one macro call cannot see is checked
//! when the server is built ([`ServerBuilder::build`], or [`ServerBuilder::run`] before it
//! serves), which fails with a [`BuildError`] listing every problem: two tools of one name in
//! different modules, a `State<T>` parameter with no [`ServerBuilder::state`] of that type, a
//! URI-template variable or prompt argument whose type is an argument but cannot be written as
//! a string (`Vec<String>`, a struct).
//!
//! ```
//! mod books {
//!     use mcp_runtime::prelude::*;
//!
//!     /// Searches the books.
//!     #[mcp_tool]
//!     pub fn search(title: String) -> String {
//!         format!("no book called {title}")
//!     }
//! }
//!
//! mod films {
//!     use mcp_runtime::prelude::*;
//!
//!     /// Searches the films.
//!     #[mcp_tool]
//!     pub fn search(title: String) -> String {
//!         format!("no film called {title}")
//!     }
//! }
//!
//! let built = mcp_runtime::Server::builder(mcp_runtime::server_info!())
//!     .tool::<books::search>()
//!     .tool::<films::search>()
//!     .build();
//! let error = built.err().expect("two tools named `search`");
//! // two tools have the name `search`: `..::books::search` and `..::films::search`; give one
//! // of them another name with #[mcp_tool(name = "...")], or build the server with only one
//! // of them (`Server::builder(..).tool::<...>()`)
//! assert!(error.to_string().starts_with("two tools have the name `search`"));
//! ```
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! /// The notes with all of these tags.
//! #[mcp_resource(uri = "notes://tagged/{tags}")]
//! fn tagged(tags: Vec<String>) -> String {
//!     tags.join(", ")
//! }
//!
//! let built = mcp_runtime::Server::builder(mcp_runtime::server_info!()).resource::<tagged>().build();
//! let error = built.err().expect("a list cannot come from one URI segment");
//! assert!(error.to_string().contains("`tags`"), "{error}");
//! ```
//!
//! # Resources
//!
//! [`#[mcp_resource]`](macro@mcp_resource) serves what a function returns at a URI: a fixed URI
//! is one resource (`resources/list`), a URI with `{variables}` is an RFC 6570 template
//! (`resources/templates/list`) whose variables are the function's parameters, each parsed from
//! the URI into its type.
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! /// The shop's opening hours.
//! #[mcp_resource(uri = "shop://hours", mime_type = "text/plain")]
//! fn hours() -> &'static str {
//!     "9:00 to 18:00, Monday to Saturday"
//! }
//!
//! /// One shelf of the shop, by number.
//! #[mcp_resource(uri = "shop://shelves/{number}", mime_type = "text/plain")]
//! fn shelf(number: u32) -> Result<String, HandlerError> {
//!     match number {
//!         1..=3 => Ok(format!("Shelf {number}: books")),
//!         _ => Err(HandlerError::not_found(format!("shop://shelves/{number}"))),
//!     }
//! }
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
//! #         .resource::<hours>()
//! #         .resource::<shelf>()
//! #         .build()
//! #         .unwrap();
//! #     let client = mcp_runtime::testing::TestClient::new(&server);
//! #     client.initialize().await.unwrap();
//! #     let read = client.request("resources/read", serde_json::json!({"uri": "shop://shelves/2"})).await.unwrap();
//! #     assert_eq!(read["contents"][0]["text"], "Shelf 2: books");
//! #     let missing = client.request("resources/read", serde_json::json!({"uri": "shop://shelves/9"})).await;
//! #     assert_eq!(missing.unwrap_err().code, -32002);
//! # }
//! ```
//!
//! A resource returns text, bytes (`Vec<u8>`, `&[u8]`, sent base64) or [`ResourceContents`]
//! (what [`IntoResourceContents`] covers, and what a [`DynamicResource`]'s reader returns), a
//! `Serialize` value (sent as JSON), an `Option` of these (`None`: not found), or a `Result` of
//! these. [`safe_join`],
//! [`read_file`] and [`list_files`] serve a folder without letting a URI escape it.
//!
//! # Prompts and completion
//!
//! [`#[mcp_prompt]`](macro@mcp_prompt) turns a function into a prompt whose parameters are its
//! arguments (they arrive as strings and are parsed into the parameter types). `#[complete(f)]`
//! on a parameter of a prompt or a resource template suggests values as the user types
//! (`completion/complete`): `f` takes the typed prefix, and optionally the
//! [`CompletionContext`] of the arguments already given, and returns candidates, which the
//! runtime filters by the prefix. An enum parameter completes from its values with no `f`.
//!
//! ```
//! use mcp_runtime::prelude::*;
//!
//! #[derive(Deserialize, JsonSchema)]
//! #[serde(rename_all = "lowercase")]
//! enum Tone { Playful, Formal }
//!
//! fn languages(_typed: &str) -> [&'static str; 3] {
//!     ["English", "French", "Portuguese"]
//! }
//!
//! /// A congratulation card.
//! #[mcp_prompt(title = "Congratulations")]
//! fn congratulate(
//!     /// Whom to congratulate.
//!     name: String,
//!     /// The tone of the card.
//!     tone: Tone,
//!     /// The language to write in.
//!     #[complete(languages)]
//!     language: Option<String>,
//! ) -> Vec<PromptMessage> {
//!     let tone = match tone { Tone::Playful => "playful", Tone::Formal => "formal" };
//!     let language = language.unwrap_or_else(|| "English".to_string());
//!     vec![PromptMessage::user(format!("Write a {tone} card for {name}, in {language}."))]
//! }
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).prompt::<congratulate>().build().unwrap();
//! #     let client = mcp_runtime::testing::TestClient::new(&server);
//! #     client.initialize().await.unwrap();
//! #     let got = client.request("prompts/get", serde_json::json!({"name": "congratulate", "arguments": {"name": "Ana", "tone": "playful"}})).await.unwrap();
//! #     assert_eq!(got["messages"][0]["content"]["text"], "Write a playful card for Ana, in English.");
//! #     let done = client.request("completion/complete", serde_json::json!({"ref": {"type": "ref/prompt", "name": "congratulate"}, "argument": {"name": "language", "value": "Po"}})).await.unwrap();
//! #     assert_eq!(done["completion"]["values"], serde_json::json!(["Portuguese"]));
//! # }
//! ```
//!
//! # Talking back while running
//!
//! A handler that takes a [`Context`] reports progress, logs to the client, notices
//! cancellation, asks the client's model ([`Context::sample`]), asks the user
//! ([`Context::elicit`]) and reads the client's roots ([`Context::list_roots`]); see
//! [`Context`] for an example of each.
//!
//! # State, and changing the lists while serving
//!
//! [`ServerBuilder::state`] gives a value every handler can take as a [`State<T>`] parameter.
//! [`ServerHandle`] (from [`Server::handle`], or [`Context::server`] inside a handler) adds and
//! removes tools, resources and prompts while the server runs, telling every client.
//!
//! # Transports
//!
//! [`ServerBuilder::run`] serves stdio, or Streamable HTTP when the program is started with
//! `--http ADDR` (with the `http` feature), each on a Tokio runtime of its own.
//! [`Server::serve_stdio`] speaks newline-delimited JSON on stdin/stdout from a runtime of
//! yours, keeping stdout for protocol messages only (stray prints go to stderr):
//!
//! ```no_run
//! use mcp_runtime::prelude::*;
//!
//! /// Says hello.
//! #[mcp_tool]
//! fn hello() -> &'static str {
//!     "Hello!"
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), mcp_runtime::Error> {
//!     let server = mcp_runtime::server!().build()?;
//!     server.serve_stdio().await // until stdin closes
//! }
//! ```
//!
//! With the `http` feature, `Server::serve_http` serves Streamable HTTP at `/mcp` on a
//! listener, and `Server::http_router` is the endpoint as an axum 0.8 `Router` to mount at any
//! path of an app of your own. Both take an `HttpOptions`: the `Host`/`Origin` values allowed
//! (`HostPolicy`, local forms by default), stateless mode, and the limits on what a client can
//! make the server hold, each with a default. Served on its own, the endpoint has `/health` and
//! `/ready` beside it and shuts down gracefully with `Server::serve_http_with_shutdown`.
//! Several instances behind a load balancer share change notifications and the legacy
//! sessions' stream events through Redis (`ServerBuilder::redis`, the `redis` feature) and the
//! keys that seal `requestState`
//! (`ServerBuilder::state_keys`); the README's "Several instances behind a load balancer" says
//! how.
//!
//! ```no_run
//! # #[cfg(feature = "http")]
//! # mod with_http {
//! use mcp_runtime::HttpOptions;
//! use mcp_runtime::prelude::*;
//!
//! /// Says hello.
//! #[mcp_tool]
//! fn hello() -> &'static str {
//!     "Hello!"
//! }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let server = mcp_runtime::server!().build()?;
//!     let options = HttpOptions::new().max_body_bytes(1024 * 1024);
//!     let app = axum::Router::new()
//!         .route("/health", axum::routing::get(|| async { "ok" }))
//!         .nest("/mcp", server.http_router(options));
//!     let listener = tokio::net::TcpListener::bind("127.0.0.1:8000").await?;
//!     axum::serve(listener, app).await?;
//!     // or, the endpoint alone at http://127.0.0.1:8000/mcp:
//!     // server.serve_http(listener, HttpOptions::new()).await?;
//!     Ok(())
//! }
//! # }
//! # fn main() {}
//! ```
//!
//! # Testing and debugging
//!
//! [`testing::TestClient`] drives a server in-process through the real protocol. Set
//! `MCP_TRACE=1` (or [`ServerBuilder::trace`]) to log every raw message to stderr. With the
//! `tracing` feature, `log_bridge::McpLogLayer` sends `tracing` events from inside handlers to
//! the client as log messages.
//!
//! # Features
//!
//! | feature | what it adds |
//! | --- | --- |
//! | (none) | the macros, the runtime, stdio, the in-process test client |
//! | `http` | Streamable HTTP: `Server::serve_http`, `Server::http_router`, `HttpOptions`, `HostPolicy` |
//! | `tracing` | `log_bridge::McpLogLayer`: `tracing` events in handlers become client log messages (install it with `tracing-subscriber` 0.3) |
//! | `auth` | an OAuth 2.1 resource server for Streamable HTTP: `HttpOptions::resource_server`, `auth::JwtVerifier` (includes `http`) |
//! | `tasks` | the tasks extension of revision 2026-07-28 ([`tasks`]): tools with `#[mcp_tool(task_support = ...)]` run as tasks, `tasks/get`, `tasks/update`, `tasks/cancel`; without it such a tool is refused when the server is built |
//! | `redis` | `ServerBuilder::redis`: change notifications shared by several instances through Redis, the legacy sessions' stream events for a resume on any instance, and (with `tasks`) the tasks of the tasks extension (and `--redis URL` for `ServerBuilder::run`) |

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

/// The README's examples, compiled (and run where they do not serve) by `cargo test`: the
/// README is the place without hidden lines, so what a user pastes is what is tested. Its
/// HTTP examples need the `http` and `auth` features, which `cargo test --workspace` turns on.
#[cfg(all(doctest, feature = "auth"))]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

// Every public item has one path: the crate root (plus the `prelude` glob, `testing`,
// `log_bridge`, `tasks` and `auth`, the resource server's pieces; its `Caller` is at the root);
// the other modules below are private.
mod args;
pub mod auth;
#[doc(hidden)]
pub mod __internals {
    //! See `internals`.
    pub use crate::internals::*;
}
mod base64;
mod catalog;
mod completion;
mod context;
mod error;
mod handler;
mod handler_error;
mod internals;
#[cfg(any(feature = "http", feature = "tasks"))]
mod issued_id;
mod jsonrpc;
mod limit_log;
#[cfg(feature = "tracing")]
#[cfg_attr(docsrs, doc(cfg(feature = "tracing")))]
pub mod log_bridge;
mod longest_duration;
mod named_thread;
mod outbound;
mod prompt;
mod protocol;
#[cfg(feature = "redis")]
mod redis_link;
mod resource;
mod run;
mod schema;
mod sealed_state;
mod server;
mod sharded;
mod sort_order;
mod state_map;
mod stderr;
mod substring;
mod suggest;
pub mod tasks;
pub mod testing;
mod tool;
mod transport;

pub use args::{ArgumentSpec, ArgumentSpecs, StringArgs};
pub use auth::caller::Caller;
pub use completion::{Candidates, CompleteFn, Completer, CompletionContext};
pub use context::{
    ClientError, Context, Elicitation, LoggingLevel, Root, SamplingRequest, SamplingResponse,
    Shareable, State, UrlElicitation,
};
pub use error::{BuildError, BuildProblem, Error};
pub use handler::{FromContext, Requirements};
pub use handler_error::HandlerError;
pub use jsonrpc::{ErrorCode, RequestId, RpcError};
pub use prompt::{IntoPromptResult, Prompt};
pub use protocol::{
    Annotations, AudioContent, CacheHints, CacheScope, CallToolResult, ClientInfo, Content,
    EmbeddedResource, GetPromptResult, ImageContent, Implementation, OutputSchema,
    PromptDefinition, PromptMessage, ReadResourceResult, ResourceContents, ResourceDefinition,
    ResourceLink, Revision, Role, TextContent, ToolAnnotations, ToolDefinition,
};
pub use resource::{
    DynamicResource, IntoResourceContents, Resource, list_files, read_file, safe_join,
};
pub use sealed_state::{StateKeys, StateKeysError};
pub use server::{Server, ServerBuilder, ServerHandle};
pub use tool::{Arguments, DynamicTool, InputSchema, IntoToolResult, Tool};
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
pub use transport::http::{HostPolicy, HttpOptions};

/// Turns a function into an MCP tool.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Adds two numbers.
/// #[mcp_tool(read_only)]
/// fn add(
///     /// The first number.
///     a: i64,
///     /// The second number.
///     b: i64,
/// ) -> String {
///     (a + b).to_string()
/// }
///
/// assert_eq!(add(2, 3), "5"); // the function is unchanged
/// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<add>().build()?;
/// # drop(server);
/// # Ok::<(), mcp_runtime::BuildError>(())
/// ```
///
/// # Arguments in HTTP headers
///
/// `#[header("Name")]` on a parameter mirrors the argument into the `Mcp-Param-Name` HTTP
/// header of revision 2026-07-28 (`"x-mcp-header": "Name"` in its schema), so that proxies and
/// gateways can route on it without reading the body. Only strings, integers and booleans
/// (and `Option`s of them) can be mirrored, each under a name that is an HTTP token, unique
/// within the tool: mistakes are compile errors. The server checks each mirrored argument
/// against its header on every such request (400 with -32020 when they disagree).
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Starts a job in a region.
/// #[mcp_tool]
/// fn start_job(
///     /// Where to run.
///     #[header("Region")]
///     region: String,
/// ) -> String {
///     format!("started in {region}")
/// }
/// # let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<start_job>().build().unwrap();
/// # drop(server);
/// ```
///
/// # What it generates
///
/// The function as written, a same-named struct beside it (in the type namespace, so both
/// exist: the struct is what `.tool::<add>()` names), a [`Tool`] impl and a
/// registration that [`server!`](crate::server!) collects. Without the macro, the tool above
/// is (in spirit: the generated code goes through `mcp_runtime::__private`, collects every
/// faulty argument, and caches the `outputSchema` of a structured result):
///
/// ```
/// use mcp_runtime::{Arguments, CallToolResult, Context, InputSchema, IntoToolResult};
/// use mcp_runtime::{Tool, ToolAnnotations, ToolDefinition};
///
/// /// Adds two numbers.
/// fn add(a: i64, b: i64) -> String {
///     (a + b).to_string()
/// }
///
/// #[allow(non_camel_case_types)]
/// struct add {}
///
/// impl Tool for add {
///     const NAME: &'static str = "add";
///
///     fn definition(schema: &mut InputSchema) -> ToolDefinition {
///         schema.add::<i64>("a", Some("The first number."));
///         schema.add::<i64>("b", Some("The second number."));
///         ToolDefinition {
///             name: "add".into(),
///             title: None,
///             description: Some("Adds two numbers.".into()),
///             input_schema: schema.finish(),
///             output_schema: None, // from the return type, for a structured result
///             annotations: ToolAnnotations { read_only_hint: Some(true), ..Default::default() },
///         }
///     }
///
///     async fn call(_ctx: Context, mut args: Arguments) -> CallToolResult {
///         // A `Context` or `State<T>` parameter would be taken from `_ctx` instead.
///         match (args.decode::<i64>("a"), args.decode::<i64>("b")) {
///             (Ok(a), Ok(b)) => add(a, b).into_tool_result(),
///             (Err(e), _) | (_, Err(e)) => CallToolResult::error(e),
///         }
///     }
/// }
/// // ... and `inventory::submit!` of the tool, for `server!()`.
/// # let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<add>().build()?;
/// # tokio::runtime::Runtime::new()?.block_on(async {
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let result = client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await.unwrap();
/// #     assert_eq!(result.content[0].as_text(), Some("5"));
/// # });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Attribute keys
///
pub use mcp_macros::mcp_tool;

/// Turns a function into an MCP resource, or a family of resources behind a URI template.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// The shop's opening hours.
/// #[mcp_resource(uri = "shop://hours", mime_type = "text/plain")]
/// fn hours() -> &'static str {
///     "9:00 to 18:00"
/// }
///
/// /// One shelf of the shop.
/// #[mcp_resource(uri = "shop://shelves/{number}")]
/// fn shelf(number: u32) -> String {
///     format!("Shelf {number}")
/// }
///
/// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
///     .resource::<hours>()
///     .resource::<shelf>()
///     .build()?;
/// # drop(server);
/// # Ok::<(), mcp_runtime::BuildError>(())
/// ```
///
/// # What it generates
///
/// As for [`mcp_tool`]: the function as written, a same-named struct, a
/// [`Resource`] impl and a registration. Without the macro, `hours` is (in
/// spirit):
///
/// ```
/// use mcp_runtime::{ArgumentSpecs, Context, HandlerError, IntoResourceContents, Resource};
/// use mcp_runtime::{ResourceContents, ResourceDefinition, StringArgs};
///
/// /// The shop's opening hours.
/// fn hours() -> &'static str {
///     "9:00 to 18:00"
/// }
///
/// #[allow(non_camel_case_types)]
/// struct hours {}
///
/// impl Resource for hours {
///     const URI: &'static str = "shop://hours";
///
///     fn definition(_variables: &mut ArgumentSpecs) -> ResourceDefinition {
///         // A template's variables are added to `_variables`, as a tool's arguments are.
///         ResourceDefinition {
///             uri: "shop://hours".into(),
///             is_template: false,
///             name: "hours".into(),
///             title: None,
///             description: Some("The shop's opening hours.".into()),
///             mime_type: Some("text/plain".into()),
///             size: None,
///             annotations: None,
///         }
///     }
///
///     async fn read(
///         _ctx: Context,
///         uri: String,
///         _variables: StringArgs, // a template's values, decoded with `_variables.decode::<u32>("number")`
///     ) -> Result<Vec<ResourceContents>, HandlerError> {
///         Ok(hours().into_contents(&uri, Some("text/plain")))
///     }
/// }
/// // ... and `inventory::submit!` of the resource, for `server!()`.
/// # let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).resource::<hours>().build()?;
/// # tokio::runtime::Runtime::new()?.block_on(async {
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let read = client.request("resources/read", serde_json::json!({"uri": "shop://hours"})).await.unwrap();
/// #     assert_eq!(read["contents"][0]["text"], "9:00 to 18:00");
/// # });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Attribute keys
///
pub use mcp_macros::mcp_resource;

/// Turns a function into an MCP prompt.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Asks for a haiku.
/// #[mcp_prompt]
/// fn haiku(
///     /// What the haiku is about.
///     subject: String,
/// ) -> String {
///     format!("Write a haiku about {subject}.")
/// }
///
/// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).prompt::<haiku>().build()?;
/// # drop(server);
/// # Ok::<(), mcp_runtime::BuildError>(())
/// ```
///
/// # What it generates
///
/// As for [`mcp_tool`]: the function as written, a same-named struct, a
/// [`Prompt`] impl and a registration. Without the macro, `haiku` is (in
/// spirit):
///
/// ```
/// use mcp_runtime::{ArgumentSpecs, Context, GetPromptResult, HandlerError, IntoPromptResult};
/// use mcp_runtime::{Prompt, PromptDefinition, StringArgs};
///
/// /// Asks for a haiku.
/// fn haiku(subject: String) -> String {
///     format!("Write a haiku about {subject}.")
/// }
///
/// #[allow(non_camel_case_types)]
/// struct haiku {}
///
/// impl Prompt for haiku {
///     const NAME: &'static str = "haiku";
///
///     fn definition(arguments: &mut ArgumentSpecs) -> PromptDefinition {
///         arguments.add::<String>("subject", Some("What the haiku is about."), None);
///         PromptDefinition {
///             name: "haiku".into(),
///             title: None,
///             description: Some("Asks for a haiku.".into()),
///         }
///     }
///
///     async fn get(_ctx: Context, mut arguments: StringArgs) -> Result<GetPromptResult, HandlerError> {
///         let subject = arguments.decode::<String>("subject").map_err(HandlerError::invalid_params)?;
///         haiku(subject).into_prompt_result()
///     }
/// }
/// // ... and `inventory::submit!` of the prompt, for `server!()`.
/// # let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).prompt::<haiku>().build()?;
/// # tokio::runtime::Runtime::new()?.block_on(async {
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let got = client.request("prompts/get", serde_json::json!({"name": "haiku", "arguments": {"subject": "tea"}})).await.unwrap();
/// #     assert_eq!(got["messages"][0]["content"]["text"], "Write a haiku about tea.");
/// # });
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Attribute keys
///
pub use mcp_macros::mcp_prompt;

/// schemars 1.x's `JsonSchema` (the trait and its derive), re-exported so the prelude brings
/// the name into scope. `#[derive(JsonSchema)]` expands to paths into the `schemars` crate,
/// so deriving needs `schemars = "1"` in your `Cargo.toml` (schemars 0.8's trait is a
/// different one, and is refused); see [Dependencies](crate#dependencies).
pub use schemars::JsonSchema;
/// serde's `Deserialize` and `Serialize` (the traits and their derives), re-exported so the
/// prelude brings the names into scope. The derives expand to paths into the `serde` crate,
/// so deriving needs `serde = { version = "1", features = ["derive"] }` in your `Cargo.toml`;
/// see [Dependencies](crate#dependencies).
pub use serde::{Deserialize, Serialize};

/// The names a server program usually needs: `use mcp_runtime::prelude::*;`.
///
/// The macros, the values handlers take and return (with what a [`Context`] asks the client
/// and answers: [`ClientError`], [`Elicitation`], [`SamplingRequest`], and a completer's
/// [`CompletionContext`]), and the names of the derives `Deserialize`, `Serialize` and
/// `JsonSchema`. Deriving those on your own types also needs
/// `serde` (with feature `derive`) and `schemars` 1.x as dependencies: the derives expand to
/// paths into those crates (see [Dependencies](crate#dependencies)).
pub mod prelude {
    pub use crate::{
        CallToolResult, Caller, ClientError, CompletionContext, Content, Context, Deserialize,
        Elicitation, GetPromptResult, HandlerError, JsonSchema, PromptMessage, ResourceContents,
        SamplingRequest, Serialize, State, mcp_prompt, mcp_resource, mcp_tool,
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
        Absent, ArgumentSource, Convert, DescribedInPart, Direct, Failure, FromArguments,
        FromRequestContext, Param, Probe, Registration, Returns, Serialized, SerializedInPart,
        kinds,
    };
    pub use crate::handler_error::HandlerError;
    pub use crate::prompt::{IntoPromptResult, Prompt};
    pub use crate::protocol::{
        Annotations, CacheScope, CallToolResult, GetPromptResult, PromptDefinition,
        ResourceContents, ResourceDefinition, Role, ToolAnnotations, ToolDefinition,
    };
    pub use crate::resource::{Resource, ResourceReturns, SuppliedParam};
    pub use crate::tasks::TaskSupport;
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

    /// A parameter that may take `#[header("Name")]`: an argument mirrored into the
    /// `Mcp-Param-Name` HTTP header (revision 2026-07-28's `x-mcp-header`), which the
    /// specification allows only for strings, integers and booleans.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be mirrored into an HTTP header",
        label = "`#[header(...)]` needs a string, an integer or a boolean here",
        note = "the specification allows `x-mcp-header` only on `string`, `integer` and `boolean` arguments (`Option`s of them too); remove `#[header(...)]` or change the type"
    )]
    pub trait MirroredParam {
        /// Marks argument `name` of `specs` as mirrored into `Mcp-Param-<header>`.
        fn mirror(specs: &mut InputSchema, name: &str, header: &str) {
            specs.mirror(name, header);
        }
    }

    macro_rules! mirrored {
        ($($ty:ty),*) => { $(impl MirroredParam for $ty {})* };
    }
    mirrored!(
        String, bool, i8, i16, i32, i64, isize, u8, u16, u32, u64, usize
    );
    impl<T: MirroredParam> MirroredParam for Option<T> {}
}
