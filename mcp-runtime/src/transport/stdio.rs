//! Serving over stdin/stdout: newline-delimited JSON, one message per line.
//!
//! One serving loop, on the runtime, takes what stdin brings a chunk at a time, frames it, and
//! hands each message to the session (a request that finishes at once is answered right
//! there); it [holds](SharedWriter::hold) the writer meanwhile, so the replies of one chunk
//! leave in one `write`. Where stdin comes from depends on what it is:
//!
//! - a pipe or socket, with stdout one too, is read and written without blocking on the
//!   runtime's I/O driver (see [`nonblocking`](super::nonblocking)): one thread, no hand-off.
//!   While every request finishes at once, a thread of its own reads instead, blocking, and
//!   answers them itself; it hands the reading back when a request waits (see
//!   [`stdin_turns`](super::stdin_turns));
//! - anything else (a terminal, a file, a runtime built without I/O) is read by a thread of its
//!   own with blocking reads, which hands each chunk to the same loop, and stdout is written
//!   with blocking writes.
//!
//! A request that waits runs on as a task of its own, and replies and notifications leave in
//! the order they are ready (see [`SharedWriter`]). At the end of stdin the server stops
//! reading and gives the requests in flight a grace period
//! ([`ServerBuilder::shutdown_grace`](crate::ServerBuilder::shutdown_grace)) to finish and be
//! answered; then it cancels the rest, writes what is pending, and returns.

use std::io::{self, IsTerminal, Read};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};

use super::lines::{Frame, Framer, ReadBuffer};
use super::one_read::handle_read;
use super::stdin_leftover::{self, Serving};
#[cfg(unix)]
use super::stdin_turns::TakingTurns;
use super::stdout_guard::{StrayOutput, release_stdout, take_stdout_for_protocol};
use super::writer::SharedWriter;
use crate::error::Error;
use crate::handler::BoxFuture;
use crate::jsonrpc::{RpcError, request_id_in_prefix};
use crate::limit_log::LimitLog;
use crate::outbound::{Outbound, Outgoing};
use crate::server::{Server, Session};

impl Server {
    /// Serves over stdin/stdout until stdin ends (then requests in flight have
    /// [`shutdown_grace`](crate::ServerBuilder::shutdown_grace) to finish) or the client closes
    /// stdout. Call within a Tokio runtime.
    ///
    /// It may be called again once it has returned or its future was dropped (to serve with
    /// another server, say): the next serving writes to the same stdout, and begins with what
    /// the last one had read of stdin but not handled, so no byte the client sent is lost.
    pub async fn serve_stdio(&self) -> Result<(), Error> {
        let serving = Serving::begin();
        let (protocol_out, stray) = take_stdout_for_protocol()?;
        // Last, on every way out: stray prints and traces reach stderr before the process ends.
        let mut release = ReleaseStdout(Some(stray));
        if stdin_fd().is_terminal() {
            self.introduce_on_terminal();
        }
        let max = self.core.max_message_bytes;
        let (input, writer, session) = open_stdio(
            protocol_out,
            self.core.max_output_backlog,
            max,
            serving,
            |writer| self.stdio_session(writer),
        )?;
        let read_outcome = serve(input, max, &session, &writer, &mut release, serving).await;
        // At the end of input the client may still read: listen streams get their closing
        // results.
        session.close_with(matches!(read_outcome, Ok(Ended::Input)));
        match read_outcome {
            // No reply can reach the client any more.
            Ok(Ended::Output) => session.cancel_all(),
            Ok(Ended::Input) | Err(_) => wind_down(&session, self.core.shutdown_grace).await,
        }
        drop(session);
        let write_outcome = writer.finish().await;
        stdio_outcome(read_outcome, write_outcome)
    }

    fn stdio_session(&self, writer: &Arc<SharedWriter>) -> Arc<Session> {
        let sender = Arc::clone(writer);
        let appender = Arc::clone(writer);
        let max_backlog = self.core.max_output_backlog;
        let outbound = Outbound::new(self.core.trace, move |kind, message| match kind {
            Outgoing::Notification { .. } => {
                if !sender.send_droppable(&message) {
                    static LOG: LimitLog = LimitLog::new();
                    LOG.hit(|| {
                        format!(
                            "the client has left twice ServerBuilder::max_output_backlog ({max_backlog} bytes) unread: notifications are dropped until it reads"
                        )
                    });
                }
            }
            _ => sender.send(&message),
        })
        .with_append(move |_, write| appender.send_written(write));
        Session::new_in_order(self.core.clone(), outbound)
    }

    /// [`serve_stdio`](Self::serve_stdio) on a single-threaded runtime of its own, for
    /// [`ServerBuilder::run`](crate::ServerBuilder::run), which says why one thread.
    pub(crate) fn run_stdio(&self) -> Result<(), Error> {
        let serving = self.serving_stdio();
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            // Tokio's default is 1024 events per wait, a 12 KiB buffer. Stdio's driver
            // watches stdin, stdout and what handlers open; events past the limit wait for the
            // next turn of the driver, none is lost.
            .max_io_events_per_tick(STDIO_EVENTS_PER_TICK)
            .build()?
            .block_on(serving)
    }

    /// [`serve_stdio`](Self::serve_stdio)'s future, boxed as a `dyn Future`: Tokio's `block_on`
    /// inlines the future it is given into each of its two loops, and serving is the largest
    /// future of the crate.
    ///
    /// Not inlined: the future (784 bytes) is made on the stack before it moves into its box,
    /// and made in `run_stdio` it stayed in that frame, under every request the main thread
    /// serves (whose stack is resident as deep as any request reached).
    #[inline(never)]
    fn serving_stdio(&self) -> Pin<Box<dyn Future<Output = Result<(), Error>> + '_>> {
        Box::pin(self.serve_stdio())
    }

    fn introduce_on_terminal(&self) {
        let info = &self.core.info;
        crate::stderr::line(format_args!(
            "{} {}: a Model Context Protocol server speaking JSON-RPC on stdin/stdout.\n\
             An MCP client (Claude Desktop, MCP Inspector, ...) normally starts it and does the talking.\n\
             To try it by hand, type one JSON message per line, for example:\n\
             {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{{}},\"clientInfo\":{{\"name\":\"terminal\",\"version\":\"0\"}}}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}}\n\
             Set MCP_TRACE=1 to see every message in and out on stderr. Press Ctrl-D to quit.",
            info.name, info.version
        ));
    }
}

/// Descriptor 0 ([`super::sys::stdin`]).
#[cfg(unix)]
fn stdin_fd() -> std::os::fd::BorrowedFd<'static> {
    super::sys::stdin()
}

/// Descriptor 0's handle where there are no descriptors.
#[cfg(not(unix))]
fn stdin_fd() -> io::Stdin {
    io::stdin()
}

/// The most I/O events the stdio runtime's driver takes at once (12 bytes each).
const STDIO_EVENTS_PER_TICK: usize = 64;

/// How long the end of serving waits for the log to reach stderr, which may not be read.
const LOG_FLUSH: Duration = Duration::from_secs(1);

/// After the end of stdin: the requests in flight finish within `grace`, or are cancelled.
async fn wind_down(session: &Session, grace: Duration) {
    let mut idle = std::pin::pin!(session.wait_idle());
    let mut now = std::task::Context::from_waker(std::task::Waker::noop());
    if idle.as_mut().poll(&mut now).is_ready() {
        // Nothing in flight (the usual end): no timer, and no thread for it.
        return;
    }
    // Timed on a thread of its own: the runtime may have no time driver.
    let (expired, grace_over) = oneshot::channel();
    let timer = crate::named_thread::spawn(
        "mcp-shutdown-grace",
        Box::new(move || {
            std::thread::sleep(grace);
            let _ = expired.send(());
        }),
    );
    if timer.is_err() {
        // No thread for the timer: the requests finish in their own time.
        idle.await;
        return;
    }
    tokio::select! {
        () = idle => {}
        _ = grace_over => {
            // A cancelled handler is dropped at its next `.await`; one that blocks its thread
            // is not waited for.
            session.cancel_all();
        }
    }
}

/// How serving went, from how reading and writing ended.
fn stdio_outcome(read: io::Result<Ended>, write: io::Result<()>) -> Result<(), Error> {
    read?;
    match write {
        // The client closing its end of the pipe is how stdio sessions usually end.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Hands one framed message to the session. An oversized one is refused, naming its request
/// when its beginning shows one for certain.
fn on_frame(session: &Arc<Session>, max: usize, frame: Frame<'_>) {
    match frame {
        Frame::Message(message) => session.receive(message),
        Frame::Oversized { kept } => session.send_error(
            request_id_in_prefix(kept).as_ref(),
            &RpcError::invalid_request(format!(
                "message discarded: it is longer than the server's limit of {max} bytes (ServerBuilder::max_message_bytes)"
            )),
        ),
    }
}

/// Where stdin's bytes come from.
enum Input {
    /// Stdin itself, read on the runtime, or in turns by a thread of its own.
    #[cfg(unix)]
    NonBlocking(TakingTurns),
    /// The chunks a reader thread reads from stdin, blocking; whether their end was taken.
    Thread {
        chunks: mpsc::Receiver<io::Result<Vec<u8>>>,
        ended: bool,
    },
}

/// Stdin, a writer on the protocol's stdout and the session `session_for` makes with it: stdin
/// and stdout non-blocking when both can be, else a reader thread and blocking writes.
fn open_stdio(
    protocol_out: std::fs::File,
    max_backlog: usize,
    max_message: usize,
    serving: Serving,
    session_for: impl FnOnce(&Arc<SharedWriter>) -> Arc<Session>,
) -> io::Result<(Input, Arc<SharedWriter>, Arc<Session>)> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;

        use super::nonblocking::NonBlocking;

        if let Some(input) = NonBlocking::reader(stdin_fd())
            && let Some(output) = NonBlocking::writer(protocol_out.as_fd())
        {
            let writer = SharedWriter::non_blocking(output, max_backlog);
            let session = session_for(&writer);
            let deliver = {
                let session = Arc::clone(&session);
                Box::new(move |frame: Frame<'_>| on_frame(&session, max_message, frame))
            };
            let input = TakingTurns::new(input, deliver, &session, &writer, serving);
            return Ok((Input::NonBlocking(input), writer, session));
        }
    }
    let (chunks, receiver) = mpsc::channel(QUEUED_READS);
    // The thread waits for the loop only when QUEUED_READS reads wait for it, so a client that
    // writes everything before it reads is not stuck behind a blocked write (what it sent is
    // read meanwhile, up to 16 MiB, as the non-blocking path reads while its output backlog
    // allows), and a stdin read faster than it is served (a file) is not read into memory
    // whole.
    let reader = serving.reader();
    crate::named_thread::spawn(
        "mcp-stdin",
        Box::new(move || {
            let _reader = reader;
            serving.wait_for_earlier_readers();
            let mut stdin = io::stdin().lock();
            let mut chunk = ReadBuffer::new();
            loop {
                let read = match stdin.read(chunk.space()) {
                    Ok(0) => {
                        // Under the lock `Input`'s drop closes the channel with: either the
                        // serving is over and stdin's end is kept here, or the sender is
                        // gone before the drop looks and it keeps the end itself.
                        stdin_leftover::keep(|kept| {
                            if chunks.is_closed() {
                                kept.end();
                            }
                            drop(chunks);
                        });
                        return;
                    }
                    Ok(read) => Ok(chunk.filled(read).to_vec()),
                    Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                    Err(error) => Err(error),
                };
                let failed = read.is_err();
                if let Err(unsent) = chunks.blocking_send(read) {
                    // Serving is over: the next one reads it first.
                    if let Ok(bytes) = unsent.0 {
                        stdin_leftover::keep(|kept| kept.read(&bytes));
                    }
                    return;
                }
                if failed {
                    return;
                }
            }
        }),
    )?;
    let writer = SharedWriter::new(protocol_out, max_backlog);
    let session = session_for(&writer);
    let input = Input::Thread {
        chunks: receiver,
        ended: false,
    };
    Ok((input, writer, session))
}

/// How many reads of the fallback reader may wait for the serving loop: 16 MiB of 64 KiB reads.
const QUEUED_READS: usize = 256;

/// Why the serving loop ended.
enum Ended {
    /// Stdin ended.
    Input,
    /// Stdout is gone: the client closed it.
    Output,
}

/// The serving loop: reads stdin to its end, handling each chunk's messages before the next
/// read, with the writer held so that their ready replies leave together; reads only while
/// the output backlog is within its limit; stops early when stdout is gone.
async fn serve(
    mut input: Input,
    max: usize,
    session: &Arc<Session>,
    writer: &Arc<SharedWriter>,
    release: &mut ReleaseStdout,
    serving: Serving,
) -> io::Result<Ended> {
    let mut framer = StdinFramer(Framer::new(max));
    let mut chunk = ReadBuffer::new();
    let mut received = Vec::new();
    let mut deliver = |frame: Frame<'_>| on_frame(session, max, frame);
    // Stdout's closing is watched by a task of its own: a future of the serving loop that
    // waits on stdout's readiness would wake the loop, and with it the I/O driver, once more
    // for every message.
    // A one-shot channel rather than a `Notify`: the loop polls it every time it waits for
    // stdin, and a `Notified` takes a lock at every poll.
    let (closed, output_closed) = oneshot::channel::<()>();
    let watching: BoxFuture<()> = Box::pin({
        let writer = Arc::clone(writer);
        async move {
            writer.closed().await;
            let _ = closed.send(());
        }
    });
    // Boxed as the crate's other tasks are (see `request_task` in `server/session.rs`).
    let _watcher = AbortOnDrop(tokio::spawn(watching));
    tokio::pin!(output_closed);
    // What earlier servings in this process read of stdin and did not handle comes first.
    let kept = tokio::select! {
        biased;
        kept = serving.taken() => kept,
        _ = &mut output_closed => return Ok(Ended::Output),
    };
    framer.0 = Framer::resumed(max, &kept.unframed);
    if !kept.unframed.bytes.is_empty() {
        handle_read(
            &kept.unframed.bytes,
            &mut framer.0,
            &mut deliver,
            session,
            writer,
        );
        release.forward_stray_output();
    }
    // Unless the end of stdin was read after an earlier serving ended.
    if !kept.ended {
        loop {
            let data = tokio::select! {
                biased;
                data = async {
                    writer.room().await;
                    input.next(&mut framer.0, &mut chunk, &mut received).await
                } => data?,
                // The watcher ends only by sending, until this loop is over.
                _ = &mut output_closed => return Ok(Ended::Output),
            };
            let Some(data) = data else { break };
            let started_a_task = handle_read(data, &mut framer.0, &mut deliver, session, writer);
            // The first replies are out: now the thread that keeps stray prints off stdout.
            release.forward_stray_output();
            #[cfg(unix)]
            if let Input::NonBlocking(stdin) = &mut input {
                stdin.handled(started_a_task);
            }
        }
    }
    let _hold = writer.hold();
    framer.0.end(&mut deliver);
    Ok(Ended::Input)
}

/// The serving loop's framer. However serving ends (stdout closed, the future dropped), the
/// line it had begun is kept for the next serving ([`stdin_leftover`]).
struct StdinFramer(Framer);

impl Drop for StdinFramer {
    fn drop(&mut self) {
        let unframed = self.0.take_unframed();
        if !unframed.bytes.is_empty() || unframed.skipping {
            stdin_leftover::keep(|kept| kept.unframed(unframed));
        }
    }
}

impl Input {
    /// The next bytes stdin brings (in `chunk` or `received`); `None` at its end. Empty when
    /// the reading thread had a turn (and handed the messages it read to the session itself).
    async fn next<'a>(
        &mut self,
        framer: &mut Framer,
        chunk: &'a mut ReadBuffer,
        received: &'a mut Vec<u8>,
    ) -> io::Result<Option<&'a [u8]>> {
        match self {
            #[cfg(unix)]
            Input::NonBlocking(stdin) => stdin.next(framer, chunk).await,
            Input::Thread { chunks, ended } => match chunks.recv().await {
                Some(read) => {
                    *received = read?;
                    Ok(Some(received))
                }
                None => {
                    *ended = true;
                    Ok(None)
                }
            },
        }
    }
}

impl Drop for Input {
    /// What the fallback reader read and serving did not take is kept for the next serving.
    fn drop(&mut self) {
        let Input::Thread { chunks, ended } = self else {
            return;
        };
        if *ended {
            return;
        }
        // Closed and drained while nothing else can be kept: the reader, whose next chunk
        // can no longer be sent, keeps that one after these.
        stdin_leftover::keep(|kept| {
            chunks.close();
            while let Ok(read) = chunks.try_recv() {
                // A failed read is the reader's last.
                if let Ok(bytes) = read {
                    kept.read(&bytes);
                }
            }
            if chunks.sender_strong_count() == 0 {
                // The reader ended, at stdin's end (or a failed read), which serving did not
                // see. (One that reads the end from now on finds the channel closed and keeps
                // it itself.)
                kept.end();
            }
        });
    }
}

/// Gives stdout back to stderr when dropped, and lets the log reach it.
struct ReleaseStdout(Option<StrayOutput>);

impl ReleaseStdout {
    /// Starts moving what is printed to fd 1 to the log, if not yet.
    fn forward_stray_output(&mut self) {
        if let Some(stray) = &mut self.0 {
            stray.forward();
        }
    }
}

impl Drop for ReleaseStdout {
    fn drop(&mut self) {
        if let Some(stray) = self.0.take() {
            release_stdout(stray, LOG_FLUSH);
        }
    }
}

/// Aborts a task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the serving loop's framer held and what the fallback reader had read ahead are
    /// kept for the next serving in the order they came, whichever is dropped first; and
    /// stdin's end, if the reader ended at it. (The one test of this binary that keeps.)
    #[test]
    fn a_serving_that_ends_keeps_its_begun_line_and_the_chunks_read_ahead_in_order() {
        for framer_first in [true, false] {
            let (reader, chunks) = mpsc::channel(8);
            reader.try_send(Ok(b"o\nnext\nla".to_vec())).unwrap();
            reader.try_send(Err(io::Error::other("ignored"))).unwrap();
            reader.try_send(Ok(b"st".to_vec())).unwrap();
            let input = Input::Thread {
                chunks,
                ended: false,
            };
            let mut framer = StdinFramer(Framer::new(100));
            framer.0.push(b"first\nzer", &mut |_| {});
            if framer_first {
                drop(framer);
                drop(input);
            } else {
                drop(input);
                drop(framer);
            }
            // The reader is alive: it keeps its next read itself.
            let kept = stdin_leftover::keep(std::mem::take);
            assert_eq!(
                String::from_utf8_lossy(&kept.unframed.bytes),
                "zero\nnext\nlast"
            );
            assert!(!kept.ended);
            assert!(
                reader.try_send(Ok(Vec::new())).is_err(),
                "the channel is closed"
            );
        }
        let (reader, chunks) = mpsc::channel(8);
        reader.try_send(Ok(b"end\n".to_vec())).unwrap();
        // The reader ended at stdin's end.
        drop(reader);
        drop(Input::Thread {
            chunks,
            ended: false,
        });
        let kept = stdin_leftover::keep(std::mem::take);
        assert_eq!(kept.unframed.bytes, b"end\n");
        assert!(kept.ended);
    }
}
