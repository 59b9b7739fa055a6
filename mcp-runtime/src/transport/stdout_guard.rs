//! Keeping stdout for protocol messages only.
//!
//! In stdio mode every byte on stdout must be part of a JSON-RPC message. A stray `println!`
//! in a tool or a dependency would corrupt the stream, so before serving, the runtime takes a
//! private duplicate of the stdout file descriptor for the protocol and points descriptor 1 at
//! a pipe of its own, whose bytes a thread moves to stderr's backlog (see [`crate::stderr`]):
//! anything else printed to "stdout" lands in the log, and a stderr nobody reads never makes a
//! `println!` wait. When serving ends, descriptor 1 is pointed at stderr itself; the duplicate
//! of the original stdout is kept for the life of the process, so that a later serving in the
//! same process writes its messages where the first one did.
//!
//! The thread is started once the replies to the first chunk of input are out
//! ([`StrayOutput::forward`]), not before: starting a thread is a good part of a server's
//! start-up, and nothing a client waits for. Until then the pipe holds what is printed (64 KiB
//! on Linux), while the first chunk (a client's `initialize`, sent before any reply) is handled.

use std::fs::File;
use std::io;

/// What is printed to fd 1 while serving: the pipe's reading end until its bytes are
/// forwarded to the log by a thread of their own.
pub(crate) struct StrayOutput(Option<io::PipeReader>);

impl StrayOutput {
    /// Starts moving what is printed to the log, if not yet: once, after the first replies.
    #[cfg(unix)]
    pub(crate) fn forward(&mut self) {
        use std::os::fd::AsFd;

        let Some(reader) = self.0.take() else {
            return;
        };
        if crate::stderr::forward(reader).is_err() {
            // No thread: stray prints go to stderr directly, as writes that can wait.
            let _ = super::sys::point_stdout_at(io::stderr().as_fd());
        }
    }

    /// Nothing to forward without descriptor juggling (there is never a pipe).
    #[cfg(not(unix))]
    pub(crate) fn forward(&mut self) {
        self.0 = None;
    }
}

/// The stdout the first serving found, kept while the process lives.
#[cfg(unix)]
static PROTOCOL_STDOUT: std::sync::OnceLock<std::os::fd::OwnedFd> = std::sync::OnceLock::new();

/// The protocol's own handle on the original stdout; fd 1 now goes to a pipe, whose bytes
/// reach the log once [`StrayOutput::forward`] is called.
#[cfg(unix)]
pub(crate) fn take_stdout_for_protocol() -> io::Result<(File, StrayOutput)> {
    use std::io::Write;
    use std::os::fd::AsFd;

    let stdout = io::stdout();
    let mut locked = stdout.lock();
    locked.flush()?;
    let protocol = match PROTOCOL_STDOUT.get() {
        // A serving before this one pointed fd 1 away from it.
        Some(kept) => kept.try_clone()?,
        None => {
            let original = locked.as_fd().try_clone_to_owned()?;
            let protocol = original.try_clone()?;
            // (Of two servings begun at once, one keeps it: both are the same stdout.)
            let _ = PROTOCOL_STDOUT.set(original);
            protocol
        }
    };
    let piped = io::pipe().and_then(|(reader, writer)| {
        super::sys::point_stdout_at(writer.as_fd())?;
        Ok(reader)
    });
    let stray = match piped {
        Ok(reader) => StrayOutput(Some(reader)),
        Err(_) => {
            // No pipe: stray prints go to stderr directly, as writes that can wait.
            super::sys::point_stdout_at(io::stderr().as_fd())?;
            StrayOutput(None)
        }
    };
    Ok((File::from(protocol), stray))
}

/// Serving is over: fd 1 goes to stderr directly, which ends the pipe to the log, and what the
/// log holds is written (for at most `limit`, as stderr may not be read).
#[cfg(unix)]
pub(crate) fn release_stdout(mut stray: StrayOutput, limit: std::time::Duration) {
    use std::io::Write;
    use std::os::fd::AsFd;

    // What was printed before the first replies, when serving ended before them.
    stray.forward();
    let _ = io::stdout().lock().flush();
    let _ = super::sys::point_stdout_at(io::stderr().as_fd());
    crate::stderr::flush(limit);
}

/// Without descriptor juggling, the protocol writes to stdout itself.
#[cfg(not(unix))]
pub(crate) fn take_stdout_for_protocol()
-> io::Result<(impl io::Write + Send + 'static, StrayOutput)> {
    Ok((io::stdout(), StrayOutput(None)))
}

/// What the log holds is written (for at most `limit`).
#[cfg(not(unix))]
pub(crate) fn release_stdout(_stray: StrayOutput, limit: std::time::Duration) {
    crate::stderr::flush(limit);
}
