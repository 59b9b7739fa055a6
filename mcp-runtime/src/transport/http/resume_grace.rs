//! The time a client has to resume a request's stream it lost before the request is
//! cancelled: one timer per stream, however often the client resumes it and loses it again.
//!
//! Each loss restarts the grace. A timer per loss would let a client that resumes and drops
//! the same stream in a loop make the server hold a sleeping task per drop for the whole
//! grace; here a loss while the timer runs only moves the time it waits for.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use tokio::time::Instant;

use crate::longest_duration::at_most_a_year;

/// When a stream was last lost, while its grace runs.
pub(super) struct GraceTimer {
    grace: Duration,
    /// The latest loss, while a timer runs; `None` when none runs.
    lost: Mutex<Option<Instant>>,
}

impl GraceTimer {
    /// A timer of `grace`, at most a year (`Duration::MAX` for "as long as it takes"): a time
    /// an `Instant` can be moved by on every platform.
    pub(super) fn new(grace: Duration) -> GraceTimer {
        GraceTimer {
            grace: at_most_a_year(grace),
            lost: Mutex::new(None),
        }
    }

    /// Records a loss of the stream. True when no timer runs: the caller starts one, which
    /// [`expired`](Self::expired) ends.
    pub(super) fn lost(&self) -> bool {
        let mut lost = self.lost.lock().unwrap_or_else(PoisonError::into_inner);
        let start = lost.is_none();
        *lost = Some(Instant::now());
        start
    }

    /// Waits until the grace has passed since the latest loss; the next loss starts another
    /// timer.
    pub(super) async fn expired(&self) {
        loop {
            let deadline = {
                let mut lost = self.lost.lock().unwrap_or_else(PoisonError::into_inner);
                match *lost {
                    Some(at) if at + self.grace > Instant::now() => at + self.grace,
                    _ => {
                        *lost = None;
                        return;
                    }
                }
            };
            tokio::time::sleep_until(deadline).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_loss_while_the_timer_runs_moves_its_end_and_starts_no_other() {
        let timer = GraceTimer::new(Duration::from_secs(30));
        let start = Instant::now();
        assert!(timer.lost(), "the first loss starts a timer");
        tokio::time::sleep(Duration::from_secs(20)).await;
        assert!(!timer.lost(), "a loss while it runs starts none");
        timer.expired().await;
        assert_eq!(
            start.elapsed(),
            Duration::from_secs(50),
            "30 s after the latest loss"
        );
        assert!(timer.lost(), "once it ended, the next loss starts one");
    }

    /// `HttpOptions::resume_grace(Duration::MAX)` waits (a year), where adding it to the
    /// time of the loss panicked.
    #[tokio::test(start_paused = true)]
    async fn the_longest_grace_waits_without_overflowing() {
        let timer = GraceTimer::new(Duration::MAX);
        assert!(timer.lost());
        let waited = tokio::time::timeout(Duration::from_secs(3600), timer.expired()).await;
        assert!(waited.is_err(), "an endless grace ended within an hour");
    }
}
