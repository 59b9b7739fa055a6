//! What a protected server says about itself and how it checks tokens: [`ResourceServer`],
//! given to [`HttpOptions::resource_server`](crate::HttpOptions::resource_server).

use std::fmt;
use std::sync::Arc;

use axum::http::Uri;
use serde_json::{Value, json};

use super::fetch::is_loopback;
use super::{JwtVerifier, TokenVerifier};

/// The path of the Protected Resource Metadata document (RFC 9728) at a host's root.
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// An OAuth 2.1 resource server: the MCP endpoint's canonical URI (the `resource`, which
/// tokens must name as their audience), the authorization servers that issue its tokens, the
/// scopes it knows, and the verifier that checks each token.
///
/// ```
/// use mcp_runtime::HttpOptions;
/// use mcp_runtime::auth::ResourceServer;
///
/// let protection = ResourceServer::jwt("https://auth.example.com", "https://mcp.example.com/mcp")?
///     .scopes_supported(["notes:read", "notes:write"]);
/// assert_eq!(
///     protection.metadata_url(),
///     "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// let options = HttpOptions::new().resource_server(protection);
/// # drop(options);
/// # Ok::<(), mcp_runtime::auth::UrlError>(())
/// ```
#[derive(Clone)]
pub struct ResourceServer {
    resource: String,
    metadata_path: String,
    metadata_url: String,
    authorization_servers: Vec<String>,
    scopes_supported: Vec<String>,
    verifier: Arc<dyn TokenVerifier>,
}

impl ResourceServer {
    /// A resource server at `resource` (the endpoint's canonical URI, such as
    /// `https://mcp.example.com/mcp`) accepting JWT access tokens that `issuer` signs for it,
    /// verified by a [`JwtVerifier`] with its defaults.
    pub fn jwt(issuer: &str, resource: &str) -> Result<ResourceServer, UrlError> {
        check_url("the issuer", issuer)?;
        let verifier = JwtVerifier::new(issuer, resource);
        ResourceServer::new(resource, issuer, verifier)
    }

    /// A resource server at `resource` whose tokens `authorization_server` issues and
    /// `verifier` checks (a [`JwtVerifier`] with settings of its own, or a verifier of another
    /// scheme).
    pub fn new(
        resource: &str,
        authorization_server: &str,
        verifier: impl TokenVerifier,
    ) -> Result<ResourceServer, UrlError> {
        let uri = check_url("the resource", resource)?;
        check_url("the authorization server", authorization_server)?;
        let path = uri.path().trim_end_matches('/');
        let metadata_path = format!("{WELL_KNOWN}{path}");
        let origin = format!(
            "{}://{}",
            uri.scheme_str().unwrap_or("https"),
            uri.authority().map_or("", |a| a.as_str())
        );
        Ok(ResourceServer {
            resource: resource.to_owned(),
            metadata_url: format!("{origin}{metadata_path}"),
            metadata_path,
            authorization_servers: vec![authorization_server.to_owned()],
            scopes_supported: Vec::new(),
            verifier: Arc::new(verifier),
        })
    }

    /// The scopes the server's handlers use, listed in the metadata (`scopes_supported`) for
    /// clients to ask for.
    #[must_use]
    pub fn scopes_supported<S: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = S>,
    ) -> ResourceServer {
        self.scopes_supported = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The resource URI: what tokens must name as their audience.
    pub fn resource(&self) -> &str {
        &self.resource
    }

    /// Where the metadata is served: `/.well-known/oauth-protected-resource` followed by the
    /// resource's path (RFC 9728, section 3.1), at the resource's origin.
    pub fn metadata_url(&self) -> &str {
        &self.metadata_url
    }

    /// Whether `path` is where the metadata is served: its path (RFC 9728, section 3.1), and
    /// the root form `/.well-known/oauth-protected-resource` too, which clients that do not
    /// follow the challenge's `resource_metadata` try.
    pub(crate) fn serves_metadata_at(&self, path: &str) -> bool {
        path == self.metadata_path || path == WELL_KNOWN
    }

    pub(crate) fn verifier(&self) -> &dyn TokenVerifier {
        &*self.verifier
    }

    /// The Protected Resource Metadata document (RFC 9728, section 2).
    pub fn metadata(&self) -> Value {
        let mut metadata = json!({
            "resource": self.resource,
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes_supported.is_empty() {
            metadata["scopes_supported"] = json!(self.scopes_supported);
        }
        metadata
    }

    /// An axum `Router` serving the metadata at its path, to merge at the root of an app that
    /// mounts [`Server::http_router`](crate::Server::http_router) at a path of its own
    /// (`serve_http` serves it already).
    pub fn metadata_router(&self) -> axum::Router {
        let server = self.clone();
        let metadata = axum::routing::get(move || {
            let server = server.clone();
            async move { super::metadata_response(&server) }
        });
        let router = axum::Router::new().route(WELL_KNOWN, metadata.clone());
        if self.metadata_path == WELL_KNOWN {
            return router;
        }
        router.route(&self.metadata_path, metadata)
    }
}

impl fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceServer")
            .field("resource", &self.resource)
            .field("authorization_servers", &self.authorization_servers)
            .field("scopes_supported", &self.scopes_supported)
            .finish_non_exhaustive()
    }
}

/// A URL a resource server cannot use, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlError {
    what: &'static str,
    url: String,
    why: &'static str,
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}` {}", self.what, self.url, self.why)
    }
}

impl std::error::Error for UrlError {}

impl From<UrlError> for crate::Error {
    fn from(error: UrlError) -> crate::Error {
        crate::Error::Usage(error.to_string())
    }
}

/// An absolute `https` URL without a fragment (RFC 8707, section 2), or `http` to this
/// machine.
fn check_url(what: &'static str, url: &str) -> Result<Uri, UrlError> {
    let error = |why| UrlError {
        what,
        url: url.to_owned(),
        why,
    };
    if url.contains('#') {
        return Err(error(
            "has a fragment, which a resource or issuer URL may not have",
        ));
    }
    let uri: Uri = url.parse().map_err(|_| error("is not a URL"))?;
    match (uri.scheme_str(), uri.host()) {
        (Some("https"), Some(_)) => Ok(uri),
        (Some("http"), Some(host)) if is_loopback(host) => Ok(uri),
        (Some("http"), Some(_)) => Err(error(
            "is plain http: use https (plain http is allowed only for localhost)",
        )),
        _ => Err(error("is not an absolute https URL")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_lives_under_the_resource_path() {
        let server =
            ResourceServer::jwt("https://auth.example.com", "https://mcp.example.com").unwrap();
        assert_eq!(
            server.metadata_url(),
            "https://mcp.example.com/.well-known/oauth-protected-resource"
        );
        let server =
            ResourceServer::jwt("https://auth.example.com", "http://127.0.0.1:8000/mcp").unwrap();
        assert!(server.serves_metadata_at("/.well-known/oauth-protected-resource/mcp"));
        assert!(server.serves_metadata_at("/.well-known/oauth-protected-resource"));
        assert!(!server.serves_metadata_at("/.well-known/oauth-protected-resource/other"));
        assert_eq!(
            server.metadata()["bearer_methods_supported"],
            json!(["header"])
        );
        assert_eq!(server.metadata()["resource"], "http://127.0.0.1:8000/mcp");
    }

    #[test]
    fn urls_a_resource_server_cannot_use_are_refused_saying_why() {
        let refused = |issuer, resource| {
            ResourceServer::jwt(issuer, resource)
                .unwrap_err()
                .to_string()
        };
        let ok = "https://mcp.example.com/mcp";
        assert!(refused("http://auth.example.com", ok).contains("plain http"));
        assert!(
            refused("https://auth.example.com", "https://mcp.example.com/mcp#x")
                .contains("fragment")
        );
        assert!(refused("auth.example.com", ok).contains("the issuer"));
        assert!(refused("https://auth.example.com", "/mcp").contains("the resource"));
    }
}
