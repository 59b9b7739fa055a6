//! Resources: the trait `#[mcp_resource]` implements, how a read's return value becomes
//! contents, URI templates, and the registry reads are routed through.

mod contents;
mod dynamic;
mod files;
mod registry;
mod supplied;
mod uri_template;

use std::future::Future;

pub use contents::{IntoResourceContents, ResourceReturns};
pub use dynamic::DynamicResource;
pub use files::{list_files, read_file, safe_join};
pub(crate) use registry::{ResourceCatalog, ResourceEntry, ResourceKind};
pub use supplied::SuppliedParam;
pub use uri_template::{TemplateError, UriTemplate};

use crate::args::{ArgumentSpecs, StringArgs};
use crate::context::Context;
use crate::handler_error::HandlerError;
use crate::protocol::{ResourceContents, ResourceDefinition};

/// An MCP resource, or a family of them behind a URI template.
///
/// `#[mcp_resource]` implements this for a zero-sized type named after the function, so
/// `server.resource::<gift_catalog>()` selects it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP resource",
    label = "not an MCP resource",
    note = "annotate a function with `#[mcp_resource(uri = \"...\")]` and pass the function's name here"
)]
pub trait Resource: 'static {
    /// The resource's URI, or its URI template.
    const URI: &'static str;

    /// The OAuth scopes an access token must grant to read the resource
    /// (`#[mcp_resource(scopes = [...])]`), checked over HTTP; none by default. See
    /// [`auth`](crate::auth).
    const SCOPES: &'static [&'static str] = &[];

    /// How long a client of revision 2026-07-28 may reuse what `resources/read` of this
    /// resource (or of any URI of this template) returns, its `ttlMs`
    /// (`#[mcp_resource(cache_ttl_ms = 60_000)]`); `None`, the default, leaves it to the
    /// server's [`CacheHints`](crate::CacheHints). The lists keep the server's hints.
    const CACHE_TTL: Option<std::time::Duration> = None;

    /// Who may share what `resources/read` of this resource returns, its `cacheScope`
    /// (`#[mcp_resource(cache_scope = "public")]`); `None`, the default, leaves it to the
    /// server's [`CacheHints`](crate::CacheHints).
    const CACHE_SCOPE: Option<crate::CacheScope> = None;

    /// Describes the resource (its template variables go to `specs`): called once when a
    /// server is built.
    fn definition(specs: &mut ArgumentSpecs) -> ResourceDefinition;

    /// Reads the resource at `uri`; `variables` holds the template's values.
    fn read(
        ctx: Context,
        uri: String,
        variables: StringArgs,
    ) -> impl Future<Output = Result<Vec<ResourceContents>, HandlerError>> + Send + 'static;
}
