//! Starting the runtime's own threads (stdin reader, stderr writer, shutdown timer, the Redis
//! bus and stores): one non-generic spawn, so `std::thread`'s start-up code is compiled once
//! for all of them rather than once per closure.

use std::io;
use std::thread::{Builder, JoinHandle};

/// Runs `work` on a new thread called `name`; the error if the thread could not be started.
pub(crate) fn spawn(
    name: &str,
    work: Box<dyn FnOnce() + Send + 'static>,
) -> io::Result<JoinHandle<()>> {
    Builder::new().name(name.to_owned()).spawn(work)
}

/// [`spawn`] with a stack of `stack_bytes` (only what is touched is ever resident).
pub(crate) fn spawn_with_stack(
    name: &str,
    stack_bytes: usize,
    work: Box<dyn FnOnce() + Send + 'static>,
) -> io::Result<JoinHandle<()>> {
    Builder::new()
        .name(name.to_owned())
        .stack_size(stack_bytes)
        .spawn(work)
}
