//! The sealed string, version 1: `v1.<key id>.<body>`, both parts URL-safe base64 without
//! padding. The key id is 4 bytes (6 characters); the body is a random 24-byte XChaCha20
//! nonce, then the ciphertext of `expiry || payload` (the expiry in milliseconds since the
//! Unix epoch, 8 bytes big-endian), then the 16-byte Poly1305 tag. The associated data is the
//! header `v1.<key id>.` followed by the binding's encoding, so neither the version, the key
//! id, the expiry nor the request the state belongs to can change without the tag failing.
//!
//! A fresh random nonce per seal makes two seals of one payload differ; 192 bits make a
//! repeated nonce under one key negligible however many states are sealed.

use chacha20poly1305::aead::inout::InOutBuf;
use chacha20poly1305::{AeadInOut, Tag, XNonce};

use super::error::StateRefusal;
use super::ring::{Key, KeyId};
use crate::base64::URL_SAFE_NO_PAD;

const PREFIX: &str = "v1.";
const KEY_ID_CHARS: usize = 6;
/// `v1.` + key id + `.`.
const HEADER_LEN: usize = PREFIX.len() + KEY_ID_CHARS + 1;
const NONCE_LEN: usize = 24;
const EXPIRY_LEN: usize = 8;
const TAG_LEN: usize = 16;

/// The length of the string that seals `payload_len` bytes.
pub(super) fn sealed_len(payload_len: usize) -> usize {
    let body = NONCE_LEN + EXPIRY_LEN + payload_len + TAG_LEN;
    HEADER_LEN + body / 3 * 4 + [0, 2, 3][body % 3]
}

/// Seals `payload` under `key`, bound to `binding` and good until `expires_ms`.
pub(super) fn seal(key: &Key, binding: &[u8], expires_ms: u64, payload: &[u8]) -> String {
    let mut nonce = [0u8; NONCE_LEN];
    getrandom::fill(&mut nonce).expect("the operating system provides random bytes");
    let mut body = Vec::with_capacity(NONCE_LEN + EXPIRY_LEN + payload.len() + TAG_LEN);
    body.extend_from_slice(&nonce);
    body.extend_from_slice(&expires_ms.to_be_bytes());
    body.extend_from_slice(payload);

    let mut sealed = String::with_capacity(sealed_len(payload.len()));
    sealed.push_str(PREFIX);
    URL_SAFE_NO_PAD.encode_into(&key.id.0, &mut sealed);
    sealed.push('.');
    let aad = associated_data(&sealed, binding);
    let tag = key
        .cipher
        .encrypt_inout_detached(
            &XNonce::from(nonce),
            &aad,
            InOutBuf::from(&mut body[NONCE_LEN..]),
        )
        .expect("XChaCha20-Poly1305 seals messages far larger than a state");
    body.extend_from_slice(&tag);
    URL_SAFE_NO_PAD.encode_into(&body, &mut sealed);
    sealed
}

/// The header, then the binding: the header has one length, so the two never run together.
fn associated_data(header: &str, binding: &[u8]) -> Vec<u8> {
    [header.as_bytes(), binding].concat()
}

/// A sealed string taken apart, not yet authenticated.
pub(super) struct Sealed<'a> {
    pub(super) key_id: KeyId,
    header: &'a str,
    body: &'a str,
}

/// What an authentic state holds.
#[derive(Debug)]
pub(super) struct Opened {
    pub(super) expires_ms: u64,
    pub(super) payload: Vec<u8>,
}

impl<'a> Sealed<'a> {
    /// The header's parts; the body is decoded by `open`.
    pub(super) fn parse(sealed: &'a str) -> Result<Sealed<'a>, StateRefusal> {
        let malformed = StateRefusal::Malformed;
        if !sealed.starts_with(PREFIX) || sealed.len() < HEADER_LEN {
            return Err(malformed);
        }
        let (header, body) = sealed
            .split_at_checked(HEADER_LEN)
            .ok_or(malformed.clone())?;
        let key_id = header[PREFIX.len()..]
            .strip_suffix('.')
            .and_then(|id| URL_SAFE_NO_PAD.decode(id))
            .and_then(|id| <[u8; 4]>::try_from(id).ok())
            .ok_or(malformed)?;
        Ok(Sealed {
            key_id: KeyId(key_id),
            header,
            body,
        })
    }

    /// Decodes the body once and tries each key on it; `Forged` if none authenticates it.
    pub(super) fn open<'k>(
        &self,
        keys: impl IntoIterator<Item = &'k Key>,
        binding: &[u8],
    ) -> Result<Opened, StateRefusal> {
        let body = URL_SAFE_NO_PAD
            .decode(self.body)
            .ok_or(StateRefusal::Malformed)?;
        if body.len() < NONCE_LEN + EXPIRY_LEN + TAG_LEN {
            return Err(StateRefusal::Malformed);
        }
        let (nonce, rest) = body.split_at(NONCE_LEN);
        let (ciphertext, tag) = rest.split_at(rest.len() - TAG_LEN);
        let nonce = XNonce::try_from(nonce).map_err(|_| StateRefusal::Malformed)?;
        let tag = Tag::try_from(tag).map_err(|_| StateRefusal::Malformed)?;
        let aad = associated_data(self.header, binding);
        let mut plaintext = vec![0u8; ciphertext.len()];
        for key in keys {
            let buffer = InOutBuf::new(ciphertext, &mut plaintext)
                .expect("the plaintext buffer has the ciphertext's length");
            if key
                .cipher
                .decrypt_inout_detached(&nonce, &aad, buffer, &tag)
                .is_ok()
            {
                let payload = plaintext.split_off(EXPIRY_LEN);
                let expiry: [u8; EXPIRY_LEN] =
                    plaintext.try_into().expect("split at the expiry's length");
                return Ok(Opened {
                    expires_ms: u64::from_be_bytes(expiry),
                    payload,
                });
            }
        }
        Err(StateRefusal::Forged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_is_known_before_sealing() {
        let key = Key::new([9; 32]);
        for len in 0..200 {
            let payload = vec![b'x'; len];
            assert_eq!(seal(&key, &[0; 32], 0, &payload).len(), sealed_len(len));
        }
    }

    #[test]
    fn the_string_is_versioned_and_names_its_key() {
        let key = Key::new([9; 32]);
        let sealed = seal(&key, &[0; 32], 0, b"payload");
        let parts: Vec<&str> = sealed.split('.').collect();
        assert_eq!(parts.len(), 3, "{sealed}");
        assert_eq!(parts[0], "v1");
        assert_eq!(URL_SAFE_NO_PAD.decode(parts[1]).unwrap(), key.id.0);
        assert!(
            sealed
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)),
            "URL-safe: {sealed}"
        );
        // The payload is encrypted, not merely encoded.
        let body = URL_SAFE_NO_PAD.decode(parts[2]).unwrap();
        assert!(!body.windows(7).any(|w| w == b"payload"));
    }

    #[test]
    fn the_binding_and_the_key_must_match() {
        let key = Key::new([9; 32]);
        let sealed = seal(&key, &[1; 32], 42, b"payload");
        let parsed = Sealed::parse(&sealed).unwrap();
        let opened = parsed.open([&key], &[1; 32]).unwrap();
        assert_eq!(
            (opened.expires_ms, &opened.payload[..]),
            (42, &b"payload"[..])
        );
        assert_eq!(
            parsed.open([&key], &[2; 32]).unwrap_err(),
            StateRefusal::Forged
        );
        let other = Key::new([8; 32]);
        assert_eq!(
            parsed.open([&other], &[1; 32]).unwrap_err(),
            StateRefusal::Forged
        );
        // With a colliding id, each candidate is tried.
        assert_eq!(
            parsed.open([&other, &key], &[1; 32]).unwrap().expires_ms,
            42
        );
    }
}
