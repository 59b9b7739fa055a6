//! `StateKeys`, the public face of sealed state: where the keys come from (random, a list, a
//! file, an environment variable, a watched file), and sealing and opening with them.

use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

use super::binding::Binding;
use super::clock::unix_ms;
use super::error::{KeySource, SealError, StateKeysError, StateRefusal};
use super::format::{self, Sealed};
use super::key_file;
use super::linked::{link_sealing, sealing};
use super::ring::Ring;
use super::rotation::WatchedFile;

/// The keys that seal the `requestState` of input-required results (MCP 2026-07-28): one
/// current key that seals, and older keys that still open, so keys can be rotated while
/// states sealed before keep working.
///
/// A sealed state is encrypted and authenticated (XChaCha20-Poly1305), expires, and is bound
/// to the request it was issued for (method, tool or prompt name or resource URI, arguments,
/// audience): a client can neither read it, alter it, keep it past its lifetime, nor use it
/// with another request. Several instances of a server behind a load balancer must share their
/// keys, so that a retry reaching another instance opens the state the first one sealed: give
/// them the same key file ([`StateKeys::from_file`], or [`StateKeys::watch_file`] to rotate
/// without a restart) or environment variable ([`StateKeys::from_env`]). Without keys, a server
/// uses [`StateKeys::random`], which only that process can open.
///
/// Cloning is cheap: the keys are shared.
///
/// ```
/// use mcp_runtime::StateKeys;
///
/// // The first key seals; both open.
/// let keys = StateKeys::from_keys([[7u8; 32], [3u8; 32]])?;
/// // A longer limit on the `requestState` a client may send back (64 KiB by default).
/// let keys = keys.with_max_len(128 * 1024);
/// # let _ = keys;
/// # Ok::<(), mcp_runtime::StateKeysError>(())
/// ```
#[derive(Clone)]
pub struct StateKeys {
    keys: Arc<Keys>,
    max_len: usize,
}

/// Where the ring comes from.
enum Keys {
    Fixed(Arc<Ring>),
    /// One random key, drawn when first used: most servers never seal a state, and drawing
    /// it (the random bytes, the cipher's key schedule) was work at every start.
    Random(OnceLock<Arc<Ring>>),
    Watched(WatchedFile),
}

impl Keys {
    /// The ring of [`Keys::Random`], drawn now if it was not yet.
    fn random_ring(drawn: &OnceLock<Arc<Ring>>) -> &Arc<Ring> {
        drawn.get_or_init(|| {
            let mut secret = [0u8; 32];
            getrandom::fill(&mut secret).expect("the operating system provides random bytes");
            Arc::new(Ring::new(&[secret]).expect("one key"))
        })
    }
}

impl StateKeys {
    /// The longest `requestState` accepted back unless [`StateKeys::with_max_len`] says
    /// otherwise: 64 KiB. A longer one is refused from its length alone, before any decoding.
    ///
    /// ```
    /// use mcp_runtime::StateKeys;
    ///
    /// // Room for four times the default, for servers that keep long answers across rounds.
    /// let keys = StateKeys::random().with_max_len(4 * StateKeys::DEFAULT_MAX_LEN);
    /// # let _ = keys;
    /// ```
    pub const DEFAULT_MAX_LEN: usize = 64 * 1024;

    /// How long a sealed state stays valid: 10 minutes (as the TypeScript SDK's; not a
    /// setting). Also the grace period to give [`StateKeys::watch_file`], so
    /// that a state sealed just before its key was removed still opens until it expires.
    ///
    /// ```
    /// use mcp_runtime::StateKeys;
    ///
    /// assert_eq!(StateKeys::DEFAULT_LIFETIME.as_secs(), 600);
    /// ```
    pub const DEFAULT_LIFETIME: Duration = Duration::from_secs(600);

    /// One key of 32 random bytes: the default, which only this process can open (a restart,
    /// or a retry reaching another instance, refuses the states it sealed). The bytes are drawn
    /// when the keys are first used.
    ///
    /// ```
    /// let keys = mcp_runtime::StateKeys::random();
    /// # let _ = keys;
    /// ```
    pub fn random() -> StateKeys {
        StateKeys {
            keys: Arc::new(Keys::Random(OnceLock::new())),
            max_len: StateKeys::DEFAULT_MAX_LEN,
        }
    }

    /// The given keys, the first current (it seals) and every one opening. Fails if there is
    /// none or two are the same.
    ///
    /// ```
    /// use mcp_runtime::StateKeys;
    ///
    /// let keys = StateKeys::from_keys([[1u8; 32]])?;
    /// # let _ = keys;
    /// assert!(StateKeys::from_keys([]).is_err());
    /// assert!(StateKeys::from_keys([[1u8; 32], [1u8; 32]]).is_err());
    /// # Ok::<(), mcp_runtime::StateKeysError>(())
    /// ```
    pub fn from_keys(
        keys: impl IntoIterator<Item = [u8; 32]>,
    ) -> Result<StateKeys, StateKeysError> {
        let numbered = keys
            .into_iter()
            .enumerate()
            .map(|(index, key)| (index + 1, key));
        let secrets = key_file::distinct(numbered, &KeySource::List)?;
        link_sealing();
        Ok(StateKeys::fixed(&secrets))
    }

    /// The keys of a file: one key per line, 32 random bytes in base64 (standard or URL-safe,
    /// padded or not: `openssl rand -base64 32` writes one), the first line the current key;
    /// blank lines and lines starting with `#` are ignored. An error names the file and the
    /// line, and says what a valid line is; it never shows a key. The file is read once: see
    /// [`StateKeys::watch_file`] to rotate without a restart.
    ///
    /// ```
    /// use mcp_runtime::StateKeys;
    ///
    /// let path = std::env::temp_dir().join(format!("state-keys-doc-{}", std::process::id()));
    /// std::fs::write(&path, "# current\nAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n")?;
    /// let keys = StateKeys::from_file(&path)?;
    /// # let _ = keys;
    ///
    /// std::fs::write(&path, "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\nAQID\n")?;
    /// let error = StateKeys::from_file(&path).unwrap_err();
    /// assert!(error.to_string().contains("line 2: the key is 3 bytes long, not 32"));
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_file(path: impl AsRef<Path>) -> Result<StateKeys, StateKeysError> {
        link_sealing();
        Ok(StateKeys::fixed(&key_file::read_file(path.as_ref())?))
    }

    /// The keys of an environment variable: the same base64 keys as in a file, separated by
    /// commas or newlines, the first current.
    ///
    /// ```
    /// use mcp_runtime::StateKeys;
    ///
    /// let keys = match StateKeys::from_env("MY_SERVER_STATE_KEYS") {
    ///     Ok(keys) => keys,
    ///     Err(error) => {
    ///         // "environment variable MY_SERVER_STATE_KEYS is not set; the variable holds ..."
    ///         assert!(error.to_string().contains("is not set"));
    ///         StateKeys::random()
    ///     }
    /// };
    /// # let _ = keys;
    /// ```
    pub fn from_env(var: &str) -> Result<StateKeys, StateKeysError> {
        link_sealing();
        Ok(StateKeys::fixed(&key_file::read_env(var)?))
    }

    /// The keys of a file, as [`StateKeys::from_file`] reads them, and again whenever the file
    /// changes, without a restart.
    ///
    /// The file is looked at by the sealing and opening themselves, at most once a second
    /// (one `stat`; it is read again only when its modification time, length or inode
    /// changed): no background task. A new first line becomes the key that seals. A key that
    /// disappears from the file keeps opening, never sealing, for `grace` after the change was
    /// seen ([`StateKeys::DEFAULT_LIFETIME`], the states' lifetime, is the right grace), so
    /// states sealed just before still open. A file that becomes unreadable or invalid
    /// changes nothing: the keys read before stay, and a line on stderr says why. The file
    /// must be valid now: its error is returned.
    ///
    /// To rotate: add the new key as the second line and wait until every instance has read
    /// it (a second after it next seals or opens a state), then move it to the first line;
    /// remove the old key once no state sealed with it can be alive (its lifetime later).
    ///
    /// ```
    /// use mcp_runtime::StateKeys;
    ///
    /// let path = std::env::temp_dir().join(format!("state-keys-watch-doc-{}", std::process::id()));
    /// std::fs::write(&path, "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=\n")?;
    /// let keys = StateKeys::watch_file(&path, StateKeys::DEFAULT_LIFETIME)?;
    /// # let _ = keys;
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn watch_file(
        path: impl AsRef<Path>,
        grace: Duration,
    ) -> Result<StateKeys, StateKeysError> {
        link_sealing();
        let watched = WatchedFile::open(path.as_ref(), grace)?;
        Ok(StateKeys {
            keys: Arc::new(Keys::Watched(watched)),
            max_len: StateKeys::DEFAULT_MAX_LEN,
        })
    }

    /// The longest `requestState` a client may send back, in bytes
    /// ([`StateKeys::DEFAULT_MAX_LEN`] unless set): a longer one is refused from its length
    /// alone, and a state that would seal longer is not sealed.
    ///
    /// ```
    /// let keys = mcp_runtime::StateKeys::random().with_max_len(16 * 1024);
    /// # let _ = keys;
    /// ```
    pub fn with_max_len(self, bytes: usize) -> StateKeys {
        StateKeys {
            max_len: bytes,
            ..self
        }
    }

    fn fixed(secrets: &[[u8; 32]]) -> StateKeys {
        let ring = Ring::new(secrets).expect("the caller checked that there is a key");
        StateKeys {
            keys: Arc::new(Keys::Fixed(Arc::new(ring))),
            max_len: StateKeys::DEFAULT_MAX_LEN,
        }
    }

    fn ring(&self, now: SystemTime) -> Arc<Ring> {
        match &*self.keys {
            Keys::Fixed(ring) => Arc::clone(ring),
            Keys::Random(drawn) => Arc::clone(Keys::random_ring(drawn)),
            Keys::Watched(watched) => watched.ring(now),
        }
    }

    /// Seals `payload` for the request `binding` describes, valid for `lifetime` from `now`.
    /// Two seals of the same payload differ (a random nonce each). Fails if the sealed string
    /// would be longer than `open` accepts.
    pub(crate) fn seal(
        &self,
        binding: &Binding<'_>,
        payload: &[u8],
        lifetime: Duration,
        now: SystemTime,
    ) -> Result<String, SealError> {
        let len = format::sealed_len(payload.len());
        if len > self.max_len {
            return Err(SealError::TooLarge {
                len,
                limit: self.max_len,
            });
        }
        let expires = now.checked_add(lifetime).map_or(u64::MAX, unix_ms);
        // There is a state to seal only once a handler asked, and asking links the code.
        let code = sealing().expect("a handler's question links sealing before it is recorded");
        Ok((code.seal)(self, binding, payload, expires, now))
    }

    /// [`seal`](Self::seal)'s sealing, once linked.
    pub(super) fn seal_linked(
        &self,
        binding: &Binding<'_>,
        payload: &[u8],
        expires: u64,
        now: SystemTime,
    ) -> String {
        let ring = self.ring(now);
        format::seal(ring.current(), &binding.encoded(), expires, payload)
    }

    /// The payload of a state sealed by these keys (or by any instance sharing them) for the
    /// request `binding` describes, if it has not expired at `now` (give or take
    /// [`EXPIRY_LEEWAY`]).
    pub(crate) fn open(
        &self,
        binding: &Binding<'_>,
        sealed: &str,
        now: SystemTime,
    ) -> Result<Vec<u8>, StateRefusal> {
        if sealed.len() > self.max_len {
            return Err(StateRefusal::TooLarge {
                limit: self.max_len,
            });
        }
        let parsed = Sealed::parse(sealed)?;
        match sealing() {
            Some(code) => (code.open)(self, binding, &parsed, now),
            // Only random keys, which have sealed nothing (see `linked`).
            None => Err(StateRefusal::UnknownKey),
        }
    }

    /// [`open`](Self::open) of a state of the sealed form, once linked.
    pub(super) fn open_linked(
        &self,
        binding: &Binding<'_>,
        parsed: &Sealed<'_>,
        now: SystemTime,
    ) -> Result<Vec<u8>, StateRefusal> {
        let ring = self.ring(now);
        let mut keys = ring.openers(parsed.key_id, now).peekable();
        if keys.peek().is_none() {
            return Err(StateRefusal::UnknownKey);
        }
        let opened = parsed.open(keys, &binding.encoded())?;
        let late = unix_ms(now).saturating_sub(opened.expires_ms);
        if late > EXPIRY_LEEWAY.as_millis() as u64 {
            return Err(StateRefusal::Expired {
                by: Duration::from_millis(late),
            });
        }
        Ok(opened.payload)
    }
}

/// How long past its expiry a state is still accepted: instances sharing keys may have
/// clocks a few seconds apart, and a retry sent just before expiry takes time to arrive.
pub(crate) const EXPIRY_LEEWAY: Duration = Duration::from_secs(5);

impl fmt::Debug for StateKeys {
    /// Key ids only, never keys.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("StateKeys");
        match &*self.keys {
            Keys::Fixed(ring) => debug.field("ring", ring),
            Keys::Random(drawn) => debug.field("ring", Keys::random_ring(drawn)),
            Keys::Watched(watched) => debug
                .field("file", &watched.path())
                .field("ring", &watched.last_ring()),
        };
        debug.field("max_len", &self.max_len).finish()
    }
}
