//! Serving stdio again in the same process, as a program does that rebuilds its server (after
//! its configuration changed, say): here a tool ends the serving and `main` serves anew.
//!
//! Nothing the client sends in between is lost: the next serving writes to the same stdout and
//! begins with what the last one had read of stdin but not handled (the start of a line, or
//! what a thread of the ended serving was blocked reading). The tests run it to prove so.
//!
//! ```text
//! cargo run --example serving_again
//! ```

use std::sync::atomic::{AtomicU32, Ordering};

use mcp_runtime::prelude::*;
use tokio::sync::Notify;

/// Told to end the serving.
static SERVE_AGAIN: Notify = Notify::const_new();

/// How many servings have begun.
static SERVINGS: AtomicU32 = AtomicU32::new(0);

/// Says which serving answers: 1 for the first, 2 for the next, and so on.
#[mcp_tool]
fn serving() -> u32 {
    SERVINGS.load(Ordering::Relaxed)
}

/// Ends this serving once this reply is out; the program serves again at once.
#[mcp_tool]
fn serve_again() -> String {
    SERVE_AGAIN.notify_one();
    "serving again".to_owned()
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), mcp_runtime::Error> {
    loop {
        SERVINGS.fetch_add(1, Ordering::Relaxed);
        let server = mcp_runtime::server!().name("serving-again").build()?;
        tokio::select! {
            served = server.serve_stdio() => return served,
            () = SERVE_AGAIN.notified() => {}
        }
    }
}
