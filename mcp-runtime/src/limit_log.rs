//! Lines on stderr for limits that are hit: at most one a second for each limit, counting the
//! hits left unsaid, so a flood of refusals does not flood the log (nor write more than once a
//! second per limit to a stderr that nobody reads). Hits left unsaid are said with the next
//! line of their limit, or, when none comes, at the end of the last line's second (by the
//! thread that writes stderr), so a burst is never reported as a single hit.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The stderr line of one limit, kept in a `static` at the place the limit is hit.
pub(crate) struct LimitLog {
    /// The second (since the first line of any limit) of the last line written, plus one.
    last: AtomicU64,
    /// Hits since the last line that wrote none.
    unsaid: AtomicU64,
    /// The last line written, for the report of the hits left unsaid after it.
    said: Mutex<String>,
}

/// When the limits' seconds are counted from.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

impl LimitLog {
    pub(crate) const fn new() -> LimitLog {
        LimitLog {
            last: AtomicU64::new(0),
            unsaid: AtomicU64::new(0),
            said: Mutex::new(String::new()),
        }
    }

    /// Writes `line()` unless this limit wrote a line during the current second.
    ///
    /// Only the call of `line` is generic: each place a limit is hit holds that and a call,
    /// and the rest is [`due`](Self::due) and [`write`], once.
    pub(crate) fn hit(&'static self, line: impl FnOnce() -> String) {
        if let Some(unsaid) = self.due() {
            self.write(line(), unsaid);
        }
    }

    /// Whether a line is due (none was written this second): the hits left unsaid since the
    /// last line, or `None`, counting this one as unsaid (and, for the first such hit, making
    /// sure they are said in the next second if no line says them before).
    #[inline(never)]
    fn due(&'static self) -> Option<u64> {
        let now = epoch().elapsed().as_secs() + 1;
        let last = self.last.load(Ordering::Relaxed);
        let due = now > last
            && self
                .last
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok();
        if !due {
            if self.unsaid.fetch_add(1, Ordering::Relaxed) == 0 {
                // At the end of the second of the line that made this hit unsaid (another
                // thread's, if it wrote one just now).
                let second = self.last.load(Ordering::Relaxed);
                crate::stderr::line_later(epoch() + Duration::from_secs(second), self);
            }
            return None;
        }
        Some(self.unsaid.swap(0, Ordering::Relaxed))
    }

    /// Writes a limit's line, with the hits left unsaid before it.
    #[inline(never)]
    fn write(&self, line: String, unsaid: u64) {
        match unsaid {
            0 => crate::stderr::line(format_args!("mcp: {line}")),
            unsaid => crate::stderr::line(format_args!(
                "mcp: {line} ({unsaid} more time(s) since the last line)"
            )),
        }
        *self.said.lock().unwrap_or_else(PoisonError::into_inner) = line;
    }
}

impl crate::stderr::Deferred for LimitLog {
    /// The hits left unsaid since the last line, said at the end of its second unless a line
    /// of this limit said them meanwhile.
    fn line(&self) -> Option<String> {
        let last = self.last.load(Ordering::Relaxed);
        let now = epoch().elapsed().as_secs() + 1;
        if now <= last
            || self
                .last
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            // Still the second of a line, which the next line says them with.
            return None;
        }
        self.last_line()
    }

    fn last_line(&self) -> Option<String> {
        let unsaid = self.unsaid.swap(0, Ordering::Relaxed);
        let said = self.said.lock().unwrap_or_else(PoisonError::into_inner);
        (unsaid > 0).then(|| unsaid_line(&said, unsaid))
    }
}

/// The report of hits left unsaid after a limit's last line, when no line of it follows.
fn unsaid_line(said: &str, unsaid: u64) -> String {
    format!("mcp: {unsaid} more time(s) in the second after: {said}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_hit_within_the_second_is_counted_not_written() {
        static LOG: LimitLog = LimitLog::new();
        let log = &LOG;
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

    /// A burst that ends within a second is said in full in the next second, though no line
    /// of its limit follows.
    #[test]
    fn hits_left_unsaid_are_said_after_the_second_of_the_last_line() {
        static LOG: LimitLog = LimitLog::new();
        // Start early in a second, so that the burst stays within it.
        let into_second = epoch().elapsed().subsec_millis();
        if into_second > 500 {
            std::thread::sleep(Duration::from_millis(u64::from(1010 - into_second)));
        }
        for _ in 0..5 {
            LOG.hit(|| "a limit was hit in a test".to_owned());
        }
        assert_eq!(LOG.unsaid.load(Ordering::Relaxed), 4);
        assert_eq!(*LOG.said.lock().unwrap(), "a limit was hit in a test");
        std::thread::sleep(Duration::from_millis(1600));
        assert_eq!(
            LOG.unsaid.load(Ordering::Relaxed),
            0,
            "the four hits after the line are said without a fifth"
        );
        assert_eq!(
            unsaid_line("a limit was hit", 4),
            "mcp: 4 more time(s) in the second after: a limit was hit"
        );
    }

    /// When the process ends (the end of serving flushes stderr) within a limit's second, the
    /// hits left unsaid are said then.
    #[test]
    fn hits_left_unsaid_are_said_when_stderr_is_flushed_at_the_end() {
        static LOG: LimitLog = LimitLog::new();
        let into_second = epoch().elapsed().subsec_millis();
        if into_second > 500 {
            std::thread::sleep(Duration::from_millis(u64::from(1010 - into_second)));
        }
        for _ in 0..3 {
            LOG.hit(|| "a limit was hit before the end".to_owned());
        }
        assert_eq!(LOG.unsaid.load(Ordering::Relaxed), 2);
        crate::stderr::flush(Duration::from_secs(2));
        assert_eq!(LOG.unsaid.load(Ordering::Relaxed), 0);
    }
}
