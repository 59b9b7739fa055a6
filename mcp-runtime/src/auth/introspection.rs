//! Opaque access tokens, checked by asking the authorization server that issued them (token
//! introspection, RFC 7662).

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::http::Uri;
use serde_json::{Map, Value};

use super::Caller;
use super::fetch::{FetchLimits, Fetcher};
use super::verifier::{TokenError, TokenVerifier};

/// Verifies access tokens by introspection (RFC 7662): for tokens the resource server cannot
/// read itself (opaque ones), it asks the issuer's `introspection_endpoint` (found through the
/// issuer's metadata), authenticating as a client of the issuer (`client_secret_basic`).
///
/// A token is accepted when the issuer says it is `active`, its `iss` (when given) is the
/// issuer, its `aud` names this server's resource URI (RFC 8707: required, as the resource
/// server must check the audience), `exp` and `nbf` (when given) hold within a leeway (60 s),
/// and it names a subject (`sub`, or for a client credentials token without one, `client_id`).
/// Its scopes are read from `scope`.
///
/// Every request is introspected (nothing is cached, so a revoked token is refused at once); a
/// call takes at most 10 s ([`fetch_timeout`](Self::fetch_timeout)) and 256 KiB. When the
/// issuer cannot be reached, the request gets `503` (the token could not be checked) rather
/// than `401`.
///
/// ```
/// use mcp_runtime::auth::{IntrospectionVerifier, ResourceServer};
///
/// let resource = "https://mcp.example.com/mcp";
/// let verifier = IntrospectionVerifier::new(
///     "https://auth.example.com",
///     resource,
///     "mcp-server",
///     "its client secret",
/// );
/// let protection = ResourceServer::new(resource, "https://auth.example.com", verifier)?;
/// # drop(protection);
/// # Ok::<(), mcp_runtime::auth::UrlError>(())
/// ```
pub struct IntrospectionVerifier {
    issuer: String,
    audience: String,
    /// `Basic` and the client's credentials (RFC 6749, section 2.3.1).
    authorization: String,
    leeway: Duration,
    fetcher: Fetcher,
    /// The introspection endpoint, once found.
    endpoint: tokio::sync::OnceCell<Uri>,
}

impl IntrospectionVerifier {
    /// A verifier asking `issuer` about tokens for `audience` (this server's resource URI),
    /// as its client `client_id` with `client_secret`.
    pub fn new(
        issuer: impl Into<String>,
        audience: impl Into<String>,
        client_id: &str,
        client_secret: &str,
    ) -> IntrospectionVerifier {
        let credentials = format!(
            "{}:{}",
            form_encoded(client_id),
            form_encoded(client_secret)
        );
        IntrospectionVerifier {
            issuer: issuer.into(),
            audience: audience.into(),
            authorization: format!(
                "Basic {}",
                crate::protocol::base64_encode(credentials.as_bytes())
            ),
            leeway: Duration::from_secs(60),
            fetcher: Fetcher::new(LIMITS),
            endpoint: tokio::sync::OnceCell::new(),
        }
    }

    /// How far `exp` and `nbf` may be off (60 s by default).
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> IntrospectionVerifier {
        self.leeway = leeway;
        self
    }

    /// How long one call to the issuer may take (10 s by default).
    #[must_use]
    pub fn fetch_timeout(mut self, timeout: Duration) -> IntrospectionVerifier {
        self.fetcher = Fetcher::new(FetchLimits { timeout, ..LIMITS });
        self
    }

    async fn check(&self, token: &str) -> Result<Caller, TokenError> {
        let unavailable = |why: String| {
            static LOG: crate::limit_log::LimitLog = crate::limit_log::LimitLog::new();
            LOG.hit(|| format!("token introspection failed: {why}"));
            TokenError::unavailable("the issuer cannot be asked about the token now")
        };
        let endpoint = self
            .endpoint
            .get_or_try_init(|| {
                super::metadata::endpoint(&self.fetcher, &self.issuer, "introspection_endpoint")
            })
            .await
            .map_err(unavailable)?;
        let body = format!("token={}&token_type_hint=access_token", form_encoded(token));
        let answer = self
            .fetcher
            .post_form(endpoint, &self.authorization, body)
            .await
            .map_err(unavailable)?;
        let Value::Object(claims) = answer else {
            return Err(unavailable(
                "the introspection answer is not an object".into(),
            ));
        };
        match claims.get("error").and_then(Value::as_str) {
            // Tokens the issuer does not introspect (its own JWTs, for one) are none of ours.
            Some("unsupported_token_type" | "invalid_token") => Err(TokenError::invalid(
                "the issuer does not know the token as one it introspects",
            )),
            // The server's own credentials or request: nothing the client can mend.
            Some(error) => Err(unavailable(format!(
                "the introspection endpoint refused the request: {error}"
            ))),
            None => self.judge(claims),
        }
    }

    /// The caller an introspection answer names, or why the token is refused.
    fn judge(&self, claims: Map<String, Value>) -> Result<Caller, TokenError> {
        if claims.get("active") != Some(&Value::Bool(true)) {
            return Err(TokenError::invalid(
                "the token is not active (expired, revoked, or unknown to the issuer)",
            ));
        }
        if let Some(issuer) = claims.get("iss")
            && issuer.as_str() != Some(self.issuer.as_str())
        {
            return Err(TokenError::invalid(
                "the token was issued by another issuer",
            ));
        }
        let for_us = match claims.get("aud") {
            Some(Value::String(audience)) => *audience == self.audience,
            Some(Value::Array(audiences)) => audiences
                .iter()
                .any(|audience| audience.as_str() == Some(self.audience.as_str())),
            _ => false,
        };
        if !for_us {
            return Err(TokenError::invalid(
                "the token was issued for another resource (its `aud` does not name this server)",
            ));
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |now| now.as_secs());
        let leeway = self.leeway.as_secs();
        let time = |name: &str| claims.get(name).and_then(Value::as_u64);
        if time("exp").is_some_and(|exp| exp.saturating_add(leeway) < now) {
            return Err(TokenError::invalid("the token has expired"));
        }
        if time("nbf").is_some_and(|nbf| nbf > now.saturating_add(leeway)) {
            return Err(TokenError::invalid("the token is not valid yet (`nbf`)"));
        }
        let subject = claims
            .get("sub")
            .or_else(|| claims.get("client_id"))
            .and_then(Value::as_str)
            .ok_or_else(|| TokenError::invalid("the token names no subject"))?
            .to_owned();
        let scopes: Vec<String> = claims
            .get("scope")
            .and_then(Value::as_str)
            .map(|scopes| scopes.split_whitespace().map(str::to_owned).collect())
            .unwrap_or_default();
        Ok(Caller::new(subject, scopes, claims))
    }
}

/// The bounds of one call to the issuer, by default.
const LIMITS: FetchLimits = FetchLimits {
    timeout: Duration::from_secs(10),
    max_bytes: 256 * 1024,
};

/// `text` encoded for an `application/x-www-form-urlencoded` body.
fn form_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl TokenVerifier for IntrospectionVerifier {
    fn verify<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Caller, TokenError>> + Send + 'a>> {
        Box::pin(self.check(token))
    }
}

impl std::fmt::Debug for IntrospectionVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntrospectionVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn judged(answer: Value) -> Result<String, String> {
        let verifier = IntrospectionVerifier::new("https://as", "https://rs/mcp", "rs", "s");
        let Value::Object(claims) = answer else {
            unreachable!()
        };
        verifier
            .judge(claims)
            .map(|caller| caller.subject().to_owned())
            .map_err(|e| e.description().to_owned())
    }

    #[test]
    fn only_an_active_token_for_this_resource_from_its_issuer_is_accepted() {
        let good = json!({"active": true, "iss": "https://as", "aud": ["https://rs/mcp"], "client_id": "app"});
        assert_eq!(judged(good.clone()), Ok("app".to_owned()));
        let with = |field: &str, value: Value| {
            let mut answer = good.clone();
            answer[field] = value;
            judged(answer).unwrap_err()
        };
        assert!(with("active", json!(false)).contains("not active"));
        assert!(with("active", json!("true")).contains("not active"));
        assert!(with("iss", json!("https://other")).contains("another issuer"));
        assert!(with("aud", json!("https://other/mcp")).contains("another resource"));
        assert!(with("aud", Value::Null).contains("another resource"));
        assert!(with("exp", json!(1)).contains("expired"));
        assert!(with("nbf", json!(u64::MAX / 2)).contains("not valid yet"));
        let mut no_subject = good.clone();
        no_subject.as_object_mut().unwrap().remove("client_id");
        assert!(judged(no_subject).unwrap_err().contains("no subject"));
        let mut with_subject = good.clone();
        with_subject["sub"] = json!("ana");
        assert_eq!(
            judged(with_subject),
            Ok("ana".to_owned()),
            "`sub` comes first"
        );
    }
}
