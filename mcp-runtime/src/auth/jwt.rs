//! The default verifier: JWT access tokens (RFC 9068) signed by the issuer's published keys.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Validation, decode, decode_header};
use serde_json::{Map, Value};

use super::Caller;
use super::jwks::{KeySet, KeySetLimits};
use super::verified::VerifiedTokens;
use super::verifier::{TokenError, TokenVerifier};
use crate::longest_duration::at_most_a_year;

/// Verifies JWT access tokens against the keys `issuer` publishes.
///
/// A token is accepted when:
///
/// - its signature verifies with the issuer's key its header names (`kid`), found through the
///   issuer's metadata (`/.well-known/oauth-authorization-server`, else
///   `/.well-known/openid-configuration`) and its `jwks_uri`, with an algorithm that key's type
///   allows: never `none`, never an HMAC algorithm (which would let anyone holding the public
///   key sign);
/// - `iss` is the issuer, and `aud` names this server's resource URI (RFC 8707: a token
///   minted for another resource is refused);
/// - it has not expired (`exp`) and is already valid (`nbf`), within a leeway for clocks that
///   disagree (60 s by default);
/// - it has a subject (`sub`).
///
/// Its scopes are read from `scope` (space-separated, RFC 9068) or `scp` (a list).
///
/// The keys are cached (10 minutes by default, [`keys_max_age`](Self::keys_max_age)) and
/// fetched again when a token names a key the cache lacks (a rotation), at most once per
/// [`refetch_interval`](Self::refetch_interval) (30 s), so forged tokens with made-up key ids
/// cannot make the server hammer the issuer. A fetch takes at most 10 s
/// ([`fetch_timeout`](Self::fetch_timeout)) and 256 KiB
/// ([`max_document_bytes`](Self::max_document_bytes)); at most 64 keys are taken
/// ([`max_keys`](Self::max_keys)). While the issuer cannot be reached, the keys held go on
/// serving, and a token whose key is not held gets `503` (it could not be checked) rather than
/// `401`; after a failed fetch the issuer is asked again after 1 s, the wait doubling with each
/// failure in a row up to the refetch interval, not once per request.
///
/// A token verified once is remembered (at most 4096 of them,
/// [`max_verified_tokens`](Self::max_verified_tokens)), so a client sending the same token
/// with each request costs one signature check: until it expires, for at most the keys' maximum
/// age, and until the key set is fetched again (after a rotation, every token is checked anew).
pub struct JwtVerifier {
    issuer: String,
    audience: String,
    leeway: Duration,
    require_access_token_type: bool,
    limits: KeySetLimits,
    keys: KeySet,
    verified: VerifiedTokens,
    max_verified: usize,
}

impl JwtVerifier {
    /// A verifier of tokens `issuer` signs for `audience` (this server's resource URI).
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>) -> JwtVerifier {
        // jsonwebtoken picks its cryptography from its features; should another crate in the
        // program enable a second backend, it would have none, and panic on the first token.
        if jsonwebtoken::crypto::CryptoProvider::try_get_default().is_none() {
            let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        }
        let issuer = issuer.into();
        let limits = KeySetLimits::default();
        JwtVerifier {
            keys: KeySet::new(issuer.clone(), limits),
            issuer,
            audience: audience.into(),
            leeway: Duration::from_secs(60),
            require_access_token_type: false,
            verified: VerifiedTokens::new(DEFAULT_VERIFIED, limits.max_age),
            max_verified: DEFAULT_VERIFIED,
            limits,
        }
    }

    /// How far `exp` and `nbf` may be off (60 s by default; a year at most, so that
    /// `Duration::MAX` means "no end" without overflowing the clock it is added to).
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> JwtVerifier {
        self.leeway = at_most_a_year(leeway);
        self
    }

    /// Refuses tokens whose header's `typ` is not `at+jwt` (RFC 9068, section 4), so that no
    /// other JWT the issuer signs (an OpenID ID token) passes for an access token. Off by
    /// default: many authorization servers type their access tokens `JWT`, and the audience
    /// check already refuses an ID token (its `aud` is the client, not this server).
    #[must_use]
    pub fn require_access_token_type(mut self, required: bool) -> JwtVerifier {
        self.require_access_token_type = required;
        self
    }

    /// How long fetched keys are used before they are fetched again (10 minutes by default):
    /// how long a key the issuer withdrew is still trusted.
    #[must_use]
    pub fn keys_max_age(mut self, age: Duration) -> JwtVerifier {
        self.limits.max_age = age;
        self.rebuild()
    }

    /// The shortest time between two fetches for a key the set lacks (30 s by default): a
    /// token signed with a rotated key is accepted once this long has passed since the last
    /// fetch, and forged key ids cost the issuer at most one fetch per interval.
    #[must_use]
    pub fn refetch_interval(mut self, interval: Duration) -> JwtVerifier {
        self.limits.refetch_interval = interval;
        self.rebuild()
    }

    /// How long one fetch of the issuer's metadata or keys may take (10 s by default).
    #[must_use]
    pub fn fetch_timeout(mut self, timeout: Duration) -> JwtVerifier {
        self.limits.fetch.timeout = timeout;
        self.rebuild()
    }

    /// The largest metadata or key set document taken from the issuer (256 KiB by default).
    #[must_use]
    pub fn max_document_bytes(mut self, bytes: usize) -> JwtVerifier {
        self.limits.fetch.max_bytes = bytes;
        self.rebuild()
    }

    /// How many keys of the issuer's key set are taken (the first 64 by default).
    #[must_use]
    pub fn max_keys(mut self, keys: usize) -> JwtVerifier {
        self.limits.max_keys = keys;
        self.rebuild()
    }

    /// The issuer whose tokens are accepted.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    /// How many verified tokens are remembered, so that the same token again costs no
    /// signature check (4096 by default; 0 remembers none). A token is remembered while it is
    /// unexpired, for at most [`keys_max_age`](Self::keys_max_age), and until the key set is
    /// fetched again.
    #[must_use]
    pub fn max_verified_tokens(mut self, tokens: usize) -> JwtVerifier {
        self.max_verified = tokens;
        self.rebuild()
    }

    fn rebuild(mut self) -> JwtVerifier {
        self.keys = KeySet::new(self.issuer.clone(), self.limits);
        self.verified = VerifiedTokens::new(self.max_verified, self.limits.max_age);
        self
    }

    async fn check(&self, token: &str) -> Result<Caller, TokenError> {
        // Read before verifying: a fetch meanwhile makes what is remembered stale, not fresh.
        let generation = self.keys.generation();
        if let Some(caller) = self.verified.get(token, generation, self.leeway) {
            return Ok(caller);
        }
        let header = decode_header(token).map_err(|e| match e.kind() {
            ErrorKind::InvalidAlgorithmName | ErrorKind::Json(_) => TokenError::invalid(
                "the token's header names no algorithm this server accepts (`none` and unknown ones are refused)",
            ),
            _ => TokenError::invalid("the token is not a JWT"),
        })?;
        if self.require_access_token_type
            && !header.typ.as_deref().is_some_and(|typ| {
                typ.eq_ignore_ascii_case("at+jwt") || typ.eq_ignore_ascii_case("application/at+jwt")
            })
        {
            return Err(TokenError::invalid(
                "the token's `typ` is not `at+jwt`: it is not an access token (RFC 9068)",
            ));
        }
        // Only the issuer's published keys count: a key the header embeds or points to (`jwk`,
        // `jku`, `x5u`, `x5c`) is never used.
        let key = self.keys.find(header.kid.as_deref()).await?;
        if !key.algorithms.contains(&header.alg) {
            return Err(TokenError::invalid(format!(
                "the token is signed with {:?}, which its key does not allow",
                header.alg
            )));
        }
        let mut validation = Validation::new(header.alg);
        validation.algorithms = vec![header.alg];
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        let data = decode::<Map<String, Value>>(token, &key.decoding, &validation)
            .map_err(|e| TokenError::invalid(describe(e.kind())))?;
        let claims = data.claims;
        let subject = claims
            .get("sub")
            .and_then(Value::as_str)
            .ok_or_else(|| TokenError::invalid("the token's `sub` is not a string"))?
            .to_owned();
        let scopes = scopes_of(&claims);
        let expires = claims.get("exp").and_then(Value::as_u64);
        let caller = Caller::new(subject, scopes, claims);
        // Remembered with the key set of the start: if the keys were fetched during this check
        // (a rotation), the entry never serves, and the next check remembers it anew.
        if let Some(expires) = expires {
            self.verified.insert(token, &caller, expires, generation);
        }
        Ok(caller)
    }
}

/// How many verified tokens are remembered by default.
const DEFAULT_VERIFIED: usize = 4096;

/// A validation failure, in words for the client.
fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => "the token is not valid yet (`nbf`)".into(),
        ErrorKind::InvalidIssuer => "the token was issued by another issuer".into(),
        ErrorKind::InvalidAudience => {
            "the token was issued for another resource (its `aud` does not name this server)".into()
        }
        ErrorKind::InvalidSignature => "the token's signature does not verify".into(),
        ErrorKind::MissingRequiredClaim(claim) => format!("the token has no `{claim}` claim"),
        ErrorKind::InvalidAlgorithm => "the token's algorithm is not allowed".into(),
        _ => "the token is malformed".into(),
    }
}

/// The scopes a token grants: `scope` (space-separated) or `scp` (a list, or a string).
fn scopes_of(claims: &Map<String, Value>) -> Vec<String> {
    match claims.get("scope").or_else(|| claims.get("scp")) {
        Some(Value::String(scopes)) => scopes.split_whitespace().map(str::to_owned).collect(),
        Some(Value::Array(scopes)) => scopes
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Caller, TokenError>> + Send + 'a>> {
        Box::pin(self.check(token))
    }
}

impl std::fmt::Debug for JwtVerifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JwtVerifier")
            .field("issuer", &self.issuer)
            .field("audience", &self.audience)
            .field("leeway", &self.leeway)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scopes_are_read_from_either_claim() {
        let claims = |value: Value| value.as_object().unwrap().clone();
        assert_eq!(scopes_of(&claims(json!({"scope": "a  b"}))), ["a", "b"]);
        assert_eq!(
            scopes_of(&claims(json!({"scp": ["a", 1, "c"]}))),
            ["a", "c"]
        );
        assert!(scopes_of(&claims(json!({}))).is_empty());
    }
}
