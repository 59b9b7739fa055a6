//! The scopes a message needs before it is run: for each `tools/call`, `prompts/get`,
//! `resources/read` and `resources/subscribe` it carries (a batch's included), the scopes of
//! the handler it would run (or whose changes it would hear of);
//! for a `completion/complete`, those of the prompt or resource template whose completer it
//! would run; for a `subscriptions/listen`, those of each resource it asks to hear of.
//!
//! A transport checks them against the caller first, so that HTTP can refuse with `403` and a
//! challenge naming the scopes, as the specification asks; each handler entry checks them
//! again when called (`auth::refused`), so a request this reading misjudges is refused all the same.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Reference, ServerCore, completing};
use crate::auth::Needed;
use crate::jsonrpc::{Incoming, IncomingRequest, ParamsText};

/// The handlers `message` would run that need scopes, with their scopes.
pub(crate) fn needed_by(server: &ServerCore, message: &Incoming) -> Vec<Needed> {
    let mut needed = Vec::new();
    match message {
        Incoming::Request(request) => {
            needed.extend(needed_by_request(server, request));
            needed.extend(needed_by_listen(server, request));
        }
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
    let (kind, name, scopes) = match &*request.method {
        // Where no handler of the kind needs scopes, the params are not read.
        "tools/call" => {
            let tools = server.tools.load();
            if !tools.any_scoped() {
                return None;
            }
            let name = field(request.params.as_ref().map(ParamsText::get), "name")?;
            let scopes = tools.get(&name)?.scopes.clone();
            ("tool", name, scopes)
        }
        "prompts/get" => {
            let prompts = server.prompts.load();
            if !prompts.any_scoped() {
                return None;
            }
            let name = field(request.params.as_ref().map(ParamsText::get), "name")?;
            let scopes = prompts.get(&name)?.scopes.clone();
            ("prompt", name, scopes)
        }
        // Hearing of a resource's changes needs what reading it needs.
        "resources/read" | "resources/subscribe" => {
            let resources = server.resources.load();
            if !resources.resources.any_scoped() && !resources.templates.any_scoped() {
                return None;
            }
            let uri = field(request.params.as_ref().map(ParamsText::get), "uri")?;
            // Too long to match: `resources/read` refuses it without reading anything.
            server.check_uri(&uri).ok()?;
            let (entry, _) = resources.resolve(&uri)?;
            let uri = entry.definition.uri.to_string();
            ("resource", uri, entry.scopes.clone())
        }
        "completion/complete" => {
            let (prompts, resources) = (server.prompts.load(), server.resources.load());
            if !prompts.any_scoped() && !resources.templates.any_scoped() {
                return None;
            }
            match completing(request.params.as_ref().map(ParamsText::get))? {
                Reference::Prompt { name } => {
                    let scopes = prompts.get(&name)?.scopes.clone();
                    ("prompt", name, scopes)
                }
                Reference::Resource { uri } => {
                    let scopes = resources.templates.get(&uri)?.scopes.clone();
                    ("resource", uri, scopes)
                }
            }
        }
        _ => return None,
    };
    (!scopes.is_empty()).then(|| Needed {
        handler: format!("{kind} `{name}`"),
        scopes,
    })
}

/// What a `subscriptions/listen` (2026-07-28, never in a batch) needs: the scopes of each
/// resource whose changes it asks to hear of (`notifications.resourceSubscriptions`).
fn needed_by_listen(server: &ServerCore, request: &IncomingRequest) -> Vec<Needed> {
    if request.method != "subscriptions/listen" {
        return Vec::new();
    }
    let resources = server.resources.load();
    if !resources.resources.any_scoped() && !resources.templates.any_scoped() {
        return Vec::new();
    }
    let Some(Value::Object(mut params)) = request
        .params
        .as_ref()
        .and_then(|params| serde_json::from_str(params.get()).ok())
    else {
        return Vec::new();
    };
    let Some(Value::Array(uris)) = params
        .get_mut("notifications")
        .and_then(|asked| asked.get_mut("resourceSubscriptions"))
        .map(Value::take)
    else {
        return Vec::new();
    };
    uris.iter()
        .take(server.subscriptions.max)
        .filter_map(Value::as_str)
        .filter(|uri| server.check_uri(uri).is_ok())
        .filter_map(|uri| resources.resolve(uri))
        .filter(|(entry, _)| !entry.scopes.is_empty())
        .map(|(entry, _)| Needed {
            handler: format!("resource `{}`", entry.definition.uri),
            scopes: entry.scopes.clone(),
        })
        .collect()
}

/// The string field `key` (`name` or `uri`) of `params`, read as the methods read it: a
/// struct first, which refuses a key given twice, then, as they do then, a map, in which the
/// last one counts.
fn field(params: Option<&str>, key: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Named<'a> {
        #[serde(borrow, default)]
        name: Option<Cow<'a, str>>,
        #[serde(borrow, default)]
        uri: Option<Cow<'a, str>>,
    }
    let params = params?;
    if let Ok(named) = serde_json::from_str::<Named<'_>>(params) {
        let value = if key == "name" { named.name } else { named.uri };
        return value.map(Cow::into_owned);
    }
    let mut params: Map<String, Value> = serde_json::from_str(params).ok()?;
    match params.remove(key)? {
        Value::String(value) => Some(value),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(params: &str, key: &str) -> Option<String> {
        field(Some(params), key)
    }

    #[test]
    fn a_name_is_read_as_the_methods_read_it_even_given_twice() {
        assert_eq!(
            read(r#"{"name": "a", "arguments": {"name": 1}}"#, "name").as_deref(),
            Some("a")
        );
        assert_eq!(read(r#"{"uri": "x://y"}"#, "uri").as_deref(), Some("x://y"));
        // `tools/call` reads a repeated key from a map, where the last counts: so does this.
        assert_eq!(
            read(r#"{"name": "whoami", "name": "write_note"}"#, "name").as_deref(),
            Some("write_note")
        );
        assert_eq!(read(r#"{"name": 5}"#, "name"), None);
        assert_eq!(read("[]", "name"), None);
    }
}
