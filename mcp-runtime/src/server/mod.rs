//! The server: its configuration ([`ServerBuilder`]), one connection's state ([`Session`]),
//! and the routing of each method to the code that answers it.

mod builder;
mod dispatch;
mod lifecycle;
mod outbound;
mod panic;
mod session;
mod suggest;
mod tools;

pub(crate) use builder::ServerCore;
pub use builder::{Server, ServerBuilder};
pub(crate) use outbound::Outbound;
pub(crate) use session::Session;
