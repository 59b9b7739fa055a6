//! Asking the client in the stateless revision (2026-07-28, basic/patterns/mrtr): a server
//! sends no requests, so a handler's question ends the run with an *input-required* result
//! that lists every question asked, and the client's retry (its answers in `inputResponses`,
//! earlier rounds' in the sealed `requestState`) runs the handler again from the start, this
//! time with the answers at hand.
//!
//! The handler's code is the same as in a session: `ctx.elicit(..)`, `ctx.sample(..)` and
//! `ctx.list_roots()` either return the answer the request carries, or record their question
//! and never complete, and [`UntilInput`] then stops the run. Questions are keyed: by the
//! key given with [`Context::question`](super::Context::question), else `elicitation-1`,
//! `sampling-2`, ... in the order the handler asks, the same on every run of a handler whose
//! path to the question depends only on its arguments and earlier answers.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::ClientError;
use super::request_state::RequestState;
use crate::jsonrpc::{ErrorCode, RpcError};
use crate::protocol::ClientInfo;

/// One run of a handler serving a stateless request: the answers it may use, and what it
/// asked or why it cannot go on.
pub(crate) struct InputRound {
    /// Answers by key: earlier rounds' (from `requestState`) and this retry's
    /// (`inputResponses`, which win).
    answers: Map<String, Value>,
    /// The answers the handler used on this run, kept for the next round's state, in the
    /// order used (a list: a map costs its hasher's keys at every request, used or not).
    used: Mutex<Vec<(String, Value)>>,
    /// The questions asked and not answered: key, then `{method, params}`.
    asked: Mutex<Vec<(String, Value)>>,
    /// Why the request cannot go on: an answer that does not fit its question (-32602), or a
    /// question the client has not declared the capability for (-32021).
    failure: Mutex<Option<RpcError>>,
    /// How many questions were asked so far on this run, for default keys.
    count: AtomicUsize,
}

/// Where a run's [`InputRound`] is: a round of its own (a retry's, with the answers it
/// carries; a task's next run), or, for a first call, which carries no answers, in the
/// request's state, made only when the handler asks something (most never do).
#[derive(Clone)]
pub(crate) enum RoundAt {
    Own(Arc<InputRound>),
    FirstCall(Arc<RequestState>),
}

impl RoundAt {
    /// The round, made now if it is a first call's not made yet.
    pub(crate) fn get(&self) -> &InputRound {
        match self {
            RoundAt::Own(round) => round,
            RoundAt::FirstCall(state) => state
                .first_round
                .get_or_init(|| Box::new(InputRound::new(Map::new()))),
        }
    }

    /// The round, if made: a first call's is not until its handler asks.
    fn made(&self) -> Option<&InputRound> {
        match self {
            RoundAt::Own(round) => Some(round),
            RoundAt::FirstCall(state) => state.first_round.get().map(|round| &**round),
        }
    }
}

/// Why a run stopped before its handler returned.
pub(crate) enum Interruption {
    /// The handler asked these questions (key, `{method, params}`), in order.
    Asked(Vec<(String, Value)>),
    /// The request fails with this error; nothing of the handler's result is sent.
    Failed(RpcError),
}

impl InputRound {
    pub(crate) fn new(answers: Map<String, Value>) -> InputRound {
        InputRound {
            answers,
            used: Mutex::new(Vec::new()),
            asked: Mutex::new(Vec::new()),
            failure: Mutex::new(None),
            count: AtomicUsize::new(0),
        }
    }

    #[cfg(feature = "tasks")]
    /// Every answer this run may use.
    pub(crate) fn answers(&self) -> &Map<String, Value> {
        &self.answers
    }

    /// The key of a question asked without one: its kind and its rank on this run.
    pub(crate) fn default_key(&self, kind: &str) -> String {
        let rank = self.count.fetch_add(1, Ordering::Relaxed) + 1;
        format!("{kind}-{rank}")
    }

    /// Answers the question `method` with `params` under `key` from the answers the request
    /// carries; otherwise records it (or the failure) and never completes.
    pub(crate) async fn ask<T: DeserializeOwned>(
        &self,
        key: String,
        capability: &'static str,
        method: &str,
        params: &impl Serialize,
        client: &ClientInfo,
    ) -> Result<T, ClientError> {
        if !client.has_capability(capability) {
            let declared = declaration(capability);
            self.fail(
                RpcError::new(
                    ErrorCode::MissingRequiredClientCapability,
                    format!(
                        "the handler asks the client `{method}`, which needs the `{capability}` capability, and this request's `_meta` does not declare it: declare `{declared}` in `io.modelcontextprotocol/clientCapabilities`"
                    ),
                )
                .with_data(json!({ "requiredCapabilities": declared })),
            );
            return std::future::pending().await;
        }
        if let Some(answer) = self.answers.get(&key) {
            match serde_json::from_value::<T>(answer.clone()) {
                Ok(answer_read) => {
                    self.used
                        .lock()
                        .expect("lock poisoned")
                        .push((key, answer.clone()));
                    return Ok(answer_read);
                }
                Err(error) => {
                    self.fail(
                        RpcError::invalid_params(format!(
                            "`inputResponses.{key}` is not an answer to `{method}`: {error}"
                        ))
                        .with_data(json!({ "inputResponse": key })),
                    );
                    return std::future::pending().await;
                }
            }
        }
        // The question ends in a sealed state: its code is needed from now on.
        crate::sealed_state::link_sealing();
        let question = json!({ "method": method, "params": params });
        self.asked
            .lock()
            .expect("lock poisoned")
            .push((key, question));
        std::future::pending().await
    }

    fn fail(&self, error: RpcError) {
        self.failure
            .lock()
            .expect("lock poisoned")
            .get_or_insert(error);
    }

    /// What stopped the run, if anything did: a failure first, then the questions asked.
    fn interruption(&self) -> Option<Interruption> {
        if let Some(error) = self.failure.lock().expect("lock poisoned").take() {
            return Some(Interruption::Failed(error));
        }
        let asked = std::mem::take(&mut *self.asked.lock().expect("lock poisoned"));
        (!asked.is_empty()).then_some(Interruption::Asked(asked))
    }

    /// The answers to carry into the next round: those this retry carried in `requestState`
    /// or used, not the keys no question asked for.
    pub(crate) fn answers_to_keep(&self, from_state: Map<String, Value>) -> Map<String, Value> {
        let mut kept = from_state;
        kept.extend(self.used.lock().expect("lock poisoned").clone());
        kept
    }
}

/// Runs a handler until it returns, or until it waits on a question the request does not
/// answer (or on a failure), whichever comes first: a question is recorded in the same poll
/// that stops, so every question the handler asks at once (`join!`) is collected.
pub(crate) struct UntilInput<'a, F> {
    future: Pin<&'a mut F>,
    round: &'a RoundAt,
}

impl<'a, F: Future> UntilInput<'a, F> {
    pub(crate) fn new(future: Pin<&'a mut F>, round: &'a RoundAt) -> UntilInput<'a, F> {
        UntilInput { future, round }
    }
}

impl<F: Future> Future for UntilInput<'_, F> {
    type Output = Result<F::Output, Interruption>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        if let Poll::Ready(output) = self.future.as_mut().poll(cx) {
            return Poll::Ready(Ok(output));
        }
        // A round not made has had no question asked, nor a failure.
        match self.round.made().and_then(InputRound::interruption) {
            Some(interruption) => Poll::Ready(Err(interruption)),
            None => Poll::Pending,
        }
    }
}

/// The capabilities object that declares `capability`, a name or a name and one of its modes
/// (`elicitation.form` is `{"elicitation": {"form": {}}}`).
fn declaration(capability: &str) -> Value {
    match capability.split_once('.') {
        Some((name, mode)) => json!({ name: { mode: {} } }),
        None => json!({ capability: {} }),
    }
}
