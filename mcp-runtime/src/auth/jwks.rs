//! The issuer's signing keys: found through its metadata (RFC 8414, or OpenID Connect
//! Discovery), fetched from its `jwks_uri`, cached, and fetched again when a token names a key
//! the cache does not hold (a key rotation), at a bounded rate. After a fetch fails the issuer
//! is not asked again for a while (1 s, doubling with each failure in a row up to the refetch
//! interval): meanwhile the keys held serve, and a token needing another is answered at once as
//! not checkable now.
//!
//! Only public signing keys are kept, each with the algorithms its type allows: RSA keys verify
//! `RS*` and `PS*`, P-256 keys `ES256`, P-384 keys `ES384`, Ed25519 keys `EdDSA`, or only the
//! `alg` a key names. A symmetric (`oct`) key is never taken, so no token is ever checked with
//! HMAC, and `none` is no algorithm at all.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use axum::http::Uri;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk};
use jsonwebtoken::{Algorithm, DecodingKey};
use serde_json::Value;

use super::backoff::Failing;
use super::fetch::{FetchLimits, Fetcher};
use super::verifier::TokenError;
use crate::limit_log::LimitLog;

/// How the key set is kept and fetched; each a setting of [`JwtVerifier`](super::JwtVerifier).
#[derive(Clone, Copy, Debug)]
pub(crate) struct KeySetLimits {
    /// Keys older than this are fetched again before use.
    pub(crate) max_age: Duration,
    /// At most one fetch this often for a key the set does not hold.
    pub(crate) refetch_interval: Duration,
    pub(crate) fetch: FetchLimits,
    /// The most keys taken from one key set.
    pub(crate) max_keys: usize,
}

impl Default for KeySetLimits {
    fn default() -> Self {
        KeySetLimits {
            max_age: Duration::from_secs(10 * 60),
            refetch_interval: Duration::from_secs(30),
            fetch: FetchLimits {
                timeout: Duration::from_secs(10),
                max_bytes: 256 * 1024,
            },
            max_keys: 64,
        }
    }
}

/// One public key and the algorithms it verifies.
pub(crate) struct Key {
    pub(crate) decoding: DecodingKey,
    pub(crate) algorithms: Vec<Algorithm>,
}

/// The keys of one fetch.
struct Keys {
    by_id: HashMap<String, Arc<Key>>,
    /// Keys without a `kid`, usable only by a token that names none.
    unnamed: Vec<Arc<Key>>,
    fetched: Instant,
}

/// The issuer's key set, cached.
pub(crate) struct KeySet {
    issuer: String,
    fetcher: Fetcher,
    limits: KeySetLimits,
    keys: RwLock<Option<Arc<Keys>>>,
    /// How many times the set was fetched: what a verification was made against.
    generation: AtomicU64,
    /// Held while fetching, so concurrent misses wait for one fetch; with the `jwks_uri` found
    /// and when the last fetch started.
    fetching: tokio::sync::Mutex<FetchState>,
}

#[derive(Default)]
struct FetchState {
    jwks_uri: Option<Uri>,
    last: Option<Instant>,
    /// After fetches that failed in a row: how many, and when the next may be tried.
    failing: Option<Failing>,
}

impl KeySet {
    pub(crate) fn new(issuer: String, limits: KeySetLimits) -> KeySet {
        KeySet {
            issuer,
            fetcher: Fetcher::new(limits.fetch),
            limits,
            keys: RwLock::new(None),
            generation: AtomicU64::new(0),
            fetching: tokio::sync::Mutex::new(FetchState::default()),
        }
    }

    /// The key a token's header names (`kid`), fetching the set when it is not cached, is
    /// older than `max_age`, or does not hold that key (at most once per `refetch_interval`).
    pub(crate) async fn find(&self, kid: Option<&str>) -> Result<Arc<Key>, TokenError> {
        let cached = self.cached();
        if let Some(keys) = &cached
            && keys.fetched.elapsed() < self.limits.max_age
            && let Some(key) = pick(keys, kid)
        {
            return Ok(key);
        }
        let mut state = self.fetching.lock().await;
        // Another request may have fetched while this one waited.
        let cached = self.cached();
        if let Some(keys) = &cached
            && keys.fetched.elapsed() < self.limits.max_age
            && let Some(key) = pick(keys, kid)
        {
            return Ok(key);
        }
        if Failing::waiting(state.failing.as_ref()) {
            // The issuer failed just now: neither this request nor those queued behind it
            // wait on it (or load it) again before the retry time.
            return held_or_unavailable(cached.as_deref(), kid);
        }
        let stale = cached
            .as_ref()
            .is_none_or(|keys| keys.fetched.elapsed() >= self.limits.max_age);
        let recently = state
            .last
            .is_some_and(|last| last.elapsed() < self.limits.refetch_interval);
        if recently && !stale {
            static LOG: LimitLog = LimitLog::new();
            LOG.hit(|| {
                "a token names a key the issuer's key set does not hold, and the set was fetched less than the refetch interval ago (JwtVerifier::refetch_interval): refused without fetching".to_owned()
            });
            return Err(unknown_key(kid));
        }
        state.last = Some(Instant::now());
        match self.fetch(&mut state).await {
            Ok(keys) => {
                state.failing = None;
                let keys = Arc::new(keys);
                *self.keys.write().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(&keys));
                self.generation.fetch_add(1, Ordering::AcqRel);
                pick(&keys, kid).ok_or_else(|| unknown_key(kid))
            }
            Err(why) => {
                let failing = Failing::after(
                    state.failing.as_ref(),
                    Instant::now(),
                    self.limits.refetch_interval,
                );
                static LOG: LimitLog = LimitLog::new();
                LOG.hit(|| {
                    format!(
                        "fetching the issuer's keys failed ({} in a row; the next attempt in {} s): {why}",
                        failing.failures,
                        failing.seconds_left()
                    )
                });
                state.failing = Some(failing);
                held_or_unavailable(cached.as_deref(), kid)
            }
        }
    }

    /// Which fetch of the key set the keys held come from.
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    fn cached(&self) -> Option<Arc<Keys>> {
        self.keys.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    async fn fetch(&self, state: &mut FetchState) -> Result<Keys, String> {
        let jwks_uri = match &state.jwks_uri {
            Some(uri) => uri.clone(),
            None => {
                let uri =
                    super::metadata::endpoint(&self.fetcher, &self.issuer, "jwks_uri").await?;
                state.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let document = match self.fetcher.get_json(&jwks_uri).await {
            Ok(document) => document,
            Err(why) => {
                // The issuer may have moved its keys: look for them again next time.
                state.jwks_uri = None;
                return Err(why);
            }
        };
        parse_key_set(&document, self.limits.max_keys)
    }
}

/// While the issuer cannot be reached: the key held, even past its maximum age, or a token
/// that cannot be checked now (`503`, not `401`).
fn held_or_unavailable(held: Option<&Keys>, kid: Option<&str>) -> Result<Arc<Key>, TokenError> {
    held.and_then(|keys| pick(keys, kid))
        .ok_or_else(|| TokenError::unavailable("the issuer's signing keys cannot be fetched now"))
}

fn unknown_key(kid: Option<&str>) -> TokenError {
    match kid {
        Some(kid) => {
            // The client's own text, echoed in a header: kept short.
            let shown: String = kid.chars().take(64).collect();
            let more = if shown.len() < kid.len() { "..." } else { "" };
            TokenError::invalid(format!(
                "the token is signed with key `{shown}{more}`, which the issuer does not publish"
            ))
        }
        None => TokenError::invalid(
            "the token names no signing key (`kid`), and the issuer publishes more than one",
        ),
    }
}

/// The key `kid` names; a token naming none may use the one key of a set of one.
fn pick(keys: &Keys, kid: Option<&str>) -> Option<Arc<Key>> {
    match kid {
        Some(kid) => keys.by_id.get(kid).cloned(),
        None => {
            let mut all = keys.by_id.values().chain(&keys.unnamed);
            match (all.next(), all.next()) {
                (Some(only), None) => Some(Arc::clone(only)),
                _ => None,
            }
        }
    }
}

/// The public signing keys of a JWK Set (RFC 7517), at most `max` of them. Keys of other
/// uses, symmetric keys and keys of types or curves not supported are left out.
fn parse_key_set(document: &Value, max: usize) -> Result<Keys, String> {
    let listed = document
        .get("keys")
        .and_then(Value::as_array)
        .ok_or("the key set has no `keys` array")?;
    let mut keys = Keys {
        by_id: HashMap::new(),
        unnamed: Vec::new(),
        fetched: Instant::now(),
    };
    for value in listed.iter().take(max) {
        if value.get("use").is_some_and(|u| u != "sig") {
            continue;
        }
        let Ok(jwk) = serde_json::from_value::<Jwk>(value.clone()) else {
            continue;
        };
        let named = value.get("alg").and_then(Value::as_str);
        let Some(key) = public_key(&jwk, named) else {
            continue;
        };
        match jwk.common.key_id {
            Some(kid) => {
                keys.by_id.insert(kid, Arc::new(key));
            }
            None => keys.unnamed.push(Arc::new(key)),
        }
    }
    Ok(keys)
}

/// A JWK as a verifying key with the algorithms its type allows; `None` for a symmetric key
/// or one not supported.
fn public_key(jwk: &Jwk, named: Option<&str>) -> Option<Key> {
    let by_type: &[Algorithm] = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => &[
            Algorithm::RS256,
            Algorithm::RS384,
            Algorithm::RS512,
            Algorithm::PS256,
            Algorithm::PS384,
            Algorithm::PS512,
        ],
        AlgorithmParameters::EllipticCurve(params) => match params.curve {
            EllipticCurve::P256 => &[Algorithm::ES256],
            EllipticCurve::P384 => &[Algorithm::ES384],
            _ => return None,
        },
        AlgorithmParameters::OctetKeyPair(params) => match params.curve {
            EllipticCurve::Ed25519 => &[Algorithm::EdDSA],
            _ => return None,
        },
        // A symmetric key would verify HMAC tokens anyone holding it can make; other types
        // are not supported.
        _ => return None,
    };
    let algorithms = match named {
        // A key that names its algorithm verifies that one only, if its type allows it.
        Some(named) => {
            let named: Algorithm = named.parse().ok()?;
            by_type.contains(&named).then(|| vec![named])?
        }
        None => by_type.to_vec(),
    };
    let decoding = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key {
        decoding,
        algorithms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::backoff::FIRST_RETRY;
    use serde_json::json;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    const EC_KEY: &str = r#"{"kty": "EC", "crv": "P-256", "kid": "ec",
        "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
        "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#;

    /// An issuer on a free loopback port publishing one key, counting the fetches of its key
    /// set; its URL and the counter.
    async fn issuer() -> (String, Arc<AtomicUsize>) {
        let (issuer, fetches, _down) = failing_issuer().await;
        (issuer, fetches)
    }

    /// As [`issuer`], and a switch that makes its key set answer `503` while on.
    async fn failing_issuer() -> (String, Arc<AtomicUsize>, Arc<AtomicBool>) {
        use axum::http::StatusCode;
        use axum::routing::get;
        let fetches = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&fetches);
        let down = Arc::new(AtomicBool::new(false));
        let is_down = Arc::clone(&down);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let issuer = format!("http://{}", listener.local_addr().unwrap());
        let metadata = json!({"issuer": issuer, "jwks_uri": format!("{issuer}/jwks")});
        let app = axum::Router::new()
            .route(
                "/.well-known/openid-configuration",
                get(move || async move { metadata.to_string() }),
            )
            .route(
                "/jwks",
                get(move || async move {
                    counted.fetch_add(1, Ordering::SeqCst);
                    if is_down.load(Ordering::SeqCst) {
                        return Err(StatusCode::SERVICE_UNAVAILABLE);
                    }
                    Ok(format!(r#"{{"keys": [{EC_KEY}]}}"#))
                }),
            );
        tokio::spawn(async move { axum::serve(listener, app).await });
        (issuer, fetches, down)
    }

    #[tokio::test]
    async fn an_issuer_that_fails_is_asked_again_only_after_a_growing_wait() {
        let (issuer, fetches, down) = failing_issuer().await;
        down.store(true, Ordering::SeqCst);
        let keys = Arc::new(KeySet::new(issuer, KeySetLimits::default()));
        // Requests arriving together, and more after them: one fetch between them all.
        let together: Vec<_> = (0..10)
            .map(|_| {
                let keys = Arc::clone(&keys);
                tokio::spawn(async move { keys.find(Some("ec")).await.err().unwrap() })
            })
            .collect();
        for waiting in together {
            assert!(waiting.await.unwrap().is_unavailable());
        }
        for _ in 0..10 {
            assert!(keys.find(Some("ec")).await.err().unwrap().is_unavailable());
        }
        assert_eq!(fetches.load(Ordering::SeqCst), 1, "one fetch, then a wait");
        // The issuer is back; the next request after the first wait (1 s) fetches.
        down.store(false, Ordering::SeqCst);
        tokio::time::sleep(FIRST_RETRY).await;
        assert!(keys.find(Some("ec")).await.is_ok());
        assert_eq!(fetches.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn keys_held_past_their_age_serve_while_the_issuer_fails_without_asking_it_each_time() {
        let (issuer, fetches, down) = failing_issuer().await;
        let limits = KeySetLimits {
            max_age: Duration::ZERO,
            ..KeySetLimits::default()
        };
        let keys = KeySet::new(issuer, limits);
        assert!(keys.find(Some("ec")).await.is_ok());
        down.store(true, Ordering::SeqCst);
        for _ in 0..10 {
            assert!(keys.find(Some("ec")).await.is_ok(), "the key held serves");
        }
        assert_eq!(fetches.load(Ordering::SeqCst), 2, "one failed fetch");
    }

    #[tokio::test]
    async fn unknown_key_ids_cost_the_issuer_one_fetch_per_interval() {
        let (issuer, fetches) = issuer().await;
        let limits = KeySetLimits {
            refetch_interval: Duration::from_secs(3600),
            ..KeySetLimits::default()
        };
        let keys = KeySet::new(issuer, limits);
        assert!(
            keys.find(Some("ec")).await.is_ok(),
            "found through OpenID discovery"
        );
        for _ in 0..20 {
            let error = keys.find(Some("made-up")).await.err().unwrap();
            assert!(error.description().contains("does not publish"), "{error}");
        }
        assert_eq!(
            fetches.load(Ordering::SeqCst),
            1,
            "no fetch within the interval"
        );
    }

    #[tokio::test]
    async fn keys_older_than_their_max_age_are_fetched_again() {
        let (issuer, fetches) = issuer().await;
        let limits = KeySetLimits {
            max_age: Duration::ZERO,
            ..KeySetLimits::default()
        };
        let keys = KeySet::new(issuer, limits);
        for _ in 0..3 {
            assert!(keys.find(Some("ec")).await.is_ok());
        }
        assert_eq!(fetches.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn an_issuer_that_cannot_be_reached_makes_tokens_uncheckable_not_invalid() {
        let keys = KeySet::new("http://127.0.0.1:1".to_owned(), KeySetLimits::default());
        let error = keys.find(Some("ec")).await.err().unwrap();
        assert!(error.is_unavailable(), "{error}");
    }

    #[test]
    fn only_public_signing_keys_are_kept_with_the_algorithms_their_type_allows() {
        let ec = json!({"kty": "EC", "crv": "P-256", "kid": "ec",
            "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
            "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"});
        let set = json!({"keys": [
            ec,
            {"kty": "oct", "kid": "hmac", "k": "c2VjcmV0"},
            {"kty": "EC", "crv": "P-256", "kid": "enc", "use": "enc",
             "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
             "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty": "EC", "crv": "P-256", "kid": "named-hs", "alg": "HS256",
             "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
             "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},
            {"kty": "weird", "kid": "weird"},
        ]});
        let keys = parse_key_set(&set, 64).unwrap();
        assert_eq!(keys.by_id.keys().collect::<Vec<_>>(), ["ec"]);
        assert_eq!(keys.by_id["ec"].algorithms, [Algorithm::ES256]);
        assert!(
            pick(&keys, None).is_some(),
            "the one key serves a token naming none"
        );
        assert!(pick(&keys, Some("hmac")).is_none());
        let many: Vec<Value> = (0..100)
            .map(|i| {
                let mut key = ec.clone();
                key["kid"] = json!(format!("k{i}"));
                key
            })
            .collect();
        let many = parse_key_set(&json!({ "keys": many }), 3).unwrap();
        assert_eq!(many.by_id.len(), 3, "at most `max_keys` are taken");
    }
}
