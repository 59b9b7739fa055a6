//! Keeping stdout for protocol messages only.
//!
//! In stdio mode every byte on stdout must be part of a JSON-RPC message. A stray `println!`
//! in a tool or a dependency would corrupt the stream, so before serving, the runtime takes a
//! private duplicate of the stdout file descriptor for the protocol and points descriptor 1 at
//! a pipe of its own, whose bytes a thread moves to stderr's backlog (see [`crate::stderr`]):
//! anything else printed to "stdout" lands in the log, and a stderr nobody reads never makes a
//! `println!` wait. When serving ends, descriptor 1 is pointed at stderr itself.

use std::fs::File;
use std::io;

/// The protocol's own handle on the original stdout; fd 1 now goes to the log.
#[cfg(unix)]
pub(crate) fn take_stdout_for_protocol() -> io::Result<File> {
    use std::io::Write;
    use std::os::fd::AsFd;

    let stdout = io::stdout();
    let mut locked = stdout.lock();
    locked.flush()?;
    let protocol = locked.as_fd().try_clone_to_owned()?;
    let forwarded = io::pipe().and_then(|(reader, writer)| {
        crate::stderr::forward(reader)?;
        rustix::stdio::dup2_stdout(writer.as_fd())?;
        Ok(())
    });
    if forwarded.is_err() {
        // No pipe or no thread: stray prints go to stderr directly, as writes that can wait.
        rustix::stdio::dup2_stdout(io::stderr().as_fd())?;
    }
    Ok(File::from(protocol))
}

/// Serving is over: fd 1 goes to stderr directly, which ends the pipe to the log, and what the
/// log holds is written (for at most `limit`, as stderr may not be read).
#[cfg(unix)]
pub(crate) fn release_stdout(limit: std::time::Duration) {
    use std::io::Write;
    use std::os::fd::AsFd;

    let _ = io::stdout().lock().flush();
    let _ = rustix::stdio::dup2_stdout(io::stderr().as_fd());
    crate::stderr::flush(limit);
}

/// Without descriptor juggling, the protocol writes to stdout itself.
#[cfg(not(unix))]
pub(crate) fn take_stdout_for_protocol() -> io::Result<impl io::Write + Send + 'static> {
    Ok(io::stdout())
}

/// What the log holds is written (for at most `limit`).
#[cfg(not(unix))]
pub(crate) fn release_stdout(limit: std::time::Duration) {
    crate::stderr::flush(limit);
}
