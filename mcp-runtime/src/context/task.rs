//! Where a call that may run as a task becomes one ([`tasks`](crate::tasks)).

use super::Context;

impl Context {
    /// Marks the point from which this call may go on as a task.
    ///
    /// A call to a tool with task support, from a client that declares the tasks extension,
    /// runs in the request until the tool first waits: if it returns without waiting the
    /// client gets its result; if it asks a question first the client gets an input-required
    /// result and retries with the answer (revision 2026-07-28's input-required flow); when it
    /// waits on anything else, or reaches this call, the client gets a task handle and the
    /// tool goes on in the background (questions asked from then on are answered with
    /// `tasks/update`). A tool that calls this first is a task from the start; one that asks
    /// first and calls this then gathers its input before the task begins.
    ///
    /// Anywhere else (a session, a client without the extension, a tool without task support)
    /// it returns at once. Like any handler code before a question, what runs before this
    /// point runs again when the tool is re-run with an answer.
    pub async fn continue_as_task(&self) {
        if self.revision().is_stateless() {
            tokio::task::yield_now().await;
        }
    }
}
