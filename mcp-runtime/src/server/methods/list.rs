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
///
/// Generic over the kind of entry only for what reads the entries; the reply is written by
/// [`reply_page`], once in the binary rather than once per kind.
pub(super) fn list<E: Entry>(
    request: &Request<'_>,
    params: Option<&str>,
    method: &str,
    key: &'static str,
    catalog: &Catalog<E>,
) -> Result<Vec<u8>, RpcError> {
    let after = after_key(method, params)?;
    let rest = catalog.after(after.as_deref());
    let shown = &rest[..rest.len().min(request.server().page_size)];
    let revision = request.revision();
    let items = shown.iter().map(|entry| entry.wire(revision)).collect();
    let last_before_more = if shown.len() < rest.len() {
        shown.last().map(|entry| entry.key())
    } else {
        None
    };
    Ok(reply_page(request, key, items, last_before_more))
}

/// [`list`] of a catalog the server cannot have, its kind's code not being in the program
/// (`linked`): the one page of an empty catalog, the cursor read as [`list`] reads it.
pub(super) fn empty(
    request: &Request<'_>,
    params: Option<&str>,
    method: &str,
    key: &'static str,
) -> Result<Vec<u8>, RpcError> {
    after_key(method, params)?;
    Ok(reply_page(request, key, Vec::new(), None))
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

/// The reply carrying one page of a list under `key`: `items`, and a cursor after
/// `last_before_more` when more entries follow it.
#[inline(never)]
fn reply_page(
    request: &Request<'_>,
    key: &'static str,
    items: Vec<&RawValue>,
    last_before_more: Option<&str>,
) -> Vec<u8> {
    let page = Page {
        key,
        items,
        next_cursor: last_before_more.map(|last| format!("{CURSOR_PREFIX}{last}")),
    };
    request.reply_cacheable(&page)
}
