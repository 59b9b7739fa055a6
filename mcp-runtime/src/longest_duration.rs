//! The longest duration a setting is taken at: a year. `Duration::MAX`, the natural way to say
//! "no end", cannot be added to a clock, and Redis refuses an expiry that long; a year is
//! longer than any server runs between restarts, and fits both.

use std::time::Duration;

/// A year: the longest a time to live, a grace or a poll interval is taken at.
pub(crate) const LONGEST: Duration = Duration::from_secs(365 * 24 * 60 * 60);

/// `duration`, or a year when it is longer.
pub(crate) fn at_most_a_year(duration: Duration) -> Duration {
    duration.min(LONGEST)
}
