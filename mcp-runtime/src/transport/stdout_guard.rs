//! Keeping stdout for protocol messages only.
//!
//! In stdio mode every byte on stdout must be part of a JSON-RPC message. A stray `println!`
//! in a tool or a dependency would corrupt the stream, so before serving, the runtime takes a
//! private duplicate of the stdout file descriptor for the protocol and points descriptor 1 at
//! a pipe of its own, whose bytes a thread moves to stderr's backlog (see [`crate::stderr`]):
//! anything else printed to "stdout" lands in the log, and a stderr nobody reads never makes a
//! `println!` wait. When serving ends, descriptor 1 is pointed at stderr itself.
//!
//! The thread is started at the first print, not before: most servers never print, and a
//! thread costs a server's start-up time and resident memory (its stack, its malloc arena, and
//! the C library's thread code, most of the difference). Once the replies to the first chunk of
//! input are out ([`StrayOutput::forward`]), a task of the runtime waits for the pipe to hold
//! something and then starts the thread; until then (the first chunk, a client's `initialize`,
//! is sent before any reply) the pipe holds what is printed, 64 KiB on Linux. So what runs on
//! the runtime's thread without letting it wait (a tool whose function is not `async`) may print
//! up to 64 KiB before the first print is noticed; every later print, and every print of
//! another thread or a child process, never waits.

use std::fs::File;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

/// What is printed to fd 1 while serving: the pipe's reading end, until a thread of its own
/// forwards its bytes to the log.
pub(crate) struct StrayOutput {
    /// Shared with the task that watches the pipe, which starts that thread at the first print.
    pipe: Arc<Mutex<Option<io::PipeReader>>>,
    /// Whether the pipe is watched, or forwarded from, already.
    watched: bool,
}

impl StrayOutput {
    fn new(pipe: Option<io::PipeReader>) -> StrayOutput {
        StrayOutput {
            pipe: Arc::new(Mutex::new(pipe)),
            watched: false,
        }
    }

    /// Moves what is printed to the log from the first print on, if not arranged yet: after the
    /// first replies. Where the runtime cannot watch the pipe, the thread starts now.
    #[cfg(unix)]
    pub(crate) fn forward(&mut self) {
        use std::os::fd::AsFd;

        if std::mem::replace(&mut self.watched, true) {
            return;
        }
        let watch = lock(&self.pipe)
            .as_ref()
            .and_then(|pipe| super::nonblocking::NonBlocking::reader(pipe.as_fd()));
        let Some(watch) = watch else {
            forward_now(&self.pipe);
            return;
        };
        let pipe = Arc::clone(&self.pipe);
        // Boxed as the crate's other tasks are (see `Session`'s `start_here`).
        let watching: crate::handler::BoxFuture<()> = Box::pin(async move {
            watch.readable().await;
            drop(watch);
            forward_now(&pipe);
        });
        drop(tokio::spawn(watching));
    }

    /// Nothing to forward without descriptor juggling (there is never a pipe).
    #[cfg(not(unix))]
    pub(crate) fn forward(&mut self) {
        self.watched = true;
    }
}

#[cfg(unix)]
fn lock(pipe: &Mutex<Option<io::PipeReader>>) -> std::sync::MutexGuard<'_, Option<io::PipeReader>> {
    pipe.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Starts the thread that moves what the pipe holds to the log, unless started already.
#[cfg(unix)]
fn forward_now(pipe: &Mutex<Option<io::PipeReader>>) {
    use std::os::fd::AsFd;

    let Some(reader) = lock(pipe).take() else {
        return;
    };
    if crate::stderr::forward(reader).is_err() {
        // No thread: stray prints go to stderr directly, as writes that can wait.
        let _ = rustix::stdio::dup2_stdout(io::stderr().as_fd());
    }
}

/// The protocol's own handle on the original stdout; fd 1 now goes to a pipe, whose bytes
/// reach the log once [`StrayOutput::forward`] is called.
#[cfg(unix)]
pub(crate) fn take_stdout_for_protocol() -> io::Result<(File, StrayOutput)> {
    use std::io::Write;
    use std::os::fd::AsFd;

    let stdout = io::stdout();
    let mut locked = stdout.lock();
    locked.flush()?;
    let protocol = locked.as_fd().try_clone_to_owned()?;
    let piped = io::pipe().and_then(|(reader, writer)| {
        rustix::stdio::dup2_stdout(writer.as_fd())?;
        Ok(reader)
    });
    let stray = match piped {
        Ok(reader) => StrayOutput::new(Some(reader)),
        Err(_) => {
            // No pipe: stray prints go to stderr directly, as writes that can wait.
            rustix::stdio::dup2_stdout(io::stderr().as_fd())?;
            StrayOutput::new(None)
        }
    };
    Ok((File::from(protocol), stray))
}

/// Serving is over: fd 1 goes to stderr directly, which ends the pipe to the log, and what the
/// log holds is written (for at most `limit`, as stderr may not be read).
#[cfg(unix)]
pub(crate) fn release_stdout(stray: StrayOutput, limit: std::time::Duration) {
    use std::io::Write;
    use std::os::fd::AsFd;

    // What was printed and not forwarded yet: before the first replies, when serving ended
    // before them, or before the task watching the pipe noticed it. An empty pipe needs no
    // thread.
    let printed = lock(&stray.pipe)
        .as_ref()
        .is_some_and(|pipe| rustix::io::ioctl_fionread(pipe).map_or(true, |held| held > 0));
    if printed {
        forward_now(&stray.pipe);
    }
    let _ = io::stdout().lock().flush();
    let _ = rustix::stdio::dup2_stdout(io::stderr().as_fd());
    crate::stderr::flush(limit);
}

/// Without descriptor juggling, the protocol writes to stdout itself.
#[cfg(not(unix))]
pub(crate) fn take_stdout_for_protocol()
-> io::Result<(impl io::Write + Send + 'static, StrayOutput)> {
    Ok((io::stdout(), StrayOutput::new(None)))
}

/// What the log holds is written (for at most `limit`).
#[cfg(not(unix))]
pub(crate) fn release_stdout(_stray: StrayOutput, limit: std::time::Duration) {
    crate::stderr::flush(limit);
}
