//! The finished request streams of all sessions, kept for a client that resumes one (it lost
//! the stream before it read the reply): at most [`HttpOptions::max_finished_streams`], the
//! oldest forgotten first.
//!
//! A session forgets its finished streams when it opens its next one, or ends. That alone
//! would let many sessions that each finish many requests at once, then go quiet, hold every
//! one of them until they expire (`session_idle`).
//!
//! [`HttpOptions::max_finished_streams`]: super::HttpOptions::max_finished_streams

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError, Weak};

use super::sessions::HttpSession;

/// The streams that finished, oldest first; some may be forgotten already by their session.
pub(super) struct FinishedStreams {
    max: usize,
    kept: Mutex<VecDeque<(Weak<HttpSession>, u64)>>,
}

impl FinishedStreams {
    pub(super) fn new(max: usize) -> FinishedStreams {
        FinishedStreams {
            max,
            kept: Mutex::default(),
        }
    }

    /// Records that `session`'s stream `stream` finished, and forgets the oldest finished
    /// streams past the bound.
    pub(super) fn finished(&self, session: Weak<HttpSession>, stream: u64) {
        let mut over = Vec::new();
        {
            let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
            kept.push_back((session, stream));
            while kept.len() > self.max {
                over.extend(kept.pop_front());
            }
        }
        for (session, stream) in over {
            if let Some(session) = session.upgrade() {
                session.forget_stream(stream);
            }
        }
    }
}
