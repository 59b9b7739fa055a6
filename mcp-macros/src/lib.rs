//! Attribute macros of [`mcp-runtime`](https://docs.rs/mcp-runtime). Use them through its
//! re-exports (`mcp_runtime::mcp_tool`); the runtime's documentation describes what they do.
//!
//! Each macro parses its input (`attr`, `ast`), checks it (`check`), and expands it
//! (`expand`). The user's function is always emitted as written (minus the `///` comments on
//! its parameters, which Rust does not accept there), even when there are errors, so one
//! mistake gives one message and the rest of the crate still type-checks.

mod ast;
mod attr;
mod check;
mod docs;
mod errors;
mod expand;
mod paths;
mod spans;

use proc_macro::TokenStream;

/// Turns a function into an MCP tool: see `mcp_runtime::mcp_tool` for an example and what
/// it generates.
///
/// The function is a free function (not in an `impl` block: a client calls it with no
/// `self`), and the expansion adds a same-named struct beside it, the handle a server
/// builder names.
///
/// Keys: `name = "..."`, `title = "..."`, `description = "..."`, the hints `read_only`,
/// `destructive`, `idempotent`, `open_world` (each optionally `= true/false`), and
/// `crate = path::to::mcp_runtime`.
#[proc_macro_attribute]
pub fn mcp_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(attr.into(), item.into()).into()
}

/// Turns a function into an MCP resource, or a family of resources behind a URI template:
/// see `mcp_runtime::mcp_resource` for an example and what it generates.
///
/// Keys: `uri = "..."` (required: a URI, or an RFC 6570 template whose variables are the
/// function's parameters), `name`, `title`, `description`, `mime_type`, `size`,
/// `audience = "user" | "assistant" | "user, assistant"`, `priority = 0.0..=1.0`, and
/// `crate = path::to::mcp_runtime`. `#[complete(function)]` on a parameter suggests values.
#[proc_macro_attribute]
pub fn mcp_resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::resource(attr.into(), item.into()).into()
}

/// Turns a function into an MCP prompt: see `mcp_runtime::mcp_prompt` for an example and
/// what it generates.
///
/// Keys: `name`, `title`, `description`, `crate = path::to::mcp_runtime`.
/// `#[complete(function)]` on a parameter suggests values.
#[proc_macro_attribute]
pub fn mcp_prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::prompt(attr.into(), item.into()).into()
}
