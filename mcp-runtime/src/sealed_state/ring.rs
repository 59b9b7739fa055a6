//! The key ring: one current key that seals, older keys that still open, and keys removed
//! from a watched key file that open until their grace period ends. Each key has a short id,
//! carried in every sealed string, so opening picks its key without trying them all.

use std::fmt;
use std::time::{Duration, SystemTime};

use super::clock::unix_ms;

use chacha20poly1305::aead::inout::InOutBuf;
use chacha20poly1305::{AeadInOut, KeyInit, XChaCha20Poly1305, XNonce};

/// A key's check value, made the way a block cipher's is: four zero bytes encrypted under
/// the key, here with a nonce of its own (so the first 4 bytes of the key's XChaCha20
/// keystream at that nonce). It names the key in a sealed string and tells nothing useful
/// about it, the keystream being a pseudorandom function of the key; seals draw their
/// nonces at random from 2^192 values, so none uses this one.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct KeyId(pub(super) [u8; 4]);

/// The nonce of key ids.
const KEY_ID_NONCE: [u8; 24] = *b"mcp-runtime state key id";

impl KeyId {
    fn of(secret: &[u8; 32]) -> KeyId {
        let mut id = [0u8; 4];
        XChaCha20Poly1305::new(&(*secret).into())
            .encrypt_inout_detached(
                &XNonce::from(KEY_ID_NONCE),
                &[],
                InOutBuf::from(&mut id[..]),
            )
            .expect("XChaCha20-Poly1305 encrypts four bytes");
        KeyId(id)
    }
}

impl fmt::Debug for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// One key, ready to seal and open.
#[derive(Clone)]
pub(super) struct Key {
    pub(super) id: KeyId,
    secret: [u8; 32],
    pub(super) cipher: XChaCha20Poly1305,
}

impl Key {
    pub(super) fn new(secret: [u8; 32]) -> Key {
        Key {
            id: KeyId::of(&secret),
            cipher: XChaCha20Poly1305::new(&secret.into()),
            secret,
        }
    }
}

/// A key that opens but does not seal.
#[derive(Clone)]
struct Older {
    key: Key,
    /// `None` while the key is listed; the end of its grace period (ms since the epoch) once
    /// it was removed.
    retires: Option<u64>,
}

/// The keys of one moment.
#[derive(Clone)]
pub(super) struct Ring {
    current: Key,
    older: Vec<Older>,
}

impl Ring {
    /// The ring of a list of distinct keys, the first current; `None` if the list is empty.
    pub(super) fn new(secrets: &[[u8; 32]]) -> Option<Ring> {
        let (first, rest) = secrets.split_first()?;
        Some(Ring {
            current: Key::new(*first),
            older: rest
                .iter()
                .map(|secret| Older {
                    key: Key::new(*secret),
                    retires: None,
                })
                .collect(),
        })
    }

    pub(super) fn current(&self) -> &Key {
        &self.current
    }

    /// The keys that may open a state sealed under `id` at `now`: usually one, more only if
    /// two keys' ids collide.
    pub(super) fn openers(&self, id: KeyId, now: SystemTime) -> impl Iterator<Item = &Key> {
        let now = unix_ms(now);
        let older = self
            .older
            .iter()
            .filter(move |older| older.retires.is_none_or(|retires| now < retires))
            .map(|older| &older.key);
        std::iter::once(&self.current)
            .chain(older)
            .filter(move |key| key.id == id)
    }

    /// The ring after the key list became `secrets` (distinct, not empty) at `now`: the first
    /// seals, the others open, and a key of this ring that is no longer listed opens until
    /// `grace` after `now` (or its earlier deadline, if it was already removed before).
    pub(super) fn rotated(&self, secrets: &[[u8; 32]], now: SystemTime, grace: Duration) -> Ring {
        let mut ring = Ring::new(secrets).expect("a key list read from a file is not empty");
        let now = unix_ms(now);
        let grace = u64::try_from(grace.as_millis()).unwrap_or(u64::MAX);
        let held = std::iter::once(Older {
            key: self.current.clone(),
            retires: None,
        })
        .chain(self.older.iter().cloned());
        for mut older in held {
            if secrets.contains(&older.key.secret) {
                continue;
            }
            let retires = *older
                .retires
                .get_or_insert_with(|| now.saturating_add(grace));
            if now < retires {
                ring.older.push(older);
            }
        }
        ring
    }

    /// The same keys in the same roles (deadlines aside).
    pub(super) fn lists(&self, secrets: &[[u8; 32]]) -> bool {
        let listed = std::iter::once(&self.current).chain(
            self.older
                .iter()
                .filter(|o| o.retires.is_none())
                .map(|o| &o.key),
        );
        listed.map(|key| &key.secret).eq(secrets.iter())
    }
}

impl fmt::Debug for Ring {
    /// Key ids only, never key material.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_struct("Ring");
        list.field("seals", &self.current.id);
        let opens: Vec<_> = self.older.iter().map(|older| older.key.id).collect();
        list.field("also_opens", &opens).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: [u8; 32] = [1; 32];
    const B: [u8; 32] = [2; 32];
    const C: [u8; 32] = [3; 32];

    fn opens(ring: &Ring, secret: [u8; 32], now: SystemTime) -> bool {
        ring.openers(KeyId::of(&secret), now).next().is_some()
    }

    #[test]
    fn key_ids_differ_between_keys() {
        assert_ne!(KeyId::of(&A), KeyId::of(&B));
        assert_eq!(format!("{:?}", KeyId([0, 1, 0xab, 0xff])), "0001abff");
    }

    #[test]
    fn a_key_id_is_the_same_in_every_instance_and_version() {
        // Instances sharing a key file must agree on its ids: a change here refuses every
        // state sealed before it.
        assert_eq!(format!("{:?}", KeyId::of(&A)), "55aacc59");
    }

    #[test]
    fn a_removed_key_opens_until_its_grace_ends_and_keeps_its_first_deadline() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let grace = Duration::from_secs(600);
        let ring = Ring::new(&[A, B]).unwrap();
        let ring = ring.rotated(&[C], t0, grace);
        assert_eq!(ring.current().id, KeyId::of(&C));
        assert!(opens(&ring, A, t0) && opens(&ring, B, t0));
        assert!(opens(&ring, A, t0 + grace - Duration::from_secs(1)));
        assert!(!opens(&ring, A, t0 + grace));
        // A later rotation does not extend the grace of a key already removed.
        let later = ring.rotated(&[C, [4; 32]], t0 + Duration::from_secs(300), grace);
        assert!(opens(&later, B, t0 + grace - Duration::from_secs(1)));
        assert!(!opens(&later, B, t0 + grace));
        // A key listed again opens for good.
        let back = later.rotated(&[C, A], t0 + Duration::from_secs(301), grace);
        assert!(opens(&back, A, t0 + grace * 10));
        assert!(back.lists(&[C, A]) && !back.lists(&[C]));
    }

    #[test]
    fn a_grace_too_long_for_the_clock_lasts_for_ever() {
        let t0 = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let ring = Ring::new(&[A]).unwrap().rotated(&[B], t0, Duration::MAX);
        assert!(opens(&ring, A, t0 + Duration::from_secs(1 << 40)));
    }

    #[test]
    fn the_debug_form_shows_key_ids_only() {
        let ring = Ring::new(&[A, B]).unwrap();
        let shown = format!("{ring:?}");
        assert!(shown.contains(&format!("{:?}", KeyId::of(&A))), "{shown}");
        assert!(!shown.contains("[1, 1"), "{shown}");
    }
}
