//! How a handler is registered: one `#[mcp_tool]`, `#[mcp_resource]` or `#[mcp_prompt]`
//! function, collected from the whole program with `inventory`, one collection per kind.
//!
//! A [`Registration<E>`] holds the function that builds the kind's entry `E` (what the server
//! keeps to list and call the handler). Each kind's module adds the constructor that builds
//! its own entry, so this module needs no kind.

/// One annotated function, as collected from the whole program; `E` is its kind's entry.
///
/// Generated code submits one per function; [`ServerBuilder::registered`] gathers them.
///
/// [`ServerBuilder::registered`]: crate::ServerBuilder::registered
pub struct Registration<E> {
    entry: fn() -> E,
}

impl<E> Registration<E> {
    /// A registration whose entry `entry` builds.
    pub(crate) const fn new(entry: fn() -> E) -> Registration<E> {
        Registration { entry }
    }

    /// The entry, built now.
    pub(crate) fn entry(&self) -> E {
        (self.entry)()
    }
}

/// Every registration of kind `E` in the program.
pub(crate) fn registered<E: 'static>() -> impl Iterator<Item = &'static Registration<E>>
where
    Registration<E>: inventory::Collect,
{
    inventory::iter::<Registration<E>>.into_iter()
}
