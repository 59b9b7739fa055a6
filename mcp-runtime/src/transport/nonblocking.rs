//! Stdin and stdout as non-blocking handles on the Tokio runtime's I/O driver.
//!
//! When the client talks to the server through pipes or sockets (as every MCP client does), the
//! server reads and writes them from its own tasks: a request is read, handled and answered on
//! one thread, with no hand-off between threads. That needs non-blocking I/O without touching
//! state the server shares with its parent:
//!
//! - a pipe is opened again through `/proc/self/fd/N`, non-blocking, which gives the server an
//!   open file description of its own (the parent's end is left as it was). The open itself is
//!   non-blocking too: opening a named FIFO waits for its other end, which for a stdin whose
//!   writer has already written and gone would be forever;
//! - a socket (Node.js clients hand their children socket pairs) stays as it is, and every
//!   `recv`/`send` asks for non-blocking behaviour by itself (`MSG_DONTWAIT`).
//!
//! Anything else (a terminal, a file, a system without `/proc`, a Tokio runtime built without
//! I/O) is served by a reader thread with blocking I/O instead.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

/// One non-blocking end of the client's pipe or socket.
pub(crate) struct NonBlocking {
    fd: AsyncFd<File>,
    interest: Interest,
    socket: bool,
    /// Whether the end of input always raises readiness of its own (see `read`): true for
    /// sockets and the read end of an anonymous pipe; not for a named FIFO opened after its
    /// writer had gone, which the kernel never reports as hung up (nor for a pipe's write end,
    /// which reads nothing).
    end_is_announced: bool,
    /// Whether the next read tries the descriptor before waiting for its readiness: from its
    /// registration until the first read. The driver has not reported on it yet, so a wait
    /// would first take the runtime through a turn of its I/O driver, and a client's first
    /// message is usually there already (sent as soon as it started the server). Only where
    /// the end of input is announced: elsewhere the end is found by reading on after a read
    /// that brought something, which `read` does only for readiness the driver reported.
    read_first: bool,
}

impl NonBlocking {
    /// `fd` for reading, if it is a pipe or socket that can be made non-blocking and the
    /// current Tokio runtime has I/O enabled.
    pub(crate) fn reader(fd: BorrowedFd<'_>) -> Option<NonBlocking> {
        Self::open(fd, Interest::READABLE)
    }

    /// `fd` for writing, as [`reader`](Self::reader).
    pub(crate) fn writer(fd: BorrowedFd<'_>) -> Option<NonBlocking> {
        Self::open(fd, Interest::WRITABLE)
    }

    fn open(fd: BorrowedFd<'_>, interest: Interest) -> Option<NonBlocking> {
        tokio::runtime::Handle::try_current().ok()?;
        let own = File::from(fd.try_clone_to_owned().ok()?);
        let kind = own.metadata().ok()?.file_type();
        let (file, socket, end_is_announced) = if kind.is_socket() {
            (own, true, true)
        } else if kind.is_fifo() {
            // Only reading ever waits for the end of input.
            let end_is_announced =
                interest.is_readable() && super::sys::is_anonymous_pipe(own.as_fd());
            let path = format!("/proc/self/fd/{}", own.as_raw_fd());
            // Non-blocking from the open on: a FIFO's open otherwise waits for its other end.
            // (Opening one for writing with no reader fails, and stdio falls back.) std opens
            // with `O_CLOEXEC`.
            let reopened = std::fs::OpenOptions::new()
                .read(interest.is_readable())
                .write(interest.is_writable())
                .custom_flags(libc::O_NONBLOCK)
                .open(path)
                .ok()?;
            (reopened, false, end_is_announced)
        } else {
            return None;
        };
        Some(NonBlocking {
            fd: register(file, interest)?,
            interest,
            socket,
            end_is_announced,
            read_first: end_is_announced,
        })
    }

    /// Takes this end off the runtime's I/O driver, whose thread its readiness then no longer
    /// wakes, until it is [registered](Unregistered::register) again.
    pub(crate) fn unregister(self) -> Unregistered {
        Unregistered {
            file: self.fd.into_inner(),
            interest: self.interest,
            socket: self.socket,
            end_is_announced: self.end_is_announced,
        }
    }

    fn try_read(&self, buffer: &mut [u8]) -> io::Result<usize> {
        if self.socket {
            super::sys::recv_now(self.fd.get_ref().as_fd(), buffer)
        } else {
            let mut file = self.fd.get_ref();
            file.read(buffer)
        }
    }

    /// Writes what fits now: `WouldBlock` when nothing does.
    pub(crate) fn try_write(&self, bytes: &[u8]) -> io::Result<usize> {
        if self.socket {
            super::sys::send_now(self.fd.get_ref().as_fd(), bytes)
        } else {
            let mut file = self.fd.get_ref();
            file.write(bytes)
        }
    }

    /// Reads what has arrived, waiting for something if nothing has; 0 at the end of input.
    pub(crate) async fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        if std::mem::take(&mut self.read_first) {
            match self.try_read(buffer) {
                Err(error)
                    if matches!(
                        error.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                outcome => return outcome,
            }
        }
        let capacity = buffer.len();
        loop {
            // The reader's own waker slot (one task reads stdin), not `ready`'s future, which
            // joins and leaves the descriptor's list of waiters on each wait.
            let mut ready = std::future::poll_fn(|cx| self.fd.poll_read_ready(cx)).await?;
            match ready.try_io(|_| self.try_read(buffer)) {
                Ok(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
                Ok(Ok(read)) => {
                    // A read that did not fill the buffer took all there was: the next one
                    // would only say `WouldBlock`. Waiting for the descriptor's next readiness
                    // instead saves that call: data that arrives meanwhile, and the writer's
                    // going, each raise readiness anew, so nothing is missed. Not when the end
                    // was already announced (readiness raised once, for good), nor where it is
                    // never announced: there only a read finds it.
                    if read > 0
                        && read < capacity
                        && self.end_is_announced
                        && !ready.ready().is_read_closed()
                    {
                        ready.clear_ready();
                    }
                    return Ok(read);
                }
                Ok(Err(error)) => return Err(error),
                Err(_would_block) => {}
            }
        }
    }

    /// Writes some of `bytes`, waiting for room if there is none.
    pub(crate) async fn write(&self, bytes: &[u8]) -> io::Result<usize> {
        self.when_ready(Interest::WRITABLE, || self.try_write(bytes))
            .await
    }

    /// Completes when the descriptor reports an error: for the write end of a pipe, that its
    /// reader has closed it.
    pub(crate) async fn errored(&self) {
        loop {
            match self.fd.ready(Interest::ERROR).await {
                Ok(ready) if ready.ready().is_error() => return,
                Ok(mut ready) => ready.clear_ready(),
                Err(_) => return,
            }
        }
    }

    /// Runs `io` once the descriptor is ready for `interest`, again after each `WouldBlock`.
    async fn when_ready(
        &self,
        interest: Interest,
        mut io: impl FnMut() -> io::Result<usize>,
    ) -> io::Result<usize> {
        loop {
            let mut ready = self.fd.ready(interest).await?;
            match ready.try_io(|_| io()) {
                Ok(Err(error)) if error.kind() == io::ErrorKind::Interrupted => {}
                Ok(outcome) => return outcome,
                Err(_would_block) => {}
            }
        }
    }
}

/// A [`NonBlocking`] end taken off the runtime's I/O driver.
pub(crate) struct Unregistered {
    file: File,
    interest: Interest,
    socket: bool,
    end_is_announced: bool,
}

impl Unregistered {
    /// Back on the current runtime's I/O driver.
    pub(crate) fn register(self) -> io::Result<NonBlocking> {
        let fd = register(self.file, self.interest).ok_or_else(|| {
            io::Error::other(
                "stdin could not be registered with the Tokio runtime's I/O driver again",
            )
        })?;
        Ok(NonBlocking {
            fd,
            interest: self.interest,
            socket: self.socket,
            end_is_announced: self.end_is_announced,
            read_first: self.end_is_announced,
        })
    }
}

/// Registers `file` with the current runtime's I/O driver; `None` if that fails or the runtime
/// was built without I/O.
fn register(file: File, interest: Interest) -> Option<AsyncFd<File>> {
    // Tokio panics when the runtime has no I/O driver, and offers no way to ask beforehand: the
    // panic is caught (the panic hook still reports it on stderr), and stdio falls back to
    // blocking I/O. With `panic = "abort"` such a runtime aborts here instead.
    let registered = std::panic::catch_unwind(move || {
        // SAFETY: `register_with_interest` asks that the descriptor `file.as_raw_fd()` returns
        // be valid, stay open and name the same open file description for the life of the
        // `AsyncFd`, and that `as_raw_fd` always return it. A `File` owns its descriptor: it is
        // valid now, and closed only when the `File` is dropped: the `AsyncFd` owns the `File`
        // and drops it with itself, and its `into_inner` (`NonBlocking::unregister`) takes it
        // off the driver before giving it back. `File::as_raw_fd` returns the one descriptor
        // it was made from. Nothing else closes or reuses it: it is a duplicate or a fresh
        // open made above, known to no other code.
        #[expect(unsafe_code, reason = "Tokio's registration of a raw descriptor")]
        unsafe {
            AsyncFd::register_with_interest(file, interest)
        }
    });
    match registered {
        Ok(registered) => registered.ok(),
        Err(_no_io_driver) => {
            crate::stderr::line(
                "mcp: the Tokio runtime has no I/O driver (`enable_io`): serving stdio with blocking reads on a thread instead",
            );
            None
        }
    }
}

impl AsFd for NonBlocking {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.get_ref().as_fd()
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::net::UnixStream;

    use super::*;

    /// On a current-thread runtime with I/O: a pipe's read end as [`NonBlocking`], and its
    /// write end.
    fn on_a_pipe(test: impl AsyncFnOnce(NonBlocking, io::PipeWriter)) {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (reader, writer) = io::pipe().unwrap();
            let stdin = NonBlocking::reader(reader.as_fd()).unwrap();
            test(stdin, writer).await;
        });
    }

    /// Reads `late` (written 50 ms from now, by a thread), then the end (the writer gone).
    async fn read_late_then_the_end(stdin: &mut NonBlocking, mut writer: io::PipeWriter) {
        let late = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            writer.write_all(b"late\n").unwrap();
        });
        let mut buffer = [0u8; 64];
        let read = stdin.read(&mut buffer).await.unwrap();
        assert_eq!(&buffer[..read], b"late\n");
        late.join().unwrap();
        assert_eq!(stdin.read(&mut buffer).await.unwrap(), 0);
    }

    /// The first read tries the pipe at once (the bytes are there); the next finds nothing and
    /// waits for the driver's report; the last sees the end.
    #[test]
    fn reads_take_what_is_there_then_wait_then_see_the_end() {
        on_a_pipe(async |mut stdin, mut writer| {
            assert!(stdin.read_first && stdin.end_is_announced);
            writer.write_all(b"first\n").unwrap();
            let mut buffer = [0u8; 64];
            let read = stdin.read(&mut buffer).await.unwrap();
            assert_eq!(&buffer[..read], b"first\n");
            assert!(!stdin.read_first);
            read_late_then_the_end(&mut stdin, writer).await;
        });
    }

    /// Nothing there at the first read: it waits, it does not fail with `WouldBlock`.
    #[test]
    fn a_first_read_with_nothing_there_waits() {
        on_a_pipe(async |mut stdin, writer| {
            read_late_then_the_end(&mut stdin, writer).await;
        });
    }

    #[test]
    fn a_runtime_without_io_gets_no_handle_instead_of_a_panic() {
        let (ours, _theirs) = UnixStream::pair().unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let handle = runtime.block_on(async { NonBlocking::reader(ours.as_fd()) });
        assert!(handle.is_none());
    }
}
