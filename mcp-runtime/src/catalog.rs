//! A frozen, sorted set of named handlers (tools, prompts, resources): looked up by key, listed
//! in key order, paged by the key of the last item sent.

use crate::BuildError;

/// An item of a catalog.
pub(crate) trait Entry {
    /// What it is, for error messages ("tool", "prompt", "resource").
    const KIND: &'static str;
    /// Its unique key: a name or a URI.
    fn key(&self) -> &str;
    /// Where it was defined.
    fn location(&self) -> &str;
}

/// Entries sorted by key.
pub(crate) struct Catalog<E> {
    entries: Vec<E>,
}

impl<E> Default for Catalog<E> {
    fn default() -> Self {
        Catalog {
            entries: Vec::new(),
        }
    }
}

impl<E: Entry> Catalog<E> {
    /// Sorts the entries; the same entry twice is kept once, two entries with one key are an
    /// error naming both definitions.
    pub(crate) fn new(mut entries: Vec<E>) -> Result<Catalog<E>, BuildError> {
        entries.sort_by(|a, b| a.key().cmp(b.key()));
        entries.dedup_by(|a, b| a.key() == b.key() && a.location() == b.location());
        for pair in entries.windows(2) {
            if pair[0].key() == pair[1].key() {
                return Err(BuildError::Duplicate {
                    kind: E::KIND,
                    name: pair[0].key().to_owned(),
                    first: pair[0].location().to_owned(),
                    second: pair[1].location().to_owned(),
                });
            }
        }
        Ok(Catalog { entries })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn get(&self, key: &str) -> Option<&E> {
        let index = self
            .entries
            .binary_search_by(|entry| entry.key().cmp(key))
            .ok()?;
        Some(&self.entries[index])
    }

    /// The entries in key order.
    pub(crate) fn iter(&self) -> std::slice::Iter<'_, E> {
        self.entries.iter()
    }

    /// The entries whose keys sort after `after`, in order.
    pub(crate) fn after(&self, after: Option<&str>) -> &[E] {
        let start = match after {
            None => 0,
            Some(key) => self.entries.partition_point(|entry| entry.key() <= key),
        };
        &self.entries[start..]
    }
}

/// An entry's list JSON, serialized once per revision on first use.
#[derive(Default)]
pub(crate) struct WireCache {
    slots: [std::sync::OnceLock<Box<serde_json::value::RawValue>>; crate::Revision::ALL.len()],
}

impl WireCache {
    pub(crate) fn get<S: serde::Serialize>(
        &self,
        revision: crate::Revision,
        make: impl FnOnce() -> S,
    ) -> &serde_json::value::RawValue {
        let slot = crate::Revision::ALL
            .iter()
            .position(|r| *r == revision)
            .expect("every revision has a slot");
        self.slots[slot].get_or_init(|| {
            serde_json::value::to_raw_value(&make()).expect("a definition always serializes")
        })
    }
}
