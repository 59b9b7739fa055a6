//! Stdin and stdout as non-blocking handles on the Tokio runtime's I/O driver.
//!
//! When the client talks to the server through pipes or sockets (as every MCP client does), the
//! server reads and writes them from its own tasks: a request is read, handled and answered on
//! one thread, with no hand-off between threads. That needs non-blocking I/O without touching
//! state the server shares with its parent:
//!
//! - a pipe is opened again through `/proc/self/fd/N`, which gives the server an open file
//!   description of its own, made non-blocking (the parent's end is left as it was);
//! - a socket (Node.js clients hand their children socket pairs) stays as it is, and every
//!   `recv`/`send` asks for non-blocking behaviour by itself (`MSG_DONTWAIT`).
//!
//! Anything else (a terminal, a file, a system without `/proc`) is served by a reader thread
//! with blocking I/O instead.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::fs::FileTypeExt;

use rustix::net::{RecvFlags, SendFlags};
use tokio::io::Interest;
use tokio::io::unix::AsyncFd;

/// One non-blocking end of the client's pipe or socket.
pub(crate) struct NonBlocking {
    fd: AsyncFd<File>,
    socket: bool,
}

impl NonBlocking {
    /// `fd` for reading, if it is a pipe or socket that can be made non-blocking. Must be
    /// called within a Tokio runtime with I/O enabled.
    pub(crate) fn reader(fd: BorrowedFd<'_>) -> Option<NonBlocking> {
        Self::open(fd, Interest::READABLE, |path| File::open(path))
    }

    /// `fd` for writing, as [`reader`](Self::reader).
    pub(crate) fn writer(fd: BorrowedFd<'_>) -> Option<NonBlocking> {
        Self::open(fd, Interest::WRITABLE, |path| {
            OpenOptions::new().write(true).open(path)
        })
    }

    fn open(
        fd: BorrowedFd<'_>,
        interest: Interest,
        reopen: impl FnOnce(&str) -> io::Result<File>,
    ) -> Option<NonBlocking> {
        tokio::runtime::Handle::try_current().ok()?;
        let own = File::from(fd.try_clone_to_owned().ok()?);
        let kind = own.metadata().ok()?.file_type();
        let (file, socket) = if kind.is_socket() {
            (own, true)
        } else if kind.is_fifo() {
            let path = format!("/proc/self/fd/{}", own.as_raw_fd());
            let file = reopen(&path).ok()?;
            rustix::io::ioctl_fionbio(&file, true).ok()?;
            (file, false)
        } else {
            return None;
        };
        // Deprecated because a `T` could hand out another descriptor than the one registered; a
        // `File` owns its descriptor and is never replaced or closed while the `AsyncFd` holds
        // it, so this is sound, and it keeps the crate free of `unsafe`.
        #[allow(deprecated)]
        let fd = AsyncFd::with_interest(file, interest).ok()?;
        Some(NonBlocking { fd, socket })
    }

    fn try_read(&self, buffer: &mut [u8]) -> io::Result<usize> {
        if self.socket {
            Ok(rustix::net::recv(self.fd.get_ref(), buffer, RecvFlags::DONTWAIT)?.0)
        } else {
            let mut file = self.fd.get_ref();
            file.read(buffer)
        }
    }

    /// Writes what fits now: `WouldBlock` when nothing does.
    pub(crate) fn try_write(&self, bytes: &[u8]) -> io::Result<usize> {
        if self.socket {
            Ok(rustix::net::send(
                self.fd.get_ref(),
                bytes,
                SendFlags::DONTWAIT | SendFlags::NOSIGNAL,
            )?)
        } else {
            let mut file = self.fd.get_ref();
            file.write(bytes)
        }
    }

    /// Reads what has arrived, waiting for something if nothing has; 0 at the end of input.
    pub(crate) async fn read(&self, buffer: &mut [u8]) -> io::Result<usize> {
        self.when_ready(Interest::READABLE, || self.try_read(buffer))
            .await
    }

    /// Writes some of `bytes`, waiting for room if there is none.
    pub(crate) async fn write(&self, bytes: &[u8]) -> io::Result<usize> {
        self.when_ready(Interest::WRITABLE, || self.try_write(bytes))
            .await
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

impl AsFd for NonBlocking {
    fn as_fd(&self) -> BorrowedFd<'_> {
        self.fd.get_ref().as_fd()
    }
}
