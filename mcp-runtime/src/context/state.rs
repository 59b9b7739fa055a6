//! Application state shared by every request: `State<T>`.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::Arc;

/// Application state of type `T`, given to the server at start-up with
/// `ServerBuilder::state(value)` and shared by every request.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// struct Config {
///     greeting: String,
/// }
///
/// /// Greets someone with the configured greeting.
/// #[mcp_tool]
/// fn greet(config: State<Config>, name: String) -> String {
///     format!("{}, {name}!", config.greeting)
/// }
///
/// let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
///     .tool::<greet>()
///     .state(Config { greeting: "Hello".into() })
///     .build()
///     .unwrap();
/// # drop(server);
/// ```
pub struct State<T: Shareable>(pub Arc<T>);

/// A type state can have: one value is read by every request, and requests run on several
/// threads, so it is `Send + Sync + 'static`. Implemented for every such type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be server state: it is not `Send + Sync + 'static`",
    label = "`State<T>` needs a `T` that every request, on any thread, can read",
    note = "requests run on several threads and share one value: use `Arc` instead of `Rc`, and `Mutex`, `RwLock` or an atomic (`AtomicU32`, ...) instead of `Cell` or `RefCell`"
)]
pub trait Shareable: Send + Sync + 'static {}

#[diagnostic::do_not_recommend]
impl<T: Send + Sync + 'static> Shareable for T {}

impl<T: Shareable> Deref for State<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Shareable> Clone for State<T> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

/// State values by type.
#[derive(Default, Clone)]
pub(crate) struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl StateMap {
    pub(crate) fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        self.values.insert(TypeId::of::<T>(), Arc::new(value));
    }

    pub(crate) fn contains(&self, type_id: TypeId) -> bool {
        self.values.contains_key(&type_id)
    }

    pub(crate) fn get<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        let value = self.values.get(&TypeId::of::<T>())?;
        Arc::clone(value).downcast::<T>().ok()
    }
}
