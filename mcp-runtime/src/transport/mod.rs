//! Transports: how messages reach a [`Session`](crate::server::Session) and leave it.

mod lines;
mod stdio;
mod stdout_guard;
