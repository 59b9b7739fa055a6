//! What an ended stdio serving leaves of stdin, for the next serving in the same process.
//!
//! Stdin is the process's one input, and [`serve_stdio`](crate::Server::serve_stdio) may be
//! called again once it has returned or its future was dropped. What the ended serving had
//! taken in but not handled comes first in the next one, in the order it came:
//! - the start of a line whose newline had not arrived (its framer's partial line);
//! - chunks its fallback reader thread had read and the serving not yet taken;
//! - what one of its reader threads reads after it ended: a thread blocked in `read` on
//!   descriptor 0 cannot be called back, and takes in the client's next bytes when they come.
//!
//! So each reader thread carries a [`Reader`] of its serving, and keeps here what it reads
//! once its serving is over instead of handling it; and a serving begins by waiting until
//! the readers of earlier servings have ended (each after at most one more read) and taking
//! what was kept ([`Serving::taken`]).

use std::sync::{Condvar, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::lines::Unframed;

/// One serving of stdio, in the order servings began in this process.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Serving(u64);

/// A reader thread of a serving, registered for as long as it lives.
pub(crate) struct Reader(u64);

/// What was kept for the next serving: the bytes (and whether they begin inside a line too
/// long to keep), and whether stdin's end was read after its serving was over.
#[derive(Default)]
pub(crate) struct Kept {
    pub(crate) unframed: Unframed,
    pub(crate) ended: bool,
}

struct Left {
    /// How many servings have begun.
    servings: u64,
    /// The serving of each reader thread alive.
    readers: Vec<u64>,
    kept: Kept,
}

static LEFT: Mutex<Left> = Mutex::new(Left {
    servings: 0,
    readers: Vec::new(),
    kept: Kept {
        unframed: Unframed {
            bytes: Vec::new(),
            skipping: false,
        },
        ended: false,
    },
});

/// Signalled when a reader thread ends, for threads that wait.
static READER_ENDED: Condvar = Condvar::new();

/// Signalled when a reader thread ends, for the serving loop.
static READER_ENDED_ASYNC: Notify = Notify::const_new();

#[inline(never)] // One copy of the locking for every `keep` and the rest, all off the hot path.
fn left() -> MutexGuard<'static, Left> {
    // Nothing panics while holding it.
    LEFT.lock().unwrap_or_else(|e| e.into_inner())
}

impl Serving {
    /// A serving begins.
    pub(crate) fn begin() -> Serving {
        let mut left = left();
        left.servings += 1;
        Serving(left.servings)
    }

    /// Registers a reader thread of this serving, before it is started; it ends with the
    /// thread.
    pub(crate) fn reader(self) -> Reader {
        left().readers.push(self.0);
        Reader(self.0)
    }

    /// What the servings before this one left, once their reader threads have ended (each
    /// ends after at most one more read, which it keeps).
    pub(crate) async fn taken(self) -> Kept {
        loop {
            let ended = READER_ENDED_ASYNC.notified();
            let mut ended = std::pin::pin!(ended);
            // Registered before looking, so an end signalled in between is not missed.
            ended.as_mut().enable();
            {
                let mut left = left();
                if !self.has_earlier_readers(&left) {
                    return std::mem::take(&mut left.kept);
                }
            }
            ended.await;
        }
    }

    /// On a reader thread: waits until the reader threads of earlier servings have ended,
    /// so that it reads stdin only after them.
    pub(crate) fn wait_for_earlier_readers(self) {
        let mut left = left();
        while self.has_earlier_readers(&left) {
            left = READER_ENDED.wait(left).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn has_earlier_readers(self, left: &Left) -> bool {
        left.readers.iter().any(|&serving| serving < self.0)
    }
}

impl Drop for Reader {
    fn drop(&mut self) {
        let mut left = left();
        if let Some(at) = left.readers.iter().position(|&serving| serving == self.0) {
            left.readers.swap_remove(at);
        }
        drop(left);
        READER_ENDED.notify_all();
        READER_ENDED_ASYNC.notify_waiters();
    }
}

/// Keeps, with `f`, what a serving leaves; nothing else is kept meanwhile, so what `f` keeps
/// stays in the order it gives.
pub(crate) fn keep<R>(f: impl FnOnce(&mut Kept) -> R) -> R {
    f(&mut left().kept)
}

impl Kept {
    /// What a framer held of a line not yet ended: it comes before anything read after.
    pub(crate) fn unframed(&mut self, unframed: Unframed) {
        let mut bytes = unframed.bytes;
        bytes.extend_from_slice(&self.unframed.bytes);
        self.unframed.bytes = bytes;
        self.unframed.skipping |= unframed.skipping;
    }

    /// Bytes read from stdin that no serving handled, after those kept before.
    pub(crate) fn read(&mut self, bytes: &[u8]) {
        self.unframed.bytes.extend_from_slice(bytes);
    }

    /// Stdin's end was read, and no serving saw it.
    pub(crate) fn end(&mut self) {
        self.ended = true;
    }
}
