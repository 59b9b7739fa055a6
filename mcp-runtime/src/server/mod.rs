//! The server: its configuration ([`ServerBuilder`]), one connection's state ([`Session`]),
//! and the routing of each method to the code that answers it.

mod builder;
mod command_line;
mod completion;
mod direct;
mod dispatch;
mod handle;
mod lifecycle;
mod lists;
mod outbound;
mod panic;
mod prompts;
mod resources;
mod session;
mod suggest;
mod tools;

pub(crate) use builder::ServerCore;
pub use builder::{Server, ServerBuilder};
pub use handle::ServerHandle;
pub(crate) use handle::Sessions;
pub(crate) use outbound::{Outbound, Outgoing};
pub(crate) use session::Session;
