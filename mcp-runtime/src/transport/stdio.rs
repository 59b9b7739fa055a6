//! Serving over stdin/stdout: newline-delimited JSON, one message per line.
//!
//! A reader thread frames stdin and hands each message to the session (which spawns a task per
//! request); replies and notifications are written by the thread that has them ready, in the
//! order they are ready, with messages ready together sharing one `write` (see
//! [`SharedWriter`]). At the end of stdin the server stops reading, lets every request in flight
//! finish, writes its reply, and returns.

use std::io::{self, IsTerminal};

use tokio::sync::oneshot;

use super::lines::{Frame, read_lines};
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

        let writer = SharedWriter::new(protocol_out);
        let sender = std::sync::Arc::clone(&writer);
        let outbound = Outbound::new(self.core.trace, move |message| sender.send(&message));
        let session = Session::new(self.core.clone(), outbound);
        let max = self.core.max_message_bytes;
        let runtime = tokio::runtime::Handle::current();
        let (reader_done, reader_finished) = oneshot::channel();
        let reader_session = session.clone();
        std::thread::Builder::new()
            .name("mcp-stdin".to_owned())
            .spawn(move || {
                let _runtime = runtime.enter();
                mark_reader_thread();
                let outcome = read_lines(io::stdin().lock(), max, |frame| match frame {
                    Frame::Message(message) => reader_session.receive(message),
                    Frame::Oversized => reader_session.send_error(
                        None,
                        &RpcError::invalid_request(format!(
                            "message discarded: it is longer than the server's limit of {max} bytes (ServerBuilder::max_message_size)"
                        )),
                    ),
                });
                drop(reader_session);
                let _ = reader_done.send(outcome);
            })?;

        let read_outcome = reader_finished.await.unwrap_or(Ok(()));
        session.close();
        session.wait_idle().await;
        drop(session);
        let write_outcome = tokio::task::spawn_blocking(move || writer.finish())
            .await
            .unwrap_or(Ok(()));
        read_outcome?;
        match write_outcome {
            // The client closing its end of the pipe is how stdio sessions usually end.
            Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            other => Ok(other?),
        }
    }

    /// Like [`serve_stdio`](Self::serve_stdio), on a Tokio runtime of its own.
    pub fn run_stdio(&self) -> Result<(), Error> {
        tokio::runtime::Builder::new_multi_thread()
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
