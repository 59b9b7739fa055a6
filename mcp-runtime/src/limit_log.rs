//! Lines on stderr for limits that are hit: at most one a second for each limit, counting the
//! hits left unsaid, so a flood of refusals does not flood the log (nor write more than once a
//! second per limit to a stderr that nobody reads).

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The stderr line of one limit, kept in a `static` at the place the limit is hit.
pub(crate) struct LimitLog {
    /// The second (since the first line of any limit) of the last line written, plus one.
    last: AtomicU64,
    /// Hits since the last line that wrote none.
    unsaid: AtomicU64,
}

impl LimitLog {
    pub(crate) const fn new() -> LimitLog {
        LimitLog {
            last: AtomicU64::new(0),
            unsaid: AtomicU64::new(0),
        }
    }

    /// Writes `line()` unless this limit wrote a line during the current second.
    ///
    /// Only the call of `line` is generic: each place a limit is hit holds that and a call,
    /// and the rest is [`due`](Self::due) and [`write`], once.
    pub(crate) fn hit(&self, line: impl FnOnce() -> String) {
        if let Some(unsaid) = self.due() {
            write(&line(), unsaid);
        }
    }

    /// Whether a line is due (none was written this second): the hits left unsaid since the
    /// last line, or `None`, counting this one as unsaid.
    #[inline(never)]
    fn due(&self) -> Option<u64> {
        static EPOCH: OnceLock<Instant> = OnceLock::new();
        let now = EPOCH.get_or_init(Instant::now).elapsed().as_secs() + 1;
        let last = self.last.load(Ordering::Relaxed);
        let due = now > last
            && self
                .last
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
        if !due {
            self.unsaid.fetch_add(1, Ordering::Relaxed);
            return None;
        }
        Some(self.unsaid.swap(0, Ordering::Relaxed))
    }
}

/// Writes a limit's line, with the hits left unsaid before it.
#[inline(never)]
fn write(line: &str, unsaid: u64) {
    match unsaid {
        0 => crate::stderr::line(format_args!("mcp: {line}")),
        unsaid => crate::stderr::line(format_args!(
            "mcp: {line} ({unsaid} more time(s) since the last line)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_hit_within_the_second_is_counted_not_written() {
        let log = LimitLog::new();
        let mut written = 0;
        for _ in 0..3 {
            log.hit(|| {
                written += 1;
                "a limit was hit in a test".to_owned()
            });
        }
        // The three hits may straddle a second's turn, which writes a second line and says
        // how many went unsaid before it.
        let unsaid = log.unsaid.load(Ordering::Relaxed);
        assert!(
            written == 1 && unsaid == 2 || written == 2,
            "{written} lines, {unsaid} unsaid"
        );
    }
}
