//! The server: its configuration ([`ServerBuilder`]), the handle that changes it while it runs
//! ([`ServerHandle`]), one connection's state ([`Session`]), and below them the method-routing
//! layer (`methods`) that answers each request.

mod builder;
pub(crate) mod changes;
mod direct;
mod handle;
mod methods;
#[cfg(feature = "http")]
mod needed_scopes;
mod panic;
pub(crate) mod params;
#[cfg(feature = "redis")]
mod redis_bus;
mod session;

pub(crate) use builder::ServerCore;
pub use builder::{Server, ServerBuilder};
pub(crate) use direct::DirectSession;
pub use handle::ServerHandle;
pub(crate) use handle::Sessions;
#[cfg(feature = "http")]
pub(crate) use methods::stateless_method;
#[cfg(feature = "http")]
use methods::{Reference, completing};
#[cfg(feature = "http")]
pub(crate) use needed_scopes::needed_by;
pub(crate) use session::Session;
#[cfg(feature = "http")]
pub(crate) use session::Stateless;
