//! The input-required flow of the stateless revision (2026-07-28, basic/patterns/mrtr) for
//! the three methods that run a handler (`tools/call`, `prompts/get`, `resources/read`).
//!
//! A retry carries the answers to the latest questions (`inputResponses`) and, sealed in
//! `requestState`, the answers of earlier rounds; both are checked before the handler runs
//! (a state that is tampered with, expired, oversized, from another server or for another
//! request is refused with -32602, and so is an `inputResponses` that is not an object). A run
//! that asks what the request does not answer ends with an input-required result: the
//! questions, and a new state holding every answer used so far, sealed for this method, name,
//! arguments and server. Keys the handler never asks for are ignored, as the specification
//! says; a run asks again for what is missing.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::Request;
use super::params_object::ParamsObject;
use crate::context::{InputRound, Interruption, RoundAt, UntilInput};
use crate::jsonrpc::{ErrorCode, RpcError, encode_result, message_without_position};
use crate::protocol::stateless_result::{InputRequiredResult, ResultType, ServerMeta};
use crate::sealed_state::{Binding, StateKeys, StateRefusal};

/// How many rounds of questions one request may take; the next one is refused.
pub(crate) const MAX_ROUNDS: u32 = 16;

/// How long a sealed state stays valid: the time a user has to answer.
pub(crate) const STATE_LIFETIME: Duration = StateKeys::DEFAULT_LIFETIME;

/// What travels in `requestState` between rounds. Written by serde; read back by
/// [`Carried::read`].
#[derive(Default, Serialize)]
struct Carried {
    /// Every answer used so far, by key.
    answers: Map<String, Value>,
    /// How many input-required results this request has had.
    round: u32,
}

/// A stateless request's run: its answers, and what its state is bound to (the handler's
/// name borrowed from the method, which holds the run for as long as it lasts).
pub(super) struct Input<'a> {
    round: RoundAt,
    /// What the retry's `requestState` carried; `None` on a first call, which has none.
    carried: Option<Carried>,
    method: &'static str,
    name: &'a str,
    /// The request's params, for the arguments a new state is bound to: read only if the
    /// handler asks something.
    params: Option<Arc<str>>,
}

/// What the params of a retry carry.
struct Retry<'a> {
    /// The arguments, which a state is bound to.
    arguments: Option<Value>,
    /// Kept when `null`, which is refused (absent is not).
    input_responses: Option<&'a str>,
    request_state: Option<&'a str>,
}

impl<'a> Retry<'a> {
    fn read(method: &'a str, params: Option<&'a str>) -> Result<Retry<'a>, RpcError> {
        let members = ParamsObject::of(method, params)?;
        Ok(Retry {
            arguments: members.optional("arguments")?,
            input_responses: members.text("inputResponses")?,
            request_state: members.present("requestState")?,
        })
    }
}

/// Whether params may carry answers (`inputResponses` or `requestState`), judged from their
/// text; a method whose params were read member by member knows it exactly.
pub(super) fn may_carry_answers(params: Option<&str>) -> bool {
    params.is_some_and(|text| crate::substring::may_name(text, &["inputResponses", "requestState"]))
}

/// Opens what a stateless request carries for the handler `name` of `method`: `None` in a
/// session (which asks the client directly); -32602 for a refused state or malformed answers,
/// before any handler runs. `params` is the params text ([`Request::shared_params`]);
/// `carries_answers` whether they have `inputResponses` or `requestState`.
pub(super) fn begin<'a>(
    request: &Request<'_>,
    method: &'static str,
    name: &'a str,
    params: Option<&Arc<str>>,
    carries_answers: bool,
) -> Result<Option<Input<'a>>, RpcError> {
    if request.envelope().is_none() {
        return Ok(None);
    }
    // A first call carries neither: nothing to read before the handler runs.
    if !carries_answers {
        return Ok(Some(Input {
            round: RoundAt::FirstCall(Arc::clone(&request.state)),
            carried: None,
            method,
            name,
            params: params.cloned(),
        }));
    }
    let retry = Retry::read(method, params.map(|p| &**p))?;
    let arguments = retry.arguments;
    let caller = request.state.sink.authentication().owner();
    let binding = Binding {
        method,
        name,
        arguments: arguments.as_ref(),
        audience: &request.server().info.name,
        caller: caller.as_deref(),
    };
    let carried = match retry.request_state {
        None => Carried::default(),
        Some(state) => open(request, &binding, state)?,
    };
    let mut answers = carried.answers.clone();
    match retry.input_responses {
        None => {}
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(responses)) => answers.extend(responses),
            decoded => {
                // Why an object was not read, when that is not its shape.
                let why = match decoded {
                    Err(error) => format!(" ({})", message_without_position(&error)),
                    Ok(_) => String::new(),
                };
                return Err(RpcError::invalid_params(format!(
                    "`inputResponses` must be an object mapping each question's key to its answer, got {}{why}",
                    shorten(text)
                ))
                .with_data(json!({ "field": "inputResponses" })));
            }
        },
    }
    Ok(Some(Input {
        round: RoundAt::Own(Arc::new(InputRound::new(answers))),
        carried: Some(carried),
        method,
        name,
        params: params.cloned(),
    }))
}

/// The state a retry sent back, opened and read; -32602 saying why it is refused.
fn open(request: &Request<'_>, binding: &Binding<'_>, state: &str) -> Result<Carried, RpcError> {
    let refused = |reason: &str, why: String| {
        RpcError::invalid_params(why)
            .with_data(json!({ "reason": "invalid_request_state", "detail": reason }))
    };
    let Ok(sealed) = serde_json::from_str::<&str>(state) else {
        return Err(refused(
            "malformed",
            "`requestState` must be the string the server sent".to_owned(),
        ));
    };
    let keys = &request.server().state_keys;
    let payload = keys
        .open(binding, sealed, SystemTime::now())
        .map_err(|refusal| {
            if refusal == StateRefusal::UnknownKey {
                // The usual cause is the operator's: instances behind one address that do not
                // share their keys (each holds a random one by default).
                static LOG: crate::limit_log::LimitLog = crate::limit_log::LimitLog::new();
                LOG.hit(|| {
                    "refused a requestState sealed with a key this server does not hold: instances that serve one client must share their keys (`--state-keys FILE`, `ServerBuilder::state_keys`), or it was sealed with a key retired since".to_owned()
                });
            }
            refused(refusal.reason(), refusal.to_string())
        })?;
    Carried::read(&payload).ok_or_else(|| {
        refused(
            "malformed",
            "requestState opened, but its contents are not this server's".to_owned(),
        )
    })
}

impl Carried {
    /// What [`Serialize`] wrote, read through a `Value` (the binary holds the `Value` reader
    /// anyway, and no reader of `Carried`'s own then): both members, of their types, or
    /// nothing.
    fn read(payload: &[u8]) -> Option<Carried> {
        let text = std::str::from_utf8(payload).ok()?;
        let Ok(Value::Object(mut object)) = serde_json::from_str(text) else {
            return None;
        };
        let round = u32::try_from(object.get("round")?.as_u64()?).ok()?;
        let Some(Value::Object(answers)) = object.remove("answers") else {
            return None;
        };
        Some(Carried { answers, round })
    }
}

impl Input<'_> {
    /// The answers and questions of this run, for the handler's `Context`.
    pub(super) fn round(&self) -> RoundAt {
        self.round.clone()
    }

    /// Runs a handler's future until it completes or stops on what the request lacks.
    pub(super) async fn run<F: std::future::Future>(
        &self,
        future: F,
    ) -> Result<F::Output, Interruption> {
        let future = std::pin::pin!(future);
        UntilInput::new(future, &self.round).await
    }

    /// The reply of a run that stopped: the questions as an input-required result, or the
    /// failure as an error.
    pub(super) fn stopped(&self, request: &Request<'_>, stopped: Interruption) -> Vec<u8> {
        match stopped {
            Interruption::Asked(questions) => self.input_required(request, questions),
            Interruption::Failed(error) => {
                if error.kind() == ErrorCode::MissingRequiredClientCapability {
                    request.state.refuse();
                }
                crate::jsonrpc::encode_error(Some(&request.id), &error)
            }
        }
    }

    /// The reply of a run its questions stopped: an input-required result with the questions
    /// and a sealed state holding the answers used so far.
    pub(super) fn input_required(
        &self,
        request: &Request<'_>,
        questions: Vec<(String, Value)>,
    ) -> Vec<u8> {
        let id = &request.id;
        let (from_state, round) = match &self.carried {
            Some(carried) => (carried.answers.clone(), carried.round),
            None => (Map::new(), 0),
        };
        if round >= MAX_ROUNDS {
            let error = RpcError::internal(format!(
                "the handler asked for input {MAX_ROUNDS} times; one request may take at most {MAX_ROUNDS} rounds of questions"
            ));
            return crate::jsonrpc::encode_error(Some(id), &error);
        }
        let carried = Carried {
            answers: self.round.get().answers_to_keep(from_state),
            round: round + 1,
        };
        let payload = serde_json::to_vec(&carried).expect("answers serialize");
        let arguments = self
            .params
            .as_deref()
            .and_then(|params| Retry::read(self.method, Some(params)).ok())
            .and_then(|retry| retry.arguments);
        let caller = request.state.sink.authentication().owner();
        let binding = Binding {
            method: self.method,
            name: self.name,
            arguments: arguments.as_ref(),
            audience: &request.server().info.name,
            caller: caller.as_deref(),
        };
        let server = request.server();
        let sealed =
            match server
                .state_keys
                .seal(&binding, &payload, STATE_LIFETIME, SystemTime::now())
            {
                Ok(sealed) => sealed,
                Err(error) => {
                    let error = RpcError::internal(format!(
                        "the answers gathered so far do not fit in a requestState: {error}"
                    ));
                    return crate::jsonrpc::encode_error(Some(id), &error);
                }
            };
        encode_result(
            id,
            &InputRequiredResult {
                result_type: ResultType::InputRequired,
                input_requests: questions.into_iter().collect(),
                request_state: sealed,
                meta: ServerMeta(&server.info),
            },
        )
    }
}

fn shorten(text: &str) -> String {
    let mut end = text.len().min(60);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if end < text.len() {
        format!("{}...", &text[..end])
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carried_reads_back_what_it_wrote_and_nothing_else() {
        let mut answers = Map::new();
        answers.insert("name".to_owned(), json!({"action": "accept"}));
        let written = serde_json::to_vec(&Carried { answers, round: 3 }).unwrap();
        let read = Carried::read(&written).expect("its own writing");
        assert_eq!(read.round, 3);
        assert_eq!(read.answers["name"], json!({"action": "accept"}));
        for broken in [
            &br#"{"answers":{}}"#[..],
            br#"{"round":1}"#,
            br#"{"answers":[],"round":1}"#,
            br#"{"answers":{},"round":-1}"#,
            br#"{"answers":{},"round":4294967296}"#,
            br#"[]"#,
            b"\xff",
        ] {
            assert!(Carried::read(broken).is_none(), "{broken:?}");
        }
    }
}
