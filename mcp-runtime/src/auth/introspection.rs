//! Opaque access tokens, checked by asking the authorization server that issued them (token
//! introspection, RFC 7662).

use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::http::Uri;
use serde_json::{Map, Value};
use tokio::sync::Semaphore;

use super::Caller;
use super::backoff::Failing;
use super::fetch::{FetchLimits, Fetcher};
use super::verifier::{TokenError, TokenVerifier};
use crate::longest_duration::at_most_a_year;

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
/// What clients' tokens make the server ask of the issuer is bounded: at most 32 calls at once
/// ([`max_concurrent_calls`](Self::max_concurrent_calls)), a token beyond waiting for a place
/// for as long as a call may take and then getting `503`; so a flood of made-up tokens costs
/// the issuer 32 calls in flight, not one per request. The introspection endpoint is looked up
/// once, in the issuer's metadata; after a failed look-up the next waits 1 s, doubling up to
/// 30 s, and the requests arriving meanwhile get `503` at once.
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
    endpoint: OnceLock<Uri>,
    /// Held while looking the endpoint up, with the look-ups that failed in a row.
    discovery: tokio::sync::Mutex<Option<Failing>>,
    /// A place for each call to the issuer that may be in flight.
    calls: Semaphore,
    max_calls: usize,
}

/// Calls to the issuer in flight at once, by default.
const MAX_CONCURRENT_CALLS: usize = 32;

/// The longest wait after failed look-ups of the endpoint.
const LONGEST_RETRY: Duration = Duration::from_secs(30);

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
            endpoint: OnceLock::new(),
            discovery: tokio::sync::Mutex::new(None),
            calls: Semaphore::new(MAX_CONCURRENT_CALLS),
            max_calls: MAX_CONCURRENT_CALLS,
        }
    }

    /// How many calls to the issuer may be in flight at once (32 by default, at least 1): a
    /// request whose token finds them all taken waits for a place as long as a call may take
    /// ([`fetch_timeout`](Self::fetch_timeout)), then gets `503`.
    #[must_use]
    pub fn max_concurrent_calls(mut self, calls: usize) -> IntrospectionVerifier {
        let calls = calls.clamp(1, Semaphore::MAX_PERMITS);
        self.calls = Semaphore::new(calls);
        self.max_calls = calls;
        self
    }

    /// How far `exp` and `nbf` may be off (60 s by default; a year at most).
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> IntrospectionVerifier {
        self.leeway = at_most_a_year(leeway);
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
        let endpoint = self.endpoint().await?;
        let Ok(Ok(_place)) =
            tokio::time::timeout(self.fetcher.timeout(), self.calls.acquire()).await
        else {
            let most = self.max_calls;
            static LOG: crate::limit_log::LimitLog = crate::limit_log::LimitLog::new();
            LOG.hit(|| {
                format!("{most} token introspections are in flight (IntrospectionVerifier::max_concurrent_calls): a request waited for a place as long as a call may take, and got 503")
            });
            return Err(TokenError::unavailable(
                "the issuer is asked about as many tokens as it may be at once: retry later",
            ));
        };
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

    /// The introspection endpoint, looked up in the issuer's metadata the first time (one
    /// look-up at a time; none while the wait after a failed one runs).
    async fn endpoint(&self) -> Result<&Uri, TokenError> {
        if let Some(endpoint) = self.endpoint.get() {
            return Ok(endpoint);
        }
        let mut failing = self.discovery.lock().await;
        if let Some(endpoint) = self.endpoint.get() {
            return Ok(endpoint);
        }
        let unavailable =
            || TokenError::unavailable("the issuer's introspection endpoint cannot be found now");
        if Failing::waiting(failing.as_ref()) {
            return Err(unavailable());
        }
        match super::metadata::endpoint(&self.fetcher, &self.issuer, "introspection_endpoint").await
        {
            Ok(endpoint) => {
                *failing = None;
                Ok(self.endpoint.get_or_init(|| endpoint))
            }
            Err(why) => {
                let next = Failing::after(failing.as_ref(), Instant::now(), LONGEST_RETRY);
                static LOG: crate::limit_log::LimitLog = crate::limit_log::LimitLog::new();
                LOG.hit(|| {
                    format!(
                        "looking up the issuer's introspection endpoint failed ({} in a row; the next attempt in {} s): {why}",
                        next.failures,
                        next.seconds_left()
                    )
                });
                *failing = Some(next);
                Err(unavailable())
            }
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
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// What the issuer of [`issuer`] saw: its metadata fetches, its introspection calls, the
    /// most in flight at once; and a switch that makes its metadata answer `503` while on.
    #[derive(Default)]
    struct Seen {
        metadata: AtomicUsize,
        calls: AtomicUsize,
        in_flight: AtomicUsize,
        most_in_flight: AtomicUsize,
        metadata_down: AtomicBool,
    }

    /// An issuer on loopback whose introspection endpoint takes `delay` and says no token is
    /// active.
    async fn issuer(delay: Duration) -> (String, Arc<Seen>) {
        use axum::http::StatusCode;
        use axum::routing::{get, post};
        let seen = Arc::new(Seen::default());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let metadata = json!({
            "issuer": issuer,
            "introspection_endpoint": format!("{issuer}/introspect"),
        });
        let (at_metadata, at_calls) = (Arc::clone(&seen), Arc::clone(&seen));
        let app = axum::Router::new()
            .route(
                "/.well-known/oauth-authorization-server",
                get(move || async move {
                    at_metadata.metadata.fetch_add(1, Ordering::SeqCst);
                    if at_metadata.metadata_down.load(Ordering::SeqCst) {
                        return Err(StatusCode::SERVICE_UNAVAILABLE);
                    }
                    Ok(metadata.to_string())
                }),
            )
            .route(
                "/introspect",
                post(move || async move {
                    at_calls.calls.fetch_add(1, Ordering::SeqCst);
                    let now = at_calls.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    at_calls.most_in_flight.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(delay).await;
                    at_calls.in_flight.fetch_sub(1, Ordering::SeqCst);
                    r#"{"active": false}"#
                }),
            );
        tokio::spawn(async move { axum::serve(listener, app).await });
        (issuer, seen)
    }

    /// `count` made-up tokens checked at once: how many were refused as invalid, and how many
    /// could not be checked.
    async fn check_at_once(verifier: &Arc<IntrospectionVerifier>, count: usize) -> (usize, usize) {
        let checks: Vec<_> = (0..count)
            .map(|i| {
                let verifier = Arc::clone(verifier);
                tokio::spawn(async move { verifier.check(&format!("made-up-{i}")).await })
            })
            .collect();
        let (mut invalid, mut unavailable) = (0, 0);
        for check in checks {
            match check.await.unwrap() {
                Ok(_) => panic!("a made-up token was accepted"),
                Err(error) if error.is_unavailable() => unavailable += 1,
                Err(_) => invalid += 1,
            }
        }
        (invalid, unavailable)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_flood_of_made_up_tokens_costs_the_issuer_a_bounded_number_of_calls_at_once() {
        let (issuer, seen) = issuer(Duration::from_millis(50)).await;
        let verifier = Arc::new(
            IntrospectionVerifier::new(issuer, "https://rs/mcp", "rs", "s").max_concurrent_calls(4),
        );
        assert_eq!(check_at_once(&verifier, 40).await, (40, 0));
        assert_eq!(seen.calls.load(Ordering::SeqCst), 40);
        assert!(seen.most_in_flight.load(Ordering::SeqCst) <= 4);
        assert_eq!(
            seen.metadata.load(Ordering::SeqCst),
            1,
            "the endpoint is looked up once"
        );
    }

    /// Calls in flight at the limit: the token that waits longer than a call may take gets 503.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_token_that_finds_no_place_for_as_long_as_a_call_may_take_gets_503() {
        let (issuer, seen) = issuer(Duration::from_millis(1000)).await;
        let verifier = Arc::new(
            IntrospectionVerifier::new(issuer, "https://rs/mcp", "rs", "s")
                .max_concurrent_calls(1)
                .fetch_timeout(Duration::from_millis(1500)),
        );
        // One call from 0 to 1 s, the next from 1 s to 2 s; the third waits past 1.5 s.
        assert_eq!(check_at_once(&verifier, 3).await, (2, 1));
        assert_eq!(seen.most_in_flight.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn after_a_failed_look_up_of_the_endpoint_requests_get_503_at_once_until_the_retry() {
        let (issuer, seen) = issuer(Duration::ZERO).await;
        seen.metadata_down.store(true, Ordering::SeqCst);
        let verifier = Arc::new(IntrospectionVerifier::new(
            issuer,
            "https://rs/mcp",
            "rs",
            "s",
        ));
        assert_eq!(check_at_once(&verifier, 10).await, (0, 10));
        assert_eq!(
            seen.metadata.load(Ordering::SeqCst),
            1,
            "one look-up between them all (its other well-known address is not served)"
        );
        seen.metadata_down.store(false, Ordering::SeqCst);
        assert_eq!(check_at_once(&verifier, 1).await, (0, 1), "within the wait");
        tokio::time::sleep(crate::auth::backoff::FIRST_RETRY).await;
        assert_eq!(check_at_once(&verifier, 1).await, (1, 0), "after it");
        assert_eq!(seen.calls.load(Ordering::SeqCst), 1);
    }

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
