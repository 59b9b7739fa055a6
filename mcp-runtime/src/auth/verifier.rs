//! The verifier trait: how an access token becomes a [`Caller`], for schemes other than the
//! default [`JwtVerifier`](super::JwtVerifier) (opaque tokens checked by introspection, a
//! gateway's own tokens).

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use super::Caller;

/// Checks an access token and says whose it is.
///
/// The resource server calls it for every request, with the token of its `Authorization:
/// Bearer` header: it must check that the token is genuine, unexpired, and issued *for this
/// server* (its audience: the resource URI), and give the caller it names. Results may be
/// cached, for no longer than the token is valid.
///
/// ```
/// use mcp_runtime::auth::{TokenError, TokenVerifier};
/// use mcp_runtime::Caller;
/// use std::future::Future;
/// use std::pin::Pin;
///
/// /// One fixed token, for a test.
/// struct Fixed;
///
/// impl TokenVerifier for Fixed {
///     fn verify<'a>(
///         &'a self,
///         token: &'a str,
///     ) -> Pin<Box<dyn Future<Output = Result<Caller, TokenError>> + Send + 'a>> {
///         Box::pin(async move {
///             if token == "let-me-in" {
///                 Ok(Caller::new("tester", ["notes:write"], serde_json::Map::new()))
///             } else {
///                 Err(TokenError::invalid("unknown token"))
///             }
///         })
///     }
/// }
/// ```
pub trait TokenVerifier: Send + Sync + 'static {
    /// Verifies `token` (the text after `Bearer `).
    fn verify<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Caller, TokenError>> + Send + 'a>>;
}

/// Why a token was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    kind: TokenErrorKind,
    description: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TokenErrorKind {
    Invalid,
    Unavailable,
}

impl TokenError {
    /// The token is not valid here (forged, expired, for another resource, ...): the answer is
    /// `401` with `error="invalid_token"` and `description`, so the client gets a new token.
    pub fn invalid(description: impl Into<String>) -> TokenError {
        TokenError {
            kind: TokenErrorKind::Invalid,
            description: description.into(),
        }
    }

    /// The token could not be checked now (the issuer's keys or its introspection endpoint
    /// cannot be reached): the answer is `503` with `Retry-After`, as a new token would not
    /// help.
    pub fn unavailable(description: impl Into<String>) -> TokenError {
        TokenError {
            kind: TokenErrorKind::Unavailable,
            description: description.into(),
        }
    }

    /// Whether the token could not be checked now, rather than found invalid.
    pub fn is_unavailable(&self) -> bool {
        self.kind == TokenErrorKind::Unavailable
    }

    /// What was wrong, for the client (sent in `error_description`).
    pub fn description(&self) -> &str {
        &self.description
    }
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

impl std::error::Error for TokenError {}
