//! The severities of log messages (`notifications/message`), shared by `logging/setLevel` and
//! the 2026-07-28 per-request `_meta` log level.

use serde::{Deserialize, Serialize};

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
