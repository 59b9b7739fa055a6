//! Transports: how messages reach a [`Session`](crate::server::Session) and leave it.

#[cfg(feature = "http")]
pub(crate) mod http;
mod lines;
pub(crate) use lines::{Frame, Framer};
#[cfg(unix)]
mod nonblocking;
mod one_read;
mod stdin_leftover;
#[cfg(unix)]
mod stdin_turns;
mod stdio;
mod stdout_guard;
#[cfg(unix)]
mod sys;
mod writer;
