//! What can go wrong with sealed state: a key list that cannot be read (at start-up, or when a
//! watched key file changes), a state too large to seal, and the refusals of a `requestState`
//! a client sent back.

use std::fmt;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

/// The keys for sealing `requestState` could not be read: which file (or variable), which line
/// (or item), and what a valid one is. The key material itself is never part of the message.
///
/// ```
/// use mcp_runtime::StateKeys;
///
/// let error = StateKeys::from_keys([[1u8; 32], [2u8; 32], [1u8; 32]]).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "key 3 of the list: the same key as key 1 of the list; each key must be different \
///      (the first seals, every one opens)"
/// );
/// ```
#[derive(Debug)]
pub struct StateKeysError {
    source: KeySource,
    problem: KeyProblem,
}

/// Where a list of keys came from, as a message names it.
#[derive(Debug, Clone)]
pub(super) enum KeySource {
    /// `StateKeys::from_keys`.
    List,
    /// `StateKeys::from_file` or `watch_file`.
    File(PathBuf),
    /// `StateKeys::from_env`.
    Env(String),
}

/// What is wrong with a list of keys.
#[derive(Debug)]
pub(super) enum KeyProblem {
    /// The file could not be read.
    Read(io::Error),
    /// The environment variable is not set.
    EnvMissing,
    /// The environment variable is not valid unicode.
    EnvNotUnicode,
    /// Nothing but blank lines and comments.
    NoKeys,
    /// Entry `at` (a line of a file, an item of a variable or a list; from 1) is not base64.
    NotBase64 { at: usize },
    /// Entry `at` decodes to `len` bytes, not 32.
    WrongLength { at: usize, len: usize },
    /// Entry `at` holds the same key as entry `first`.
    Repeated { at: usize, first: usize },
}

impl StateKeysError {
    pub(super) fn new(source: &KeySource, problem: KeyProblem) -> StateKeysError {
        StateKeysError {
            source: source.clone(),
            problem,
        }
    }

    #[cfg(test)]
    pub(super) fn problem(&self) -> &KeyProblem {
        &self.problem
    }
}

impl KeySource {
    /// What one entry is called: "line 3" of a file, "item 3" of a variable, "key 3" of a list.
    fn entry(&self, at: usize) -> String {
        match self {
            KeySource::List => format!("key {at} of the list"),
            KeySource::File(path) => format!("{}, line {at}", path.display()),
            KeySource::Env(var) => format!("environment variable {var}, item {at}"),
        }
    }

    /// What a valid list looks like, for the end of a message.
    fn valid(&self) -> &'static str {
        match self {
            KeySource::List => "each key must be different (the first seals, every one opens)",
            KeySource::File(_) => {
                "each line holds one key, 32 random bytes in base64 (e.g. from \
                 `openssl rand -base64 32`), the first line the key that seals; blank lines and \
                 lines starting with `#` are ignored"
            }
            KeySource::Env(_) => {
                "the variable holds keys separated by commas or newlines, each 32 random bytes in \
                 base64 (e.g. from `openssl rand -base64 32`), the first the key that seals"
            }
        }
    }
}

impl fmt::Display for StateKeysError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let source = &self.source;
        match &self.problem {
            KeyProblem::Read(error) => {
                let KeySource::File(path) = source else {
                    return write!(f, "cannot read the state keys: {error}");
                };
                write!(
                    f,
                    "cannot read the state key file {}: {error}",
                    path.display()
                )
            }
            KeyProblem::EnvMissing => {
                let KeySource::Env(var) = source else {
                    return f.write_str("no state keys given");
                };
                write!(
                    f,
                    "environment variable {var} is not set; {}",
                    source.valid()
                )
            }
            KeyProblem::EnvNotUnicode => {
                let KeySource::Env(var) = source else {
                    return f.write_str("the state keys are not text");
                };
                write!(
                    f,
                    "environment variable {var} is not valid unicode; {}",
                    source.valid()
                )
            }
            KeyProblem::NoKeys => {
                let what = match source {
                    KeySource::List => "the list of state keys".to_owned(),
                    KeySource::File(path) => format!("the state key file {}", path.display()),
                    KeySource::Env(var) => format!("environment variable {var}"),
                };
                write!(f, "{what} holds no key; {}", source.valid())
            }
            KeyProblem::NotBase64 { at } => {
                write!(f, "{}: not base64; {}", source.entry(*at), source.valid())
            }
            KeyProblem::WrongLength { at, len } => write!(
                f,
                "{}: the key is {len} bytes long, not 32; {}",
                source.entry(*at),
                source.valid()
            ),
            KeyProblem::Repeated { at, first } => write!(
                f,
                "{}: the same key as {}; {}",
                source.entry(*at),
                source.entry(*first),
                source.valid()
            ),
        }
    }
}

impl std::error::Error for StateKeysError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            KeyProblem::Read(error) => Some(error),
            _ => None,
        }
    }
}

/// A state could not be sealed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SealError {
    /// The sealed string would be longer than what `open` accepts, so the client's retry would
    /// be refused: the payload (the answers kept across rounds) has grown too large.
    TooLarge { len: usize, limit: usize },
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealError::TooLarge { len, limit } => write!(
                f,
                "the sealed requestState would be {len} bytes, over the limit of {limit} bytes \
                 (StateKeys::with_max_len): too much is kept across rounds"
            ),
        }
    }
}

impl std::error::Error for SealError {}

/// Why a `requestState` sent back by a client was refused. Each is answered with -32602 and
/// the handler does not run; `Display` is the error's message, `reason()` a short machine
/// string for its `data`.
///
/// A state that was altered and one sealed for another request (another method, name,
/// arguments or audience) are both [`StateRefusal::Forged`], by design: the authentication tag
/// covers both, and telling them apart would need either to be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StateRefusal {
    /// Longer than the limit, found from the string's length before any decoding.
    TooLarge { limit: usize },
    /// Not of the sealed form (version prefix, key id, base64 body of a possible length).
    Malformed,
    /// Sealed with a key this server does not hold: another server's, or one retired (removed
    /// from the key file longer ago than the grace period).
    UnknownKey,
    /// Authentication failed: altered, or sealed for another request.
    Forged,
    /// Authentic, but past its expiry (plus the leeway) by `by`.
    Expired { by: Duration },
}

impl StateRefusal {
    /// A short machine-readable name: `too_large`, `malformed`, `unknown_key`, `forged`,
    /// `expired`.
    pub(crate) fn reason(&self) -> &'static str {
        match self {
            StateRefusal::TooLarge { .. } => "too_large",
            StateRefusal::Malformed => "malformed",
            StateRefusal::UnknownKey => "unknown_key",
            StateRefusal::Forged => "forged",
            StateRefusal::Expired { .. } => "expired",
        }
    }
}

impl fmt::Display for StateRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateRefusal::TooLarge { limit } => write!(
                f,
                "requestState is longer than {limit} bytes, the most this server accepts"
            ),
            StateRefusal::Malformed => f.write_str(
                "requestState is not a state this server issued; send back the requestState of \
                 the last input-required result unchanged",
            ),
            StateRefusal::UnknownKey => f.write_str(
                "requestState was sealed with a key this server does not hold (another \
                 server's, or one retired); send the request again without requestState",
            ),
            StateRefusal::Forged => f.write_str(
                "requestState was altered, or belongs to another request (method, name, \
                 arguments or audience); send it back unchanged with the original params",
            ),
            StateRefusal::Expired { by } => write!(
                f,
                "requestState expired {}s ago; send the request again without requestState",
                by.as_secs()
            ),
        }
    }
}

impl std::error::Error for StateRefusal {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_names_the_state_and_has_its_own_reason() {
        let refusals = [
            StateRefusal::TooLarge { limit: 65536 },
            StateRefusal::Malformed,
            StateRefusal::UnknownKey,
            StateRefusal::Forged,
            StateRefusal::Expired {
                by: Duration::from_secs(7),
            },
        ];
        let reasons: std::collections::HashSet<_> =
            refusals.iter().map(StateRefusal::reason).collect();
        assert_eq!(reasons.len(), refusals.len());
        for refusal in &refusals {
            let message = refusal.to_string();
            assert!(message.starts_with("requestState "), "{message}");
        }
        // Each one a client can act on says how.
        for refusal in &refusals[1..] {
            assert!(refusal.to_string().contains("send "), "{refusal}");
        }
    }
}
