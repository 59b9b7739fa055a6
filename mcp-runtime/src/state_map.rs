//! The values given with `ServerBuilder::state`, by type: what a `State<T>` parameter, a
//! `Context::state` and a completer's `CompletionContext::state` read.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::Arc;

/// State values by type.
#[derive(Default, Clone)]
pub(crate) struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
    }

    /// Whether a `T`, or an `Arc<T>`, was given.
    pub(crate) fn has<T: 'static>(&self) -> bool {
        self.values.contains_key(&TypeId::of::<T>())
            || self.values.contains_key(&TypeId::of::<Arc<T>>())
    }

    /// The `T` given, or the `Arc<T>` given (that very `Arc`, so its other owners share it).
    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        if let Some(value) = self.values.get(&TypeId::of::<T>()) {
            return Arc::clone(value).downcast::<T>().ok();
        }
        let shared = self.values.get(&TypeId::of::<Arc<T>>())?;
        shared.downcast_ref::<Arc<T>>().cloned()
    }
}

impl std::fmt::Debug for StateMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "StateMap({} values)", self.values.len())
    }
}
