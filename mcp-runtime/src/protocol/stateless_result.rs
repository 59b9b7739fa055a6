//! What every result of a stateless revision carries beside its own fields: `resultType`, the
//! server's identity in `_meta`, and on the cacheable results (`server/discover`, the four
//! lists, `resources/read`) how long and how widely a client may cache them (specification
//! 2026-07-28, basic/index "ResultType" and "Per-response protocol fields",
//! server/utilities/caching). Session-based results carry none of it.

use std::borrow::Cow;
use std::time::Duration;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::Implementation;
use super::envelope::SERVER_INFO;

/// How long, and by whom, a client may cache a result of `server/discover`, a list, or
/// `resources/read` (2026-07-28: `ttlMs` and `cacheScope`). The default is
/// [`CacheHints::NONE`]: not cached, private.
///
/// ```
/// use std::time::Duration;
/// use mcp_runtime::{CacheHints, CacheScope, Server};
///
/// let server = Server::builder(mcp_runtime::server_info!())
///     .cache_hints(CacheHints::new(Duration::from_secs(60), CacheScope::Public))
///     .build()
///     .unwrap();
/// # drop(server);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheHints {
    ttl: Duration,
    scope: CacheScope,
}

/// Who may share a cached result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// The same for every user: a shared cache may keep it.
    Public,
    /// Per user: only the client that asked may keep it.
    Private,
}

impl CacheHints {
    /// Not to be reused (`ttlMs: 0`), private: the default, right for any server.
    pub const NONE: CacheHints = CacheHints {
        ttl: Duration::ZERO,
        scope: CacheScope::Private,
    };

    /// Reusable for `ttl` (whole milliseconds), by those `scope` allows.
    pub const fn new(ttl: Duration, scope: CacheScope) -> CacheHints {
        CacheHints { ttl, scope }
    }

    /// How long a client may reuse the result.
    pub const fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Who may share it.
    pub const fn scope(&self) -> CacheScope {
        self.scope
    }
}

impl Default for CacheHints {
    fn default() -> CacheHints {
        CacheHints::NONE
    }
}

/// What one item says of caching the results about it alone (a resource's or a template's
/// `resources/read`), each part set taking the place of the server's: the `Resource` trait's
/// `CACHE_TTL` and `CACHE_SCOPE`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ItemCacheHints {
    pub(crate) ttl: Option<Duration>,
    pub(crate) scope: Option<CacheScope>,
}

impl ItemCacheHints {
    /// The hints of the item's results on a server whose hints are `server`.
    pub(crate) fn over(self, server: CacheHints) -> CacheHints {
        CacheHints {
            ttl: self.ttl.unwrap_or(server.ttl),
            scope: self.scope.unwrap_or(server.scope),
        }
    }
}

/// What a complete result of a stateless revision adds after its own members, written once
/// per server as JSON text: `resultType`, the cache hints on the results that have them, and
/// `_meta` with the server's identity.
#[derive(Debug)]
pub(crate) struct CompleteMembers {
    /// For the results that are not cached.
    pub(crate) plain: Box<str>,
    /// For `server/discover`, the lists and `resources/read`, with the server's hints.
    pub(crate) cacheable: Box<str>,
    /// The server's hints.
    hints: CacheHints,
    /// `{"io.modelcontextprotocol/serverInfo": ...}`, for the members of other hints.
    server_meta: Box<str>,
}

impl CompleteMembers {
    pub(crate) fn new(server: &Implementation, hints: CacheHints) -> CompleteMembers {
        let server_meta = serde_json::to_string(&ServerMeta(server))
            .expect("an Implementation serializes")
            .into_boxed_str();
        CompleteMembers {
            plain: members(None, &server_meta),
            cacheable: members(Some(hints), &server_meta),
            hints,
            server_meta,
        }
    }

    /// What a result of a request of a stateless revision gets after its own members: that it
    /// is complete and who answers (and the server's cache hints if `cacheable`).
    pub(crate) fn for_result(&self, cacheable: bool) -> &str {
        if cacheable {
            &self.cacheable
        } else {
            &self.plain
        }
    }

    /// The members of a cacheable result about one item with hints of its own.
    pub(crate) fn cacheable_for(&self, item: ItemCacheHints) -> Cow<'_, str> {
        let hints = item.over(self.hints);
        if hints == self.hints {
            Cow::Borrowed(&self.cacheable)
        } else {
            Cow::Owned(members(Some(hints), &self.server_meta).into())
        }
    }
}

/// `"resultType":"complete"`, the hints if any, and `"_meta":` with `server_meta`.
fn members(hints: Option<CacheHints>, server_meta: &str) -> Box<str> {
    let mut text = String::from(r#""resultType":"complete""#);
    if let Some(hints) = hints {
        let millis = u64::try_from(hints.ttl.as_millis()).unwrap_or(u64::MAX);
        let scope = match hints.scope {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        };
        text.push_str(&format!(r#","ttlMs":{millis},"cacheScope":"{scope}""#));
    }
    text.push_str(r#","_meta":"#);
    text.push_str(server_meta);
    text.into_boxed_str()
}

/// A stateless result that asks the client for input before the request can complete
/// (basic/patterns/mrtr): the questions by key, and the state to send back with the answers.
#[derive(Serialize)]
pub(crate) struct InputRequiredResult<'a> {
    #[serde(rename = "resultType")]
    pub(crate) result_type: ResultType,
    #[serde(rename = "inputRequests")]
    pub(crate) input_requests: serde_json::Map<String, serde_json::Value>,
    #[serde(rename = "requestState")]
    pub(crate) request_state: String,
    #[serde(rename = "_meta")]
    pub(crate) meta: ServerMeta<'a>,
}

/// Whether a result is final or asks the client for input first.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ResultType {
    Complete,
    InputRequired,
}

impl Serialize for CacheHints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        let millis = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        map.serialize_entry("ttlMs", &millis)?;
        map.serialize_entry("cacheScope", &self.scope)?;
        map.end()
    }
}

/// `{"io.modelcontextprotocol/serverInfo": {...}}`.
pub(crate) struct ServerMeta<'a>(pub(crate) &'a Implementation);

impl Serialize for ServerMeta<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(SERVER_INFO, self.0)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_members_are_the_result_type_the_hints_and_the_server() {
        let server = Implementation::new("s", "1");
        let members = CompleteMembers::new(
            &server,
            CacheHints::new(Duration::from_millis(1500), CacheScope::Public),
        );
        let read = |members: &str| -> serde_json::Value {
            serde_json::from_str(&format!("{{{members}}}")).unwrap()
        };
        assert_eq!(
            read(&members.cacheable),
            json!({"resultType": "complete", "ttlMs": 1500, "cacheScope": "public",
                   "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}})
        );
        let plain = read(&members.plain);
        assert_eq!(plain["resultType"], "complete");
        assert!(plain.get("ttlMs").is_none());
        let own_ttl = ItemCacheHints {
            ttl: Some(Duration::from_secs(5)),
            scope: None,
        };
        let item = read(&members.cacheable_for(own_ttl));
        assert_eq!(item["ttlMs"], 5000);
        assert_eq!(
            item["cacheScope"], "public",
            "the part not set is the server's"
        );
        assert_eq!(item["_meta"], read(&members.cacheable)["_meta"]);
        assert!(matches!(
            members.cacheable_for(ItemCacheHints::default()),
            Cow::Borrowed(_)
        ));
    }
}
