//! Asking the issuer again after it failed: not before a wait that grows with each failure in a
//! row, so that the requests arriving meanwhile are answered at once instead of each waiting
//! on an issuer that is down.

use std::time::{Duration, Instant};

/// Failures in a row, and when the next attempt may be made: [`FIRST_RETRY`] after the first,
/// doubling up to a most.
pub(crate) struct Failing {
    pub(crate) failures: u32,
    pub(crate) retry_at: Instant,
}

/// The wait after a first failure before the next attempt.
pub(crate) const FIRST_RETRY: Duration = Duration::from_secs(1);

impl Failing {
    /// The record after one more failure, at `now`, waiting at most `most`.
    pub(crate) fn after(previous: Option<&Failing>, now: Instant, most: Duration) -> Failing {
        let failures = previous
            .map_or(0, |failing| failing.failures)
            .saturating_add(1);
        let wait = FIRST_RETRY
            .saturating_mul(1 << (failures - 1).min(16))
            .min(most.max(FIRST_RETRY));
        Failing {
            failures,
            retry_at: now + wait,
        }
    }

    /// Whether `failing` says to wait still.
    pub(crate) fn waiting(failing: Option<&Failing>) -> bool {
        failing.is_some_and(|failing| Instant::now() < failing.retry_at)
    }

    /// The seconds left before the next attempt, rounded up (for a log line).
    pub(crate) fn seconds_left(&self) -> f32 {
        self.retry_at
            .saturating_duration_since(Instant::now())
            .as_secs_f32()
            .ceil()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_after_failures_doubles_up_to_the_most() {
        let now = Instant::now();
        let most = Duration::from_secs(30);
        let mut failing = None;
        let mut waits = Vec::new();
        for _ in 0..8 {
            let next = Failing::after(failing.as_ref(), now, most);
            waits.push(next.retry_at.duration_since(now).as_secs());
            failing = Some(next);
        }
        assert_eq!(waits, [1, 2, 4, 8, 16, 30, 30, 30]);
        let shortest = Failing::after(None, now, Duration::ZERO);
        assert_eq!(shortest.retry_at.duration_since(now), FIRST_RETRY);
    }
}
