//! A server whose tools print to stdout, as careless code and chatty dependencies do.
//!
//! In stdio mode stdout belongs to the protocol: the runtime moves everything else that is
//! written to stdout (by `println!`, by direct writes, by child processes) to stderr, so the
//! client only ever reads JSON-RPC. The tests run this server to prove it.
//!
//! ```text
//! cargo run --example printing
//! ```

use std::io::Write;
use std::time::Duration;

use mcp_runtime::prelude::*;

/// Says something, and prints it to stdout three ways on the side.
#[mcp_tool]
fn shout(
    /// What to say.
    text: String,
) -> String {
    println!("println: {text}");
    let _ = std::io::stdout().write_all(format!("write_all: {text}\n").as_bytes());
    let _ = std::process::Command::new("echo")
        .arg(format!("child process: {text}"))
        .status();
    text.to_uppercase()
}

/// Waits, then answers: for watching requests in flight.
#[mcp_tool]
async fn wait(
    /// How long to wait, in milliseconds.
    ms: u64,
) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("waited {ms} ms")
}

fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::server!()
        .max_message_bytes(64 * 1024)
        // Short, for the tests: a request still running 2 s after stdin ends is cancelled.
        .shutdown_grace(Duration::from_secs(2))
        // Small, for the tests: with 256 KiB of replies unread, stdin is not read.
        .max_output_backlog(256 * 1024)
        .run()
}
