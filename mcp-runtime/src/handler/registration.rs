//! How a handler is registered: one `#[mcp_tool]`, `#[mcp_resource]` or `#[mcp_prompt]`
//! function, collected from the whole program with `inventory`, one collection per kind.
//!
//! A [`Registration<K>`] holds the function that builds the handler's [`Entry<K>`] (what the
//! server keeps to list and call it). The constructor generated code calls is added where
//! each kind's entry is made (`Registration::tool::<T>()` in `tool/registry.rs`;
//! `Registration::resource` and `Registration::prompt` in `server/methods/linked.rs`, which
//! links in their methods), so this module needs no kind.

use super::{Entry, Kind};

/// One annotated function of kind `K`, as collected from the whole program.
///
/// Generated code submits one per function; [`ServerBuilder::registered`] gathers them.
///
/// [`ServerBuilder::registered`]: crate::ServerBuilder::registered
pub struct Registration<K: Kind> {
    entry: fn() -> Entry<K>,
}

impl<K: Kind> Registration<K> {
    /// A registration whose entry `entry` builds.
    pub(crate) const fn new(entry: fn() -> Entry<K>) -> Registration<K> {
        Registration { entry }
    }

    /// The entry, built now.
    pub(crate) fn entry(&self) -> Entry<K> {
        (self.entry)()
    }
}

/// The entries of every registration of kind `K` in the program, built now.
pub(crate) fn registered<K: Kind>() -> impl Iterator<Item = Entry<K>>
where
    Registration<K>: inventory::Collect,
{
    inventory::iter::<Registration<K>>
        .into_iter()
        .map(Registration::entry)
}
