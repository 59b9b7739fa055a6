//! Who calls the server, and what they may call: the authenticated [`Caller`] handlers can
//! take as a parameter, the scopes each handler needs (`#[mcp_tool(scopes = [...])]`), and, with the
//! `auth` feature, an OAuth 2.1 resource server for Streamable HTTP.
//!
//! The MCP authorization specification makes an HTTP server an OAuth 2.1 resource server
//! (RFC 9728 metadata, bearer tokens, RFC 8707 audiences) and leaves stdio to the environment:
//! a stdio server runs as the user who started it and checks nothing: scopes are not checked
//! there, and no `Caller` is supplied.
//!
//! With `HttpOptions::resource_server` (feature `auth`), every request to the endpoint needs an
//! access token in its `Authorization` header, verified by a `TokenVerifier` (`JwtVerifier` by
//! default, `IntrospectionVerifier` for opaque tokens: the issuer's published keys, `iss`, `aud`,
//! `exp`, `nbf`); a request without a valid one gets `401` with a `WWW-Authenticate` challenge
//! pointing to the metadata at `/.well-known/oauth-protected-resource`. A call to a handler
//! whose scopes the token does not grant gets `403` with `error="insufficient_scope"`.

pub(crate) mod caller;

use std::sync::Arc;

#[cfg(feature = "auth")]
mod backoff;
#[cfg(feature = "auth")]
mod challenge;
#[cfg(feature = "auth")]
mod fetch;
#[cfg(feature = "auth")]
mod introspection;
#[cfg(feature = "auth")]
mod jwks;
#[cfg(feature = "auth")]
mod jwt;
#[cfg(feature = "auth")]
mod metadata;
#[cfg(feature = "auth")]
mod resource_server;
#[cfg(feature = "auth")]
mod verified;
#[cfg(feature = "auth")]
mod verifier;

// At the crate root (with `Context` and `State`), its one public path.
use caller::Caller;

#[cfg(feature = "auth")]
pub(crate) use challenge::{authenticate, insufficient_scope, metadata_response};
#[cfg(feature = "auth")]
pub use introspection::IntrospectionVerifier;
#[cfg(feature = "auth")]
pub use jwt::JwtVerifier;
#[cfg(feature = "auth")]
pub use resource_server::{ResourceServer, UrlError};
#[cfg(feature = "auth")]
pub use verifier::{TokenError, TokenVerifier};

/// The scopes a handler needs: declared by its attribute (`Tool::SCOPES`), or given at run time
/// (`DynamicTool::scopes`).
#[derive(Clone, Debug)]
pub(crate) enum Scopes {
    Declared(&'static [&'static str]),
    Given(Arc<[String]>),
}

impl Scopes {
    pub(crate) fn is_empty(&self) -> bool {
        match self {
            Scopes::Declared(scopes) => scopes.is_empty(),
            Scopes::Given(scopes) => scopes.is_empty(),
        }
    }

    /// The scopes, in their order.
    pub(crate) fn to_vec(&self) -> Vec<&str> {
        match self {
            Scopes::Declared(scopes) => scopes.to_vec(),
            Scopes::Given(scopes) => scopes.iter().map(String::as_str).collect(),
        }
    }
}

/// One handler a message would run, and the scopes it needs (`server::needed_by`).
#[cfg_attr(not(feature = "http"), allow(dead_code))]
#[derive(Debug)]
pub(crate) struct Needed {
    /// The handler, for messages: "tool `write_note`".
    pub(crate) handler: String,
    pub(crate) scopes: Scopes,
}

/// Why `scope` is not an OAuth scope token (RFC 6749, section 3.3: printable ASCII but space,
/// `"` and `\`). The macros check declared scopes the same way at compile time.
pub(crate) fn scope_problem(scope: &str) -> Option<String> {
    if scope.is_empty() {
        return Some("a scope cannot be empty".to_owned());
    }
    scope
        .chars()
        .find(|&c| !matches!(c, '!' | '#'..='[' | ']'..='~'))
        .map(|bad| format!("{bad:?} cannot be part of scope {scope:?} (RFC 6749: printable ASCII but space, `\"` and `\\`)"))
}

/// Who the messages of one transport sink came from, as far as the transport knows.
#[derive(Clone, Debug)]
pub(crate) enum Authentication {
    /// The transport's peer is trusted as the user who started the server: stdio (the
    /// specification: stdio servers "retrieve credentials from the environment"), and the
    /// in-process test client. Scopes are not checked; no [`Caller`] is supplied.
    Local,
    /// A network peer the server checks no credentials of (HTTP without a resource server):
    /// a handler that needs scopes is refused.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    Anonymous,
    /// A network peer that presented a valid access token (or the test client, as one).
    Caller(Caller),
}

impl Authentication {
    /// Who owns what this peer opens (an HTTP session): the issuer and subject of its token;
    /// `None` for a peer no token names.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn owner(&self) -> Option<String> {
        match self {
            Authentication::Caller(caller) => {
                let claims = caller.claims();
                let issuer = claims.get("iss").and_then(|iss| iss.as_str()).unwrap_or("");
                // A token without `sub` names its client instead (introspection's
                // `client_id`): a client and a user of the same name are not one owner. (The
                // issuer is a URL or empty, so no user's owner begins with `client `.)
                Some(match claims.get("sub") {
                    Some(_) => format!("{issuer} {}", caller.subject()),
                    None => format!("client {issuer} {}", caller.subject()),
                })
            }
            Authentication::Local | Authentication::Anonymous => None,
        }
    }

    /// Why a handler that needs `scopes` may not run for this peer; `None` when it may.
    pub(crate) fn refuses(&self, handler: &str, scopes: &[&str]) -> Option<String> {
        if scopes.is_empty() {
            return None;
        }
        match self {
            Authentication::Local => None,
            Authentication::Anonymous => Some(format!(
                "{handler} needs the scope{} {}, and this server checks no access tokens: \
                 protect it with `HttpOptions::resource_server`",
                plural(scopes.len()),
                quoted(scopes)
            )),
            Authentication::Caller(caller) => {
                let missing = caller.missing(scopes);
                (!missing.is_empty()).then(|| {
                    format!(
                        "{handler} needs the scope{} {}, which the access token does not grant",
                        plural(missing.len()),
                        quoted(&missing)
                    )
                })
            }
        }
    }
}

/// Why the handler `name` of `kind`, which needs `scopes`, may not run for a request from
/// `authentication`; `None` when it may.
pub(crate) fn refused(
    authentication: &Authentication,
    kind: &str,
    name: &str,
    scopes: &Scopes,
) -> Option<String> {
    if scopes.is_empty() {
        return None;
    }
    authentication.refuses(&format!("{kind} `{name}`"), &scopes.to_vec())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `a`, `b` and `c`.
fn quoted(scopes: &[&str]) -> String {
    let quoted: Vec<String> = scopes.iter().map(|s| format!("`{s}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn caller(claims: Value) -> Authentication {
        let Value::Object(claims) = claims else {
            unreachable!("claims are an object")
        };
        Authentication::Caller(Caller::new("alice", ["s"], claims))
    }

    /// A user and a client of the same name, from the same issuer, own different sessions,
    /// tasks and sealed states (SECURITY.md, "Authorization").
    #[test]
    fn a_user_and_a_client_of_the_same_name_are_different_owners() {
        let user = caller(json!({"iss": "https://as", "sub": "alice"})).owner();
        let client = caller(json!({"iss": "https://as", "client_id": "alice"})).owner();
        assert_eq!(user.as_deref(), Some("https://as alice"));
        assert_ne!(user, client);
        let other_issuer = caller(json!({"iss": "https://other", "sub": "alice"})).owner();
        assert_ne!(user, other_issuer);
        assert_eq!(Authentication::Anonymous.owner(), None);
    }
}
