//! The code that seals and opens states with keys (XChaCha20-Poly1305, the key ring, key
//! files), reached only through what can need it: a server none of whose handlers can ask the
//! client never seals a state, and its binary need not carry that code (about 50 KB of a
//! release build).
//!
//! [`link_sealing`] fills the table. It is called by what can need it:
//! - every maker of keys but `StateKeys::random` (`from_keys`, `from_file`, `from_env`,
//!   `watch_file`: each makes its keys' ids with the cipher, so linking costs them nothing);
//! - what declares a handler that may ask (`Requirements::may_ask_client`: the `declare` of
//!   `Context` and of every `FromContext` type that does not say otherwise), a tool written
//!   by hand or built at run time, and every resource and prompt, when its entry is made;
//! - and the asking itself, before a question is recorded, so that a state is never sealed
//!   without it.
//!
//! Without it a server holds only its random keys, which have sealed nothing: `StateKeys`
//! then refuses every state sent back as one "sealed with a key this server does not hold",
//! after the same checks of its length and form, which is what those keys answer.

use std::path::Path;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use super::binding::Binding;
use super::error::StateRefusal;
use super::format::Sealed;
use super::state_keys::StateKeys;

/// Opening a state of the sealed form: its payload, or why it is refused.
type Open = fn(&StateKeys, &Binding<'_>, &Sealed<'_>, SystemTime) -> Result<Vec<u8>, StateRefusal>;

/// Sealing and opening with keys, once linked.
pub(super) struct SealingCode {
    /// Seals a payload bound to a request, good until an expiry (ms since the epoch).
    pub(super) seal: fn(&StateKeys, &Binding<'_>, &[u8], u64, SystemTime) -> String,
    /// Opens a state of the sealed form, checking its key, its binding and its expiry.
    pub(super) open: Open,
    /// `StateKeys::watch_file`, for a command line naming a key file; the error said (its
    /// wording too is code that only sealing needs).
    watch_file: fn(&Path, Duration) -> Result<StateKeys, String>,
}

static SEALING: OnceLock<SealingCode> = OnceLock::new();

/// Links sealing and opening in.
pub(crate) fn link_sealing() {
    SEALING.get_or_init(|| SealingCode {
        seal: StateKeys::seal_linked,
        open: StateKeys::open_linked,
        watch_file: |path, grace| {
            StateKeys::watch_file(path, grace).map_err(|error| error.to_string())
        },
    });
}

/// The code, if linked.
pub(super) fn sealing() -> Option<&'static SealingCode> {
    SEALING.get()
}

/// [`StateKeys::watch_file`] for a key file named on the command line (its error said), if a
/// handler of the server can ask the client; `None` if none can (the server then seals
/// nothing, and the file is not read).
pub(crate) fn watch_file_if_sealing(
    path: &Path,
    grace: Duration,
) -> Option<Result<StateKeys, String>> {
    sealing().map(|code| (code.watch_file)(path, grace))
}
