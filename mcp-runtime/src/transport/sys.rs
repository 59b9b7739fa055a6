//! The few system calls stdio serving makes that std has no safe form of: descriptor 0
//! borrowed without `io::stdin()`'s buffer, descriptor 1 pointed elsewhere (`dup2`), a
//! socket's `recv`/`send` asked not to block (`MSG_DONTWAIT`) without changing the file status
//! flags it shares with the parent, and the file system a pipe lives on (`fstatfs`). Each is
//! one call into libc (compiled for Tokio anyway), with its safety argument beside it.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};

/// Descriptor 0, without `io::stdin()`, whose buffer (8 KiB) serving never reads through.
pub(crate) fn stdin() -> BorrowedFd<'static> {
    // SAFETY: `borrow_raw` asks that the descriptor stay open for the borrow's lifetime. std
    // opens descriptors 0, 1 and 2 (on /dev/null) before a Rust `main` if the process started
    // without them, and the runtime never closes descriptor 0: it only ever reads it, or a
    // duplicate of it. (Were it closed all the same, a call on it would fail with `EBADF`.)
    #[expect(unsafe_code, reason = "descriptor 0 borrowed for good")]
    unsafe {
        BorrowedFd::borrow_raw(0)
    }
}

/// Points descriptor 1 at the open file `target` names (`dup2(target, 1)`).
pub(crate) fn point_stdout_at(target: BorrowedFd<'_>) -> io::Result<()> {
    // SAFETY: `dup2` reads no memory of ours; `target` is an open descriptor for the call.
    // Descriptor 1 is closed and reopened atomically, and no Rust value owns descriptor 1
    // (std's `Stdout` writes to the number, whatever it names).
    #[expect(unsafe_code, reason = "dup2 has no safe form in std")]
    let result = unsafe { libc::dup2(target.as_raw_fd(), 1) };
    if result == -1 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Receives what has arrived on the socket `fd` without waiting: `WouldBlock` when nothing
/// has.
pub(crate) fn recv_now(fd: BorrowedFd<'_>, buffer: &mut [u8]) -> io::Result<usize> {
    // SAFETY: the kernel writes at most `buffer.len()` bytes at `buffer`'s start, which is
    // valid for writes of that many bytes and borrowed exclusively for the call; `fd` is open.
    #[expect(unsafe_code, reason = "recv with flags has no safe form in std")]
    let received = unsafe {
        libc::recv(
            fd.as_raw_fd(),
            buffer.as_mut_ptr().cast(),
            buffer.len(),
            libc::MSG_DONTWAIT,
        )
    };
    // A negative count is an error (-1); any other fits in `usize`.
    usize::try_from(received).map_err(|_| io::Error::last_os_error())
}

/// Sends what fits in the socket `fd` now, without waiting and without `SIGPIPE` when the
/// other end has gone: `WouldBlock` when nothing fits.
pub(crate) fn send_now(fd: BorrowedFd<'_>, bytes: &[u8]) -> io::Result<usize> {
    // SAFETY: the kernel reads at most `bytes.len()` bytes from `bytes`' start, valid for
    // reads of that many bytes for the call; `fd` is open.
    #[expect(unsafe_code, reason = "send with flags has no safe form in std")]
    let sent = unsafe {
        libc::send(
            fd.as_raw_fd(),
            bytes.as_ptr().cast(),
            bytes.len(),
            libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
        )
    };
    usize::try_from(sent).map_err(|_| io::Error::last_os_error())
}

/// `f_type` of the kernel's file system of anonymous pipes (`PIPEFS_MAGIC`, Linux's
/// `include/uapi/linux/magic.h`).
#[cfg(any(target_os = "linux", target_os = "android"))]
const PIPEFS_MAGIC: u64 = 0x5049_5045;

/// Whether the pipe `fd` is an anonymous one (`pipe(2)`, what a parent's `Stdio::piped()`
/// makes), which lives on the kernel's pipefs, rather than a named FIFO, which lives on the
/// file system of its path. One call on the descriptor: no path of `/proc` is looked up.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(crate) fn is_anonymous_pipe(fd: BorrowedFd<'_>) -> bool {
    let mut stats = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: the kernel writes one `struct statfs` at `stats`, valid for writes of its size
    // and borrowed exclusively for the call; `fd` is open. `stats` is read only when the call
    // succeeded, so it was written.
    #[expect(unsafe_code, reason = "fstatfs has no form in std")]
    let stats = unsafe {
        if libc::fstatfs(fd.as_raw_fd(), stats.as_mut_ptr()) != 0 {
            return false;
        }
        stats.assume_init()
    };
    // `f_type`'s integer type differs between C libraries (signed in glibc).
    u64::try_from(stats.f_type).is_ok_and(|kind| kind == PIPEFS_MAGIC)
}

/// Where there is no pipefs (nor `/proc`, so the pipe is not opened again anyway).
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(crate) fn is_anonymous_pipe(_fd: BorrowedFd<'_>) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::os::fd::AsFd;
    use std::os::unix::net::UnixStream;

    use super::*;

    #[test]
    fn a_socket_is_read_and_written_without_waiting() {
        let (ours, mut theirs) = UnixStream::pair().unwrap();
        let mut buffer = [0u8; 16];
        let nothing = recv_now(ours.as_fd(), &mut buffer).unwrap_err();
        assert_eq!(nothing.kind(), io::ErrorKind::WouldBlock);

        theirs.write_all(b"hello").unwrap();
        assert_eq!(recv_now(ours.as_fd(), &mut buffer).unwrap(), 5);
        assert_eq!(&buffer[..5], b"hello");

        assert_eq!(send_now(ours.as_fd(), b"back").unwrap(), 4);
        let mut back = [0u8; 4];
        theirs.read_exact(&mut back).unwrap();
        assert_eq!(&back, b"back");

        // A full socket: `WouldBlock`, not a wait (the other end reads nothing).
        let chunk = [b'x'; 4096];
        let full = loop {
            match send_now(ours.as_fd(), &chunk) {
                Ok(_) => {}
                Err(error) => break error,
            }
        };
        assert_eq!(full.kind(), io::ErrorKind::WouldBlock);

        // The other end gone: an error, not `SIGPIPE` (which would end this test process).
        // A process another test forks at this moment holds a copy of `theirs` until it
        // execs (which closes it), and the socket stays open until then: the send may meet
        // the full socket a little longer, never for seconds.
        drop(theirs);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let gone = loop {
            match send_now(ours.as_fd(), b"x") {
                Err(error) if error.kind() != io::ErrorKind::WouldBlock => break error,
                _ if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                other => panic!("the other end closed 10 s ago, yet a send gives {other:?}"),
            }
        };
        assert_eq!(gone.kind(), io::ErrorKind::BrokenPipe);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn an_anonymous_pipe_is_told_from_a_named_fifo_a_file_and_a_socket() {
        let (reader, writer) = io::pipe().unwrap();
        assert!(is_anonymous_pipe(reader.as_fd()));
        assert!(is_anonymous_pipe(writer.as_fd()));

        let dir = std::env::temp_dir().join(format!("mcp-sys-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("f");
        let _ = std::fs::remove_file(&fifo);
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        // Read and write, so the open does not wait for another end.
        let named = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&fifo)
            .unwrap();
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(
            &named.metadata().unwrap().file_type()
        ));
        assert!(!is_anonymous_pipe(named.as_fd()));
        drop(named);
        std::fs::remove_dir_all(&dir).unwrap();

        let file = std::fs::File::open("/proc/self/status").unwrap();
        assert!(!is_anonymous_pipe(file.as_fd()));
        let (socket, _other) = UnixStream::pair().unwrap();
        assert!(!is_anonymous_pipe(socket.as_fd()));
    }
}
