//! Sealed `requestState` (MCP 2026-07-28 input-required results): the opaque string a
//! handler's earlier answers travel in between rounds, encrypted and authenticated with a key
//! ring, bound to its request, and refused when tampered with, transplanted, expired,
//! oversized or sealed with a key this server does not hold.
//!
//! - `state_keys`: `StateKeys`, the public face (where keys come from; seal, open);
//! - `ring`: the current key, older keys, keys in their grace period, and key ids;
//! - `key_file`: reading keys from a file or an environment variable;
//! - `rotation`: a key file watched for changes;
//! - `linked`: the sealing code, linked in only by what can need it;
//! - `format`: the sealed string, `v1.<key id>.<nonce, ciphertext, tag>`;
//! - `binding`: the request a state belongs to, and its canonical encoding;
//! - `clock`: time as milliseconds since the epoch;
//! - `error`: key list errors, sealing errors, and the refusals of a state sent back.
//!
//! SECURITY.md ("Sealed requestState") describes the format and what is refused.

mod binding;
mod clock;
mod error;
mod format;
mod key_file;
mod linked;
mod ring;
mod rotation;
mod state_keys;
#[cfg(test)]
mod tests;

pub(crate) use binding::Binding;
pub use error::StateKeysError;
pub(crate) use error::StateRefusal;
pub(crate) use linked::{link_sealing, watch_file_if_sealing};
pub(crate) use state_keys::EXPIRY_LEEWAY;
pub use state_keys::StateKeys;
