//! Keeping stdout for protocol messages only.
//!
//! In stdio mode every byte on stdout must be part of a JSON-RPC message. A stray `println!`
//! in a tool or a dependency would corrupt the stream, so before serving, the runtime takes a
//! private duplicate of the stdout file descriptor for the protocol and points descriptor 1 at
//! stderr: anything else printed to "stdout" lands in the log instead.

use std::fs::File;
use std::io;

/// The protocol's own handle on the original stdout; fd 1 now goes to stderr.
#[cfg(unix)]
pub(crate) fn take_stdout_for_protocol() -> io::Result<File> {
    use std::io::Write;
    use std::os::fd::AsFd;

    let stdout = io::stdout();
    let mut locked = stdout.lock();
    locked.flush()?;
    let protocol = locked.as_fd().try_clone_to_owned()?;
    rustix::stdio::dup2_stdout(io::stderr().as_fd())?;
    Ok(File::from(protocol))
}

/// Without descriptor juggling, the protocol writes to stdout itself.
#[cfg(not(unix))]
pub(crate) fn take_stdout_for_protocol() -> io::Result<impl io::Write + Send + 'static> {
    Ok(io::stdout())
}
