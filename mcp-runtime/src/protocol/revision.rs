//! Protocol revisions the runtime speaks, and what each of them allows on the wire.
//!
//! A request is always handled under one revision: the one negotiated by `initialize` for the
//! session-based revisions (2025-03-26 to 2025-11-25), or the one a request names in its own
//! `_meta` from 2026-07-28 on (the stateless revisions). The revision travels with each request
//! (see [`crate::Context`]), so handlers and encoders never consult global session state to
//! decide what they may send.

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
    /// `2026-07-28`: stateless. No `initialize`: every request names its revision and the
    /// client's capabilities in `_meta`; handlers ask the client through input-required
    /// results; changes reach clients through `subscriptions/listen`.
    V2026_07_28,
}

impl Revision {
    /// Every revision the runtime serves, oldest first.
    pub const ALL: [Revision; 4] = [
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
    ];

    /// The session-based revisions, which `initialize` negotiates, oldest first.
    pub const SESSION_BASED: [Revision; 3] = [
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
    ];

    /// The current revision.
    pub const LATEST: Revision = Revision::V2026_07_28;

    /// The latest session-based revision: what `initialize` offers a client that asks for one
    /// the runtime does not negotiate, and what a session is served under before `initialize`.
    pub const LATEST_SESSION_BASED: Revision = Revision::V2025_11_25;

    /// The revision's date string, as sent in `protocolVersion`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
        }
    }

    /// Parses a `protocolVersion` string; `None` for a revision the runtime does not speak.
    pub fn parse(version: &str) -> Option<Revision> {
        // Newest first: the revisions most requests name (a 2025-03-26 client sends no
        // version header, and `initialize` names its revision once).
        Revision::ALL
            .into_iter()
            .rev()
            .find(|r| r.as_str() == version)
    }

    /// Whether the revision is stateless (2026-07-28 on): named by each request's `_meta`,
    /// never negotiated by `initialize`.
    pub const fn is_stateless(self) -> bool {
        matches!(self, Revision::V2026_07_28)
    }

    /// Whether JSON-RPC batches (arrays of messages) are allowed.
    pub const fn allows_batches(self) -> bool {
        matches!(self, Revision::V2025_03_26)
    }

    /// Whether an error reply that cannot name a request (a parse error) leaves `id` out, as
    /// 2025-11-25 specifies, rather than sending JSON-RPC 2.0's `"id": null`.
    pub const fn omits_unknown_error_ids(self) -> bool {
        matches!(self, Revision::V2025_11_25 | Revision::V2026_07_28)
    }

    /// Whether `title`, `outputSchema`, `structuredContent` and resource links exist.
    pub const fn has_structured_output(self) -> bool {
        !matches!(self, Revision::V2025_03_26)
    }

    /// Whether `outputSchema` may be any JSON Schema and `structuredContent` any JSON value
    /// (2026-07-28), rather than objects only.
    pub const fn allows_any_structured_content(self) -> bool {
        matches!(self, Revision::V2026_07_28)
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
