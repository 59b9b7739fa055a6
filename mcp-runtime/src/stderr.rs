//! The runtime's own writing to stderr, which never blocks the code that writes.
//!
//! A stdio server's stderr is usually a pipe to its client, and a client need not read it: once
//! the pipe's buffer is full, a plain write waits until someone reads, and a serving loop that
//! waits answers nothing. So the runtime's own lines (`MCP_TRACE` traces, notices) and what the
//! process prints to stdout in stdio mode (moved here, see `transport::stdout_guard`) go into a
//! bounded backlog, which a thread of its own writes to the real stderr. What does not fit is
//! dropped and counted, and once stderr takes data again a line says how many bytes were lost.
//!
//! Writes made straight to stderr (`eprintln!` in a handler, the panic message) do not pass
//! here, and block as they always do when nobody reads stderr.

use std::collections::VecDeque;
use std::fmt::Display;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How many bytes may wait for stderr unless `ServerBuilder::max_log_backlog` says otherwise;
/// more is dropped.
pub(crate) const DEFAULT_BACKLOG_BYTES: usize = 1024 * 1024;

/// The most a forwarder reads at once, once something was printed.
const FORWARD_CHUNK: usize = 16 * 1024;

/// The process's one stderr backlog.
static STDERR: Backlog = Backlog::new(DEFAULT_BACKLOG_BYTES);

/// Sets how many bytes may wait for stderr.
pub(crate) fn set_backlog(bytes: usize) {
    STDERR.set_capacity(bytes);
}

/// Queues one line (a newline is added) for stderr, or drops it if the backlog is full.
pub(crate) fn line(text: impl Display) {
    STDERR.push(format!("{text}\n").into_bytes(), io::stderr);
}

/// What has a line to say later, asked at its time: the line, or `None` if there is nothing
/// left to say.
pub(crate) trait Deferred: Sync {
    fn line(&self) -> Option<String>;

    /// The line, asked before its time because the process ends ([`flush`]).
    fn last_line(&self) -> Option<String>;
}

/// Asks `source` for a line at `at` (or soon after), on the thread that writes stderr, and
/// queues it (a newline is added) as [`line`] does.
pub(crate) fn line_later(at: Instant, source: &'static dyn Deferred) {
    STDERR.push_later(at, source, io::stderr);
}

/// Copies what `source` yields into the backlog until it ends, on a thread of its own, so a
/// writer to `source` (the stdout of a stdio server) never waits for stderr.
pub(crate) fn forward(mut source: impl Read + Send + 'static) -> io::Result<()> {
    STDERR.lock().forwarders += 1;
    // Small until something is printed (most servers print nothing: the pages of a larger
    // buffer would be held for nothing), and allocated here, not on the thread.
    let mut chunk = vec![0; 256];
    let spawned = crate::named_thread::spawn(
        "mcp-stdout-to-stderr",
        Box::new(move || {
            loop {
                match source.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(read) => {
                        STDERR.push(chunk[..read].to_vec(), io::stderr);
                        chunk.resize(FORWARD_CHUNK, 0);
                    }
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            STDERR.lock().forwarders -= 1;
            STDERR.changed.notify_all();
        }),
    );
    if let Err(error) = spawned {
        STDERR.lock().forwarders -= 1;
        return Err(error);
    }
    Ok(())
}

/// Waits until everything queued (and everything forwarded, once its source ended) is written,
/// for at most `limit`: the end of serving, before the process exits.
pub(crate) fn flush(limit: Duration) {
    STDERR.wait_written(limit);
}

/// A bounded queue of bytes for a writer that may block, with the thread that writes them.
struct Backlog {
    state: Mutex<State>,
    /// Signalled when bytes are queued, written, or a forwarder ends.
    changed: Condvar,
    capacity: AtomicUsize,
}

struct State {
    queue: VecDeque<Vec<u8>>,
    /// Bytes queued or being written: what the backlog holds.
    held: usize,
    /// Bytes dropped since the last report of drops.
    dropped: usize,
    writing: bool,
    writer_started: bool,
    forwarders: usize,
    /// Lines to ask for at their time.
    later: Vec<(Instant, &'static dyn Deferred)>,
}

impl Backlog {
    const fn new(capacity: usize) -> Backlog {
        Backlog {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                held: 0,
                dropped: 0,
                writing: false,
                writer_started: false,
                forwarders: 0,
                later: Vec::new(),
            }),
            changed: Condvar::new(),
            capacity: AtomicUsize::new(capacity),
        }
    }

    fn set_capacity(&self, bytes: usize) {
        self.capacity.store(bytes, Ordering::Relaxed);
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics while holding the lock; a poisoned one still holds consistent state.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `bytes`, starting the writing thread (writing to `open()`) on first use; drops
    /// them, counted, when they do not fit.
    fn push<W: Write + 'static>(&'static self, bytes: Vec<u8>, open: fn() -> W) {
        let mut state = self.lock();
        if state.held + bytes.len() > self.capacity.load(Ordering::Relaxed) {
            state.dropped += bytes.len();
            return;
        }
        if !self.writer_started(&mut state, open) {
            // No thread to write with: the bytes are dropped rather than written here,
            // where they could block.
            state.dropped += bytes.len();
            return;
        }
        state.held += bytes.len();
        state.queue.push_back(bytes);
        drop(state);
        self.changed.notify_all();
    }

    /// Keeps `source` to be asked for its line at `at`, by the writing thread.
    fn push_later<W: Write + 'static>(
        &'static self,
        at: Instant,
        source: &'static dyn Deferred,
        open: fn() -> W,
    ) {
        let mut state = self.lock();
        if self.writer_started(&mut state, open) {
            state.later.push((at, source));
            drop(state);
            self.changed.notify_all();
        }
    }

    /// Starts the writing thread (writing to `open()`) on first use: whether it runs.
    fn writer_started<W: Write + 'static>(
        &'static self,
        state: &mut State,
        open: fn() -> W,
    ) -> bool {
        if !state.writer_started {
            let spawned = crate::named_thread::spawn(
                "mcp-stderr",
                Box::new(move || self.write_forever(open())),
            );
            state.writer_started = spawned.is_ok();
        }
        state.writer_started
    }

    /// Waits for bytes to write, asking the sources of lines due meanwhile for them.
    fn wait_for_bytes<'a>(&'a self, mut state: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
        while state.queue.is_empty() && state.dropped == 0 {
            let now = Instant::now();
            let Some(next) = state.later.iter().map(|(at, _)| *at).min() else {
                state = self
                    .changed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
                continue;
            };
            if next > now {
                state = self
                    .changed
                    .wait_timeout(state, next - now)
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
                continue;
            }
            let (due, later) = std::mem::take(&mut state.later)
                .into_iter()
                .partition::<Vec<_>, _>(|(at, _)| *at <= now);
            state.later = later;
            drop(state);
            let lines: Vec<String> = due.iter().filter_map(|(_, source)| source.line()).collect();
            state = self.lock();
            self.queue_lines(&mut state, lines);
        }
        state
    }

    /// Queues `lines` (a newline added to each), dropping what does not fit.
    fn queue_lines(&self, state: &mut State, lines: Vec<String>) {
        for line in lines {
            let bytes = format!("{line}\n").into_bytes();
            if state.held + bytes.len() > self.capacity.load(Ordering::Relaxed) {
                state.dropped += bytes.len();
            } else {
                state.held += bytes.len();
                state.queue.push_back(bytes);
            }
        }
    }

    fn write_forever(&self, mut out: impl Write) {
        let mut state = self.lock();
        loop {
            state = self.wait_for_bytes(state);
            let batch = std::mem::take(&mut state.queue);
            let dropped = std::mem::take(&mut state.dropped);
            state.writing = true;
            drop(state);
            let mut written = 0;
            for bytes in &batch {
                // A stderr that fails (closed by the client) loses the log, nothing else.
                let _ = out.write_all(bytes);
                written += bytes.len();
            }
            if dropped > 0 {
                let _ = writeln!(
                    out,
                    "mcp: {dropped} bytes of log dropped: stderr was not read as fast as it was written (at most ServerBuilder::max_log_backlog bytes wait for it)"
                );
            }
            let _ = out.flush();
            state = self.lock();
            state.held -= written;
            state.writing = false;
            self.changed.notify_all();
        }
    }

    fn wait_written(&self, limit: Duration) {
        let deadline = Instant::now() + limit;
        let mut state = self.lock();
        // The lines due later are said now: there is no later.
        let later = std::mem::take(&mut state.later);
        if !later.is_empty() {
            drop(state);
            let lines = later
                .iter()
                .filter_map(|(_, source)| source.last_line())
                .collect();
            state = self.lock();
            self.queue_lines(&mut state, lines);
            self.changed.notify_all();
        }
        while !state.queue.is_empty() || state.writing || state.forwarders > 0 {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return;
            };
            state = self
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;

    use super::*;

    /// A writer that takes nothing until the test lets it, as a stderr nobody reads.
    struct Stuck;

    static RELEASE: Mutex<Option<mpsc::Receiver<()>>> = Mutex::new(None);
    static WRITTEN: Mutex<Vec<u8>> = Mutex::new(Vec::new());

    impl Write for Stuck {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            if let Some(release) = RELEASE.lock().unwrap().as_ref() {
                let _ = release.recv();
            }
            WRITTEN.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_full_backlog_drops_without_waiting_and_says_so_later() {
        static BACKLOG: Backlog = Backlog::new(1);
        // As `ServerBuilder::max_log_backlog` sets it.
        BACKLOG.set_capacity(100);
        let (release, released) = mpsc::channel();
        *RELEASE.lock().unwrap() = Some(released);

        let started = Instant::now();
        // The first line is taken by the writer, which then waits; 100 more bytes fit.
        BACKLOG.push(b"first\n".to_vec(), || Stuck);
        for _ in 0..1000 {
            BACKLOG.push(vec![b'x'; 10], || Stuck);
        }
        assert!(started.elapsed() < Duration::from_secs(1), "pushing waited");
        let held = BACKLOG.lock().held;
        assert!(held <= 100, "{held} bytes held");

        drop(release);
        *RELEASE.lock().unwrap() = None;
        BACKLOG.wait_written(Duration::from_secs(5));
        BACKLOG.push(b"last\n".to_vec(), || Stuck);
        BACKLOG.wait_written(Duration::from_secs(5));
        let written = String::from_utf8(WRITTEN.lock().unwrap().clone()).unwrap();
        assert!(written.starts_with("first\n"), "{written}");
        assert!(written.contains("bytes of log dropped"), "{written}");
        assert!(written.ends_with("last\n"), "{written}");
        let kept = written.matches('x').count();
        assert!((90..=100).contains(&kept), "{kept} bytes of x kept");
    }
}
