//! Attribute macros of [`mcp-runtime`](https://docs.rs/mcp-runtime). Use them through its
//! re-exports (`mcp_runtime::mcp_tool`); the runtime's documentation describes what they do.
//!
//! Each macro parses its input (`attr`, `ast`), checks it (`check`), and expands it
//! (`expand`). The user's function is always emitted as written (minus its parameters' `///`
//! comments, which Rust does not accept there, and their `#[complete]` and `#[header]`
//! attributes, which are this crate's), even when there are errors, so one mistake gives one
//! message and the rest of the crate still type-checks.

mod ast;
mod attr;
mod check;
mod docs;
mod errors;
mod expand;
mod paths;
mod spans;

use proc_macro::TokenStream;

/// The keys of `#[mcp_tool(...)]`, all optional: `name = "..."` (the function's name by
/// default), `title = "..."`, `description = "..."` (the doc comment by default), the hints
/// `read_only`, `destructive`, `idempotent`, `open_world` (each optionally `= true/false`),
/// `task_support = "optional"` or `"required"` (its calls may run as tasks of the tasks
/// extension of revision 2026-07-28; see `mcp_runtime::tasks`), `scopes = [...]`, and
/// `crate = path::to::mcp_runtime` (for a renamed dependency; also taken in quotes, as serde's
/// `crate = "..."` is).
///
/// The function is a free function (not in an `impl` block: a client calls it with no
/// `self`). Its parameters' `///` comments describe the arguments; `#[complete(...)]` is not
/// for tools (MCP has no completion for tool arguments).
///
/// Beside the function the macro defines its handle, a type of the same name (what
/// `.tool::<greet>()` names). Like any type, it takes that name in the module's type namespace:
/// a function named like a module or a crate the module uses (`fn uuid` beside `uuid::Uuid`)
/// takes the name from it; give the tool that name with `name = "uuid"` and the function
/// another.
///
/// Use it as `mcp_runtime::mcp_tool` (or through `mcp_runtime::prelude`).
#[proc_macro_attribute]
pub fn mcp_tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::tool(attr.into(), item.into()).into()
}

/// The keys of `#[mcp_resource(...)]`: `uri = "..."` (required: a URI, or an RFC 6570
/// template whose variables are the function's parameters), and optionally `name`, `title`,
/// `description`, `mime_type`, `size`, `audience = "user" | "assistant" | "user, assistant"`,
/// `priority = 0.0..=1.0`, `cache_ttl_ms`, `cache_scope`, `scopes = [...]`, and
/// `crate = path::to::mcp_runtime`. `#[complete(function)]` on a parameter suggests values for
/// that template variable.
///
/// `cache_ttl_ms = 60_000` (whole milliseconds, 0 or more) and `cache_scope = "public"` (or
/// `"private"`) are the `ttlMs` and `cacheScope` a client of revision 2026-07-28 gets with
/// what `resources/read` of this resource returns (of any URI of it, for a template): how long
/// it may reuse the contents, and whether shared caches may keep them (`"public"`: the same
/// for every user) or only the client that asked (`"private"`). A key left out is the server's
/// (`ServerBuilder::cache_hints`); the lists always carry the server's hints. Both are checked
/// when the resource compiles: `cache_ttl_ms = -1`, `cache_ttl_ms = 1.5` or
/// `cache_scope = "shared"` is an error on the value.
///
/// Use it as `mcp_runtime::mcp_resource` (or through `mcp_runtime::prelude`).
#[proc_macro_attribute]
pub fn mcp_resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::resource(attr.into(), item.into()).into()
}

/// The keys of `#[mcp_prompt(...)]`, all optional: `name`, `title`, `description`,
/// `scopes = ["..."]` (the OAuth scopes a caller needs), and `crate = path::to::mcp_runtime`.
/// `#[complete(function)]` on a parameter suggests values for that argument.
///
/// Use it as `mcp_runtime::mcp_prompt` (or through `mcp_runtime::prelude`).
#[proc_macro_attribute]
pub fn mcp_prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::prompt(attr.into(), item.into()).into()
}
