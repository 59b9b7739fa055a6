//! A map spread over [`SHARDS`] maps, each behind its own lock, chosen by a hash of the key:
//! an insert, a lookup or a removal is one hash and one map operation under one shard's lock,
//! O(1), and threads seldom meet on a lock. Visiting every entry takes one shard's lock at a
//! time, never all of them at once. The sessions are kept this way (the server's list that
//! broadcasts reach, and the HTTP endpoint's table by session id).

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, RandomState};
use std::sync::{Mutex, MutexGuard};

/// How many maps the entries are spread over: enough that threads seldom meet on one lock.
const SHARDS: usize = 64;

pub(crate) struct ShardedMap<K, V> {
    shards: Box<[Mutex<HashMap<K, V>>]>,
    hasher: RandomState,
}

impl<K: Hash + Eq, V> Default for ShardedMap<K, V> {
    fn default() -> Self {
        ShardedMap {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            hasher: RandomState::new(),
        }
    }
}

impl<K: Hash + Eq, V> ShardedMap<K, V> {
    fn shard<Q: Hash + ?Sized>(&self, key: &Q) -> MutexGuard<'_, HashMap<K, V>> {
        let index = self.hasher.hash_one(key) as usize % SHARDS;
        self.shards[index].lock().expect("lock poisoned")
    }

    pub(crate) fn insert(&self, key: K, value: V) {
        let mut shard = self.shard(&key);
        shard.insert(key, value);
    }

    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn get_cloned<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
        V: Clone,
    {
        self.shard(key).get(key).cloned()
    }

    pub(crate) fn remove<Q>(&self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shard(key).remove(key)
    }

    /// Keeps the entries `keep` says to keep, one shard at a time.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn retain(&self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        for shard in &self.shards {
            shard.lock().expect("lock poisoned").retain(&mut keep);
        }
    }

    /// What `pick` takes from each entry, one shard at a time.
    pub(crate) fn collect<T>(&self, mut pick: impl FnMut(&V) -> Option<T>) -> Vec<T> {
        let mut picked = Vec::new();
        for shard in &self.shards {
            picked.extend(
                shard
                    .lock()
                    .expect("lock poisoned")
                    .values()
                    .filter_map(&mut pick),
            );
        }
        picked
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|shard| shard.lock().expect("lock poisoned").len())
            .sum()
    }
}
