//! Log messages to the client (`notifications/message`), filtered by the level the client set
//! with `logging/setLevel`.

use serde::Serialize;

pub use crate::protocol::LoggingLevel;

use super::{Context, RequestState, SessionLink};
use crate::outbound::Outgoing;

#[derive(Serialize)]
struct MessageParams<'a, T: Serialize> {
    level: LoggingLevel,
    #[serde(skip_serializing_if = "Option::is_none")]
    logger: Option<&'a str>,
    data: &'a T,
}

/// Sends `notifications/message` for the request `state` of `session`, if the client's level
/// lets it through: on the request's own stream while it runs; after it (answered or
/// cancelled), on the session's channel, or nowhere for a stateless request, whose log
/// messages belong to its response stream alone (2026-07-28, server/utilities/logging) and
/// end with it (basic/transports/stdio: nothing more for a cancelled request).
pub(crate) fn send_log(
    session: &dyn SessionLink,
    state: &RequestState,
    level: LoggingLevel,
    logger: Option<&str>,
    data: &impl Serialize,
) {
    // A stateless request's `_meta` sets its own level, and without one it gets no log
    // messages at all (2026-07-28, server/utilities/logging); a session has its
    // `logging/setLevel`.
    let threshold = match &state.envelope {
        Some(_) if state.is_finished() => return,
        Some(envelope) => envelope.log_level,
        None => Some(session.log_level()),
    };
    if threshold.is_none_or(|threshold| level < threshold) {
        return;
    }
    let message = crate::jsonrpc::encode_notification(
        "notifications/message",
        &MessageParams {
            level,
            logger,
            data,
        },
    );
    if state.is_finished() {
        let related = None;
        session
            .outbound()
            .send(Outgoing::Notification { related }, message);
    } else {
        state.notify(message);
    }
}

impl Context {
    /// Sends a log message at `level` (if the client's level lets it through), from `logger`.
    /// `data` is any JSON: a string, or an object with details.
    pub fn log(&self, level: LoggingLevel, logger: Option<&str>, data: &impl Serialize) {
        send_log(self.session(), self.request_state(), level, logger, data);
    }

    /// Logs at `debug`.
    pub fn debug(&self, message: impl AsRef<str>) {
        self.log(LoggingLevel::Debug, None, &message.as_ref());
    }

    /// Logs at `info`.
    pub fn info(&self, message: impl AsRef<str>) {
        self.log(LoggingLevel::Info, None, &message.as_ref());
    }

    /// Logs at `notice`.
    pub fn notice(&self, message: impl AsRef<str>) {
        self.log(LoggingLevel::Notice, None, &message.as_ref());
    }

    /// Logs at `warning`.
    pub fn warning(&self, message: impl AsRef<str>) {
        self.log(LoggingLevel::Warning, None, &message.as_ref());
    }

    /// Logs at `error`.
    pub fn error(&self, message: impl AsRef<str>) {
        self.log(LoggingLevel::Error, None, &message.as_ref());
    }

    /// Logs at `critical`.
    pub fn critical(&self, message: impl AsRef<str>) {
        self.log(LoggingLevel::Critical, None, &message.as_ref());
    }
}
