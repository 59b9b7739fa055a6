//! Application state shared by every request: `State<T>`.

use std::ops::Deref;
use std::sync::Arc;

use crate::state_map::StateMap;

/// Application state of type `T`, given to the server at start-up with
/// `ServerBuilder::state(value)` and shared by every request. The value may also be given as
/// an `Arc<T>` (`.state(Arc::new(db))` serves `State<Db>`), which shares that very `Arc`.
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
///     .state(Config { greeting: "Hello".into() }) // or .state(Arc::new(config)), kept elsewhere too
///     .build()
///     .unwrap();
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let result = client.call_tool("greet", serde_json::json!({"name": "Ana"})).await.unwrap();
/// #     assert_eq!(result.content[0].as_text(), Some("Hello, Ana!"));
/// # });
/// ```
///
/// A `State<T>` parameter with no `.state(..)` of type `T` (or `Arc<T>`) makes
/// [`ServerBuilder::build`](crate::ServerBuilder::build) fail, naming the type.
///
/// It reads as the `T` itself (`Deref`): `counter.0` is the field of a `struct Counter(..)`.
/// [`State::into_arc`] gives the shared `Arc<T>`, to move into a task.
pub struct State<T: Shareable>(pub(crate) Arc<T>);

impl<T: Shareable> State<T> {
    /// The `Arc<T>` every request shares (an associated function, so that it never hides a
    /// method of `T`): `State::into_arc(notes)`.
    pub fn into_arc(state: Self) -> Arc<T> {
        state.0
    }
}

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

/// A handler's need for state of one type, checked when the server is built.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateNeed {
    /// The type's name, for the error when no such state was given.
    pub(crate) type_name: &'static str,
    given: fn(&StateMap) -> bool,
}

impl StateNeed {
    /// A need for a `T` (given as a `T` or an `Arc<T>`).
    pub(crate) fn of<T: 'static>() -> StateNeed {
        StateNeed {
            type_name: std::any::type_name::<T>(),
            given: StateMap::has::<T>,
        }
    }

    /// Whether `states` holds what is needed.
    pub(crate) fn is_met(&self, states: &StateMap) -> bool {
        (self.given)(states)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Db(u32);

    #[test]
    fn an_arc_given_serves_its_target_and_is_shared() {
        let db = Arc::new(Db(7));
        let mut states = StateMap::default();
        assert!(!StateNeed::of::<Db>().is_met(&states));
        states.insert(Arc::clone(&db));
        assert!(StateNeed::of::<Db>().is_met(&states));
        assert!(StateNeed::of::<Arc<Db>>().is_met(&states));
        let served = states.get::<Db>().expect("served from the Arc");
        assert!(Arc::ptr_eq(&served, &db));
        assert_eq!(served.0, 7);
        assert!(states.get::<Arc<Db>>().is_some());
    }

    #[test]
    fn a_value_given_serves_its_own_type_only() {
        let mut states = StateMap::default();
        states.insert(Db(1));
        assert!(StateNeed::of::<Db>().is_met(&states));
        assert!(!StateNeed::of::<Arc<Db>>().is_met(&states));
        assert_eq!(states.get::<Db>().map(|db| db.0), Some(1));
    }
}
