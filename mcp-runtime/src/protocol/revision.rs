//! Protocol revisions the runtime speaks, and what each of them allows on the wire.
//!
//! A request is always handled under one revision: the one negotiated by `initialize` for the
//! session-based revisions. The revision travels with each request (see [`crate::Context`]), so
//! handlers and encoders never consult global session state to decide what they may send.

use std::fmt;

/// A revision of the Model Context Protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Revision {
    /// `2025-03-26`: the first revision with Streamable HTTP; JSON-RPC batches allowed.
    V2025_03_26,
    /// `2025-06-18`: no batches; titles, `outputSchema` and `structuredContent`, elicitation.
    V2025_06_18,
    /// `2025-11-25`: the last session-based revision.
    V2025_11_25,
}

impl Revision {
    /// Every session-based revision the runtime negotiates, oldest first.
    pub const ALL: [Revision; 3] = [
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
    ];

    /// The revision offered to a client that asks for one the runtime does not speak.
    pub const LATEST: Revision = Revision::V2025_11_25;

    /// The revision's date string, as sent in `protocolVersion`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
        }
    }

    /// Parses a `protocolVersion` string; `None` for a revision the runtime does not speak.
    pub fn parse(version: &str) -> Option<Revision> {
        Revision::ALL.into_iter().find(|r| r.as_str() == version)
    }

    /// Whether JSON-RPC batches (arrays of messages) are allowed.
    pub const fn allows_batches(self) -> bool {
        matches!(self, Revision::V2025_03_26)
    }

    /// Whether an error reply that cannot name a request (a parse error) leaves `id` out, as
    /// 2025-11-25 specifies, rather than sending JSON-RPC 2.0's `"id": null`.
    pub const fn omits_unknown_error_ids(self) -> bool {
        matches!(self, Revision::V2025_11_25)
    }

    /// Whether `title`, `outputSchema`, `structuredContent` and resource links exist.
    pub const fn has_structured_output(self) -> bool {
        !matches!(self, Revision::V2025_03_26)
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
