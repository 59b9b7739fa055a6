//! Time as sealed state counts it: milliseconds since the Unix epoch, from the `now` the
//! caller passes (so tests drive time without sleeping).

use std::time::{Duration, SystemTime};

/// Milliseconds since the Unix epoch; 0 before it, `u64::MAX` past what fits.
pub(super) fn unix_ms(time: SystemTime) -> u64 {
    let since = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO);
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}
