//! Tokens already verified, so that a client sending the same access token with each request
//! costs one signature check, not one per request. Bounded in number; an entry serves only
//! while its token is unexpired, for at most the key set's maximum age, and only with the key
//! set it was verified against (a fetch of the keys, after a rotation, empties it in effect).

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::Caller;

/// The verified tokens, by their exact text.
pub(crate) struct VerifiedTokens {
    /// Read by every request, written on a first sight: a read-write lock.
    entries: RwLock<HashMap<Box<str>, Verified>>,
    /// The most tokens kept; 0 keeps none.
    max: usize,
    /// How long an entry serves at most.
    max_age: Duration,
}

struct Verified {
    caller: Caller,
    /// The token's `exp`, in seconds since the epoch.
    expires: u64,
    /// The key set it was verified against.
    generation: u64,
    since: Instant,
}

impl VerifiedTokens {
    pub(crate) fn new(max: usize, max_age: Duration) -> VerifiedTokens {
        VerifiedTokens {
            entries: RwLock::new(HashMap::new()),
            max,
            max_age,
        }
    }

    /// The caller of `token`, if it was verified against key set `generation` and is still
    /// unexpired (within `leeway`).
    pub(crate) fn get(&self, token: &str, generation: u64, leeway: Duration) -> Option<Caller> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        let verified = entries.get(token)?;
        let fresh = verified.generation == generation
            && verified.since.elapsed() < self.max_age
            && now() < verified.expires.saturating_add(leeway.as_secs());
        fresh.then(|| verified.caller.clone())
    }

    /// Remembers that `token`, expiring at `expires`, names `caller`.
    pub(crate) fn insert(&self, token: &str, caller: &Caller, expires: u64, generation: u64) {
        if self.max == 0 {
            return;
        }
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= self.max {
            let now = now();
            entries.retain(|_, verified| {
                verified.generation == generation
                    && verified.expires > now
                    && verified.since.elapsed() < self.max_age
            });
            // Still full of live tokens: start over rather than track their ages.
            if entries.len() >= self.max {
                entries.clear();
            }
        }
        entries.insert(
            token.into(),
            Verified {
                caller: caller.clone(),
                expires,
                generation,
                since: Instant::now(),
            },
        );
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |now| now.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caller(name: &str) -> Caller {
        Caller::new(name, ["a"], serde_json::Map::new())
    }

    #[test]
    fn an_entry_serves_only_unexpired_and_with_its_key_set() {
        let tokens = VerifiedTokens::new(8, Duration::from_secs(600));
        let leeway = Duration::ZERO;
        tokens.insert("live", &caller("ana"), now() + 300, 1);
        tokens.insert("expired", &caller("bob"), now() - 1, 1);
        assert_eq!(tokens.get("live", 1, leeway).unwrap().subject(), "ana");
        assert!(
            tokens.get("live", 2, leeway).is_none(),
            "keys fetched since"
        );
        assert!(tokens.get("expired", 1, leeway).is_none());
        assert!(tokens.get("expired", 1, Duration::from_secs(60)).is_some());
        assert!(tokens.get("unknown", 1, leeway).is_none());
        let aged = VerifiedTokens::new(8, Duration::ZERO);
        aged.insert("live", &caller("ana"), now() + 300, 1);
        assert!(
            aged.get("live", 1, leeway).is_none(),
            "older than the keys' max age"
        );
    }

    #[test]
    fn the_number_of_entries_is_bounded() {
        let tokens = VerifiedTokens::new(4, Duration::from_secs(600));
        for i in 0..100 {
            tokens.insert(&format!("t{i}"), &caller("ana"), now() + 300, 1);
            assert!(tokens.entries.read().unwrap().len() <= 4);
        }
        assert!(
            tokens.get("t99", 1, Duration::ZERO).is_some(),
            "the newest is kept"
        );
        let none = VerifiedTokens::new(0, Duration::from_secs(600));
        none.insert("t", &caller("ana"), now() + 300, 1);
        assert!(none.get("t", 1, Duration::ZERO).is_none());
    }
}
