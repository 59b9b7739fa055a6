//! Log messages to the client (`notifications/message`), filtered by the level the client set
//! with `logging/setLevel`.

use serde::{Deserialize, Serialize};

use super::{Context, RequestState};
use crate::server::Session;

/// The syslog severities MCP uses, least severe first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Detailed debugging information.
    Debug,
    /// Normal operation.
    Info,
    /// Normal but significant.
    Notice,
    /// A warning.
    Warning,
    /// An error.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LoggingLevel {
    pub(crate) fn from_index(index: u8) -> LoggingLevel {
        use LoggingLevel::*;
        [
            Debug, Info, Notice, Warning, Error, Critical, Alert, Emergency,
        ]
        .get(usize::from(index))
        .copied()
        .unwrap_or(Emergency)
    }
}

#[derive(Serialize)]
struct MessageParams<'a, T: Serialize> {
    level: LoggingLevel,
    #[serde(skip_serializing_if = "Option::is_none")]
    logger: Option<&'a str>,
    data: &'a T,
}

/// Sends `notifications/message` for the request `state` of `session`, if the client's level
/// lets it through: on the request's own stream while it runs, on the session's channel after.
pub(crate) fn send_log(
    session: &Session,
    state: &RequestState,
    level: LoggingLevel,
    logger: Option<&str>,
    data: &impl Serialize,
) {
    if level < session.log_level() {
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
            .send(crate::server::Outgoing::Notification { related }, message);
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
