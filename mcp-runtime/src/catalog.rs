//! A frozen, sorted set of named handlers (tools, prompts, resources): looked up by key, listed
//! in key order, paged by the key of the last item sent.

use std::sync::{Arc, RwLock};

use crate::error::{BuildError, BuildProblem};

/// A value replaced as a whole while readers keep the version they loaded: the lists of a
/// running server.
pub(crate) struct Live<T> {
    current: RwLock<Arc<T>>,
}

impl<T> Live<T> {
    pub(crate) fn new(value: T) -> Live<T> {
        Live {
            current: RwLock::new(Arc::new(value)),
        }
    }

    /// The current version.
    pub(crate) fn load(&self) -> Arc<T> {
        Arc::clone(&self.current.read().expect("lock poisoned"))
    }

    /// Replaces the value with `change(current)`, if it gives one; returns whether it did.
    pub(crate) fn update<E>(
        &self,
        change: impl FnOnce(&T) -> Result<Option<T>, E>,
    ) -> Result<bool, E> {
        let mut current = self.current.write().expect("lock poisoned");
        match change(&current)? {
            Some(next) => {
                *current = Arc::new(next);
                Ok(true)
            }
            None => Ok(false),
        }
    }
}

/// An item of a catalog.
pub(crate) trait Entry {
    /// What it is, for error messages ("tool", "prompt", "resource").
    const KIND: &'static str;
    /// Its unique key: a name or a URI.
    fn key(&self) -> &str;
    /// Where it was defined.
    fn location(&self) -> &str;
    /// Its JSON in a list result, for one revision.
    fn wire(&self, revision: crate::Revision) -> &serde_json::value::RawValue;
    /// Whether it needs OAuth scopes of its caller.
    fn scoped(&self) -> bool;
    /// What is wrong with it alone, if anything (checked when it joins a catalog).
    fn problem(&self) -> Option<BuildProblem> {
        None
    }
}

/// Entries sorted by key, shared so that a changed catalog (a tool added at run time) reuses
/// the entries of the one it replaces.
pub(crate) struct Catalog<E> {
    entries: Vec<Arc<E>>,
    /// Whether any entry needs scopes: when none does, a request's scopes need not be read.
    scoped: bool,
}

impl<E> Clone for Catalog<E> {
    fn clone(&self) -> Self {
        Catalog {
            entries: self.entries.clone(),
            scoped: self.scoped,
        }
    }
}

impl<E> Default for Catalog<E> {
    fn default() -> Self {
        Catalog {
            entries: Vec::new(),
            scoped: false,
        }
    }
}

impl<E: Entry> Catalog<E> {
    /// Sorts the entries; the same definition registered twice (one place in the source) is
    /// kept once, two entries with one key are an error naming both definitions (every such
    /// pair, at once).
    pub(crate) fn new(entries: Vec<E>) -> Result<Catalog<E>, BuildError> {
        Catalog::from_shared(entries.into_iter().map(Arc::new).collect())
    }

    /// Like [`new`](Self::new), for entries already shared.
    pub(crate) fn from_shared(entries: Vec<Arc<E>>) -> Result<Catalog<E>, BuildError> {
        let order = crate::sort_order::of(entries.iter().map(|entry| entry.key()));
        let mut entries: Vec<Arc<E>> = order.iter().map(|&i| Arc::clone(&entries[i])).collect();
        entries.dedup_by(|a, b| {
            a.key() == b.key()
                && a.location() == b.location()
                && !crate::error::made_at_run_time(a.location())
        });
        let duplicates = entries
            .windows(2)
            .filter(|pair| pair[0].key() == pair[1].key())
            .map(|pair| BuildProblem::Duplicate {
                kind: E::KIND,
                name: pair[0].key().to_owned(),
                first: pair[0].location().to_owned(),
                second: pair[1].location().to_owned(),
            });
        let problems = entries
            .iter()
            .filter_map(|entry| entry.problem())
            .chain(duplicates)
            .collect();
        match BuildError::of(problems) {
            Some(error) => Err(error),
            None => Ok(Catalog::sorted(entries)),
        }
    }

    /// A catalog of `entries`, sorted and without duplicates.
    fn sorted(entries: Vec<Arc<E>>) -> Catalog<E> {
        let scoped = entries.iter().any(|entry| entry.scoped());
        Catalog { entries, scoped }
    }

    /// Whether any entry needs OAuth scopes of its caller.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn any_scoped(&self) -> bool {
        self.scoped
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn get(&self, key: &str) -> Option<&Arc<E>> {
        let index = self
            .entries
            .binary_search_by(|entry| entry.key().cmp(key))
            .ok()?;
        Some(&self.entries[index])
    }

    /// The entries in key order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &E> {
        self.entries.iter().map(|entry| &**entry)
    }

    /// This catalog with `entry` added; an error if its key is taken.
    pub(crate) fn with(&self, entry: E) -> Result<Catalog<E>, BuildError> {
        if let Some(existing) = self.get(entry.key()) {
            return Err(BuildProblem::Duplicate {
                kind: E::KIND,
                name: entry.key().to_owned(),
                first: existing.location().to_owned(),
                second: entry.location().to_owned(),
            }
            .into());
        }
        let mut entries = self.entries.clone();
        entries.push(Arc::new(entry));
        Catalog::from_shared(entries)
    }

    /// This catalog without the entry `key`; `None` if there is no such entry.
    pub(crate) fn without(&self, key: &str) -> Option<Catalog<E>> {
        let index = self
            .entries
            .binary_search_by(|entry| entry.key().cmp(key))
            .ok()?;
        let mut entries = self.entries.clone();
        entries.remove(index);
        Some(Catalog::sorted(entries))
    }

    /// The shared entries.
    pub(crate) fn shared(&self) -> &[Arc<E>] {
        &self.entries
    }

    /// The entries whose keys sort after `after`, in order.
    pub(crate) fn after(&self, after: Option<&str>) -> &[Arc<E>] {
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
