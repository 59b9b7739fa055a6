//! Wrappers around a handler's call and future: a panic becomes a value (so the request still
//! gets a reply), and a cancel stops the handler at its next `.await`.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::context::RequestState;
use crate::handler::{BoxFuture, Called, Entry, Kind};

/// A handler's call with its panic caught as `Err(message)`, whether the handler panics within
/// the call (one that runs at once) or while its future is polled; a future of the outcome.
pub(crate) enum Caught<T> {
    /// The call's outcome, there already (until polled).
    Done(Option<Result<T, String>>),
    /// The handler's future, polled.
    Waiting(CatchUnwind<BoxFuture<T>>),
}

impl<T> Caught<T> {
    /// Calls `entry` (once per kind, not per call site: one copy of the unwinding code).
    pub(crate) fn call<K: Kind<Output = T>>(
        entry: &Entry<K>,
        ctx: crate::context::Context,
        input: K::Input,
    ) -> Caught<T> {
        match catch(|| entry.call(ctx, input)) {
            Ok(Called::Done(output)) => Caught::Done(Some(Ok(output))),
            Ok(Called::Waiting(future)) => Caught::Waiting(CatchUnwind(future)),
            Err(panic) => Caught::Done(Some(Err(panic))),
        }
    }
}

/// Runs `run`, catching a panic as `Err(message)`.
pub(crate) fn catch<T>(run: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(run)).map_err(|payload| panic_message(payload.as_ref()))
}

// Nothing in it is pinned in place: the future it may hold is boxed.
impl<T> Unpin for Caught<T> {}

impl<T> Future for Caught<T> {
    type Output = Result<T, String>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Caught::Done(outcome) => Poll::Ready(outcome.take().expect("polled after it ended")),
            Caught::Waiting(future) => Pin::new(future).poll(cx),
        }
    }
}

/// Polls a future, catching a panic as `Err(message)`.
pub(crate) struct CatchUnwind<F>(pub(crate) F);

impl<F: Future + Unpin> Future for CatchUnwind<F> {
    type Output = Result<F::Output, String>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match catch(|| Pin::new(&mut self.0).poll(cx)) {
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => Poll::Ready(Err(panic)),
        }
    }
}

/// Polls a handler until it finishes or its request is cancelled. After a cancel the handler
/// is polled once more, so code waiting on `ctx.cancelled()` runs up to its next `.await`,
/// and is then dropped; its output, if any, is discarded (`None`).
pub(crate) struct UntilCancelled<'a, F> {
    inner: F,
    state: &'a RequestState,
}

impl<'a, F> UntilCancelled<'a, F> {
    pub(crate) fn new(inner: F, state: &'a RequestState) -> UntilCancelled<'a, F> {
        UntilCancelled { inner, state }
    }
}

impl<F: Future + Unpin> Future for UntilCancelled<'_, F> {
    type Output = Option<F::Output>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.state.register(cx.waker());
        let cancelled = self.state.is_cancelled();
        match Pin::new(&mut self.inner).poll(cx) {
            Poll::Ready(output) => Poll::Ready((!cancelled).then_some(output)),
            Poll::Pending if cancelled => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic with a non-string payload".to_owned()
    }
}
