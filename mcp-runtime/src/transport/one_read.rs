//! The messages of one read of stdin, handed to the session, by whichever side reads: the
//! runtime's serving loop (`stdio.rs`) or the thread in its turn (`stdin_turns.rs`).

use std::sync::Arc;

use super::lines::{Frame, Framer};
use super::writer::SharedWriter;
use crate::server::Session;

/// Frames `data` and hands each message to `deliver`, with the writer held so that the
/// replies ready at once leave together in one write; whether any of the messages started a
/// task (a handler that waits), which decides who reads stdin next.
pub(crate) fn handle_read(
    data: &[u8],
    framer: &mut Framer,
    deliver: &mut dyn FnMut(Frame<'_>),
    session: &Session,
    writer: &Arc<SharedWriter>,
) -> bool {
    let started = session.tasks_started();
    let hold = writer.hold();
    framer.push(data, deliver);
    drop(hold);
    session.tasks_started() != started
}
