//! Shutting down gracefully
//! ([`Server::serve_http_with_shutdown`](crate::Server::serve_http_with_shutdown), `run` with
//! `--http` on SIGTERM): the server stops accepting connections, `/ready` answers 503, the
//! streams that wait on the client rather than on a reply (GET streams, listen streams) end
//! with a `retry` hint so that their clients reconnect (to another instance, behind a
//! balancer), idle connections close, and requests in flight finish, within the server's
//! shutdown grace.

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

/// Whether the server drains, and the wake-up of everything waiting for it to.
#[derive(Default)]
pub(super) struct Drain {
    draining: AtomicBool,
    started: Notify,
}

impl Drain {
    /// Starts draining: every [`started`](Self::started) wait ends.
    pub(super) fn start(&self) {
        self.draining.store(true, Ordering::Release);
        self.started.notify_waiters();
    }

    pub(super) fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// Ends when draining starts (at once if it has).
    pub(super) async fn started(&self) {
        let started = self.started.notified();
        tokio::pin!(started);
        // Registered before the flag is read: a `start` in between is not missed.
        started.as_mut().enable();
        if self.is_draining() {
            return;
        }
        started.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_wait_ends_when_draining_starts_and_at_once_after() {
        let drain = std::sync::Arc::new(Drain::default());
        let waiting = tokio::spawn({
            let drain = std::sync::Arc::clone(&drain);
            async move { drain.started().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        drain.start();
        tokio::time::timeout(std::time::Duration::from_secs(5), waiting)
            .await
            .expect("the wait ends")
            .unwrap();
        drain.started().await;
        assert!(drain.is_draining());
    }
}
