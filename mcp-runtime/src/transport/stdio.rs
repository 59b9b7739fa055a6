//! Serving over stdin/stdout: newline-delimited JSON, one message per line.
//!
//! When stdin and stdout are pipes or sockets (see [`nonblocking`](super::nonblocking)), a task
//! on the runtime reads stdin, handles each message it brings (a request that finishes at once
//! is answered right there) and writes the replies with one `write` per read: one thread, no
//! hand-off. Otherwise a reader thread frames stdin and hands each message to the session.
//! Either way a request that waits runs on as a task of its own, and replies and
//! notifications leave in the order they are ready (see [`SharedWriter`]). At the end of stdin
//! the server stops reading, lets every request in flight finish, writes its reply, and
//! returns.

use std::io::{self, IsTerminal};
use std::sync::Arc;

use tokio::sync::oneshot;

use super::lines::{Frame, Framer, ReadBuffer, read_lines};
use super::stdout_guard::take_stdout_for_protocol;
use super::writer::{SharedWriter, mark_reader_thread};
use crate::error::Error;
use crate::jsonrpc::RpcError;
use crate::server::{Outbound, Server, Session};

impl Server {
    /// Serves over stdin/stdout until stdin closes. Call within a Tokio runtime.
    pub async fn serve_stdio(&self) -> Result<(), Error> {
        let protocol_out = take_stdout_for_protocol()?;
        if io::stdin().is_terminal() {
            self.introduce_on_terminal();
        }
        let max = self.core.max_message_bytes;

        #[cfg(unix)]
        if let Some((input, writer)) = non_blocking_stdio(&protocol_out) {
            drop(protocol_out);
            let session = self.stdio_session(&writer);
            let read_outcome = read_on_runtime(&input, max, &session, &writer).await;
            end_session(session).await;
            let write_outcome = writer.finish_on_runtime().await;
            return stdio_outcome(read_outcome, write_outcome);
        }

        let writer = SharedWriter::new(protocol_out);
        let session = self.stdio_session(&writer);
        let runtime = tokio::runtime::Handle::current();
        let (reader_done, reader_finished) = oneshot::channel();
        let reader_session = session.clone();
        std::thread::Builder::new()
            .name("mcp-stdin".to_owned())
            .spawn(move || {
                let _runtime = runtime.enter();
                mark_reader_thread();
                let outcome = read_lines(io::stdin().lock(), max, |frame| {
                    on_frame(&reader_session, max, frame);
                });
                drop(reader_session);
                let _ = reader_done.send(outcome);
            })?;
        let read_outcome = reader_finished.await.unwrap_or(Ok(()));
        end_session(session).await;
        let write_outcome = tokio::task::spawn_blocking(move || writer.finish())
            .await
            .unwrap_or(Ok(()));
        stdio_outcome(read_outcome, write_outcome)
    }

    fn stdio_session(&self, writer: &Arc<SharedWriter>) -> Arc<Session> {
        let sender = Arc::clone(writer);
        let outbound = Outbound::new(self.core.trace, move |message| sender.send(&message));
        Session::new(self.core.clone(), outbound)
    }

    /// [`serve_stdio`](Self::serve_stdio) on a single-threaded runtime of its own, for
    /// [`ServerBuilder::run`](crate::ServerBuilder::run), which says why one thread.
    pub(crate) fn run_stdio(&self) -> Result<(), Error> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(self.serve_stdio())
    }

    fn introduce_on_terminal(&self) {
        let info = &self.core.info;
        eprintln!(
            "{} {}: a Model Context Protocol server speaking JSON-RPC on stdin/stdout.\n\
             An MCP client (Claude Desktop, MCP Inspector, ...) normally starts it and does the talking.\n\
             To try it by hand, type one JSON message per line, for example:\n\
             {{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{{}},\"clientInfo\":{{\"name\":\"terminal\",\"version\":\"0\"}}}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}}\n\
             Set MCP_TRACE=1 to see every message in and out on stderr. Press Ctrl-D to quit.",
            info.name, info.version
        );
    }
}

/// After the end of stdin: the requests in flight finish.
async fn end_session(session: Arc<Session>) {
    session.close();
    session.wait_idle().await;
}

/// How serving went, from how reading and writing ended.
fn stdio_outcome(read: io::Result<()>, write: io::Result<()>) -> Result<(), Error> {
    read?;
    match write {
        // The client closing its end of the pipe is how stdio sessions usually end.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Hands one framed message to the session.
fn on_frame(session: &Arc<Session>, max: usize, frame: Frame<'_>) {
    match frame {
        Frame::Message(message) => session.receive(message),
        Frame::Oversized => session.send_error(
            None,
            &RpcError::invalid_request(format!(
                "message discarded: it is longer than the server's limit of {max} bytes (ServerBuilder::max_message_bytes)"
            )),
        ),
    }
}

/// Stdin, and a writer on the protocol's stdout, both non-blocking; `None` unless both can be.
#[cfg(unix)]
fn non_blocking_stdio(
    protocol_out: &std::fs::File,
) -> Option<(super::nonblocking::NonBlocking, Arc<SharedWriter>)> {
    use std::os::fd::AsFd;

    use super::nonblocking::NonBlocking;

    let input = NonBlocking::reader(io::stdin().as_fd())?;
    let output = NonBlocking::writer(protocol_out.as_fd())?;
    Some((input, SharedWriter::non_blocking(output)))
}

/// Reads stdin to its end on the runtime, handling each read's messages before the next read
/// and writing their ready replies together.
#[cfg(unix)]
async fn read_on_runtime(
    input: &super::nonblocking::NonBlocking,
    max: usize,
    session: &Arc<Session>,
    writer: &Arc<SharedWriter>,
) -> io::Result<()> {
    let mut framer = Framer::new(max);
    let mut chunk = ReadBuffer::new();
    let mut deliver = |frame: Frame<'_>| on_frame(session, max, frame);
    loop {
        let read = input.read(chunk.space()).await?;
        if read == 0 {
            break;
        }
        writer.hold();
        framer.push(chunk.filled(read), &mut deliver);
        writer.release();
    }
    writer.hold();
    framer.end(&mut deliver);
    writer.release();
    Ok(())
}
