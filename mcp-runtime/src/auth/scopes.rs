//! The scopes a message needs before it is run: for each `tools/call`, `prompts/get` and
//! `resources/read` it carries (a batch's included), the scopes of the handler it would run.
//!
//! A transport checks them against the caller first, so that HTTP can refuse with `403` and a
//! challenge naming the scopes, as the specification asks; each handler entry checks them
//! again when called (`refused`), so a request this reading misjudges is refused all the same.

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use crate::jsonrpc::{Incoming, IncomingRequest};
use crate::server::ServerCore;

/// One handler a message would run, and the scopes it needs.
#[derive(Debug)]
pub(crate) struct Needed {
    /// The handler, for messages: "tool `write_note`".
    pub(crate) handler: String,
    pub(crate) scopes: &'static [&'static str],
}

/// The handlers `message` would run that need scopes, with their scopes.
pub(crate) fn needed_by(server: &ServerCore, message: &Incoming) -> Vec<Needed> {
    let mut needed = Vec::new();
    match message {
        Incoming::Request(request) => needed.extend(needed_by_request(server, request)),
        Incoming::Batch(items) => {
            for item in items {
                if let Incoming::Request(request) = item {
                    needed.extend(needed_by_request(server, request));
                }
            }
        }
        _ => {}
    }
    needed
}

fn needed_by_request(server: &ServerCore, request: &IncomingRequest) -> Option<Needed> {
    let (kind, name, scopes) = match request.method.as_str() {
        "tools/call" => {
            let name = field(request.params.as_deref(), "name")?;
            let scopes = server.tools.load().get(&name)?.scopes;
            ("tool", name, scopes)
        }
        "prompts/get" => {
            let name = field(request.params.as_deref(), "name")?;
            let scopes = server.prompts.load().get(&name)?.scopes;
            ("prompt", name, scopes)
        }
        "resources/read" => {
            let uri = field(request.params.as_deref(), "uri")?;
            let (entry, _) = server.resources.load().resolve(&uri)?;
            ("resource", entry.definition.uri.to_string(), entry.scopes)
        }
        _ => return None,
    };
    (!scopes.is_empty()).then(|| Needed {
        handler: format!("{kind} `{name}`"),
        scopes,
    })
}

/// The string field `key` of `params`, read as the methods read it (a JSON object; of a key
/// given twice, the last).
fn field(params: Option<&RawValue>, key: &str) -> Option<String> {
    let mut params: Map<String, Value> = serde_json::from_str(params?.get()).ok()?;
    match params.remove(key)? {
        Value::String(value) => Some(value),
        _ => None,
    }
}
