//! The list methods' shared shape: pages of cached JSON, with opaque cursors.
//!
//! Cursors name the key of the last item of the previous page, so paging stays correct while
//! items are added or removed between requests.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::Request;
use super::params_object::ParamsObject;
use crate::catalog::{Catalog, Entry};
use crate::jsonrpc::RpcError;

const CURSOR_PREFIX: &str = "after:";

/// One page of a list result: `{"<key>": [...], "nextCursor": "..."}`.
pub(super) struct Page<'a> {
    key: &'static str,
    items: Vec<&'a RawValue>,
    next_cursor: Option<String>,
}

impl Serialize for Page<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map =
            serializer.serialize_map(Some(1 + usize::from(self.next_cursor.is_some())))?;
        map.serialize_entry(self.key, &self.items)?;
        if let Some(cursor) = &self.next_cursor {
            map.serialize_entry("nextCursor", cursor)?;
        }
        map.end()
    }
}

/// Answers a list method with the page of `catalog` it asks for, under `key`, each entry as
/// the request's revision shows it.
pub(super) fn list<E: Entry>(
    request: &Request<'_>,
    params: Option<&str>,
    method: &str,
    key: &'static str,
    catalog: &Catalog<E>,
) -> Result<Vec<u8>, RpcError> {
    let revision = request.revision();
    let page_size = request.server().page_size;
    let page = page(method, params, catalog, page_size, key, |entry| {
        entry.wire(revision)
    })?;
    Ok(request.reply_cacheable(&page))
}

/// The key a list request's cursor says the page starts after (`None`: the first page).
fn after_key(method: &str, params: Option<&str>) -> Result<Option<String>, RpcError> {
    let cursor = ParamsObject::of(method, params)?.optional::<String>("cursor")?;
    let Some(cursor) = cursor else {
        return Ok(None);
    };
    match cursor.strip_prefix(CURSOR_PREFIX) {
        Some(key) => Ok(Some(key.to_owned())),
        None => Err(RpcError::invalid_params(format!(
            "invalid cursor `{cursor}` for `{method}`: pass back the `nextCursor` of the previous page"
        ))),
    }
}

/// The page of `catalog` a list request asks for.
fn page<'a, E: Entry>(
    method: &str,
    params: Option<&str>,
    catalog: &'a Catalog<E>,
    page_size: usize,
    key: &'static str,
    wire: impl Fn(&'a E) -> &'a RawValue,
) -> Result<Page<'a>, RpcError> {
    let after = after_key(method, params)?;
    let rest = catalog.after(after.as_deref());
    let items = &rest[..rest.len().min(page_size)];
    let last_key = if items.len() < rest.len() {
        items.last().map(|e| e.key())
    } else {
        None
    };
    Ok(Page {
        key,
        items: items.iter().map(|entry| wire(entry)).collect(),
        next_cursor: last_key.map(cursor_after),
    })
}

/// The cursor of the page after the one that ends with `key`. Out of the generic [`page`]:
/// one copy, not one per kind of list.
fn cursor_after(key: &str) -> String {
    format!("{CURSOR_PREFIX}{key}")
}
