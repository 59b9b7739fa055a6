//! The one pass over a request's `params`: the members the era and the methods read
//! (`_meta`, `name`, `uri`, `arguments`), so that none of them is read twice.
//!
//! A stateless request's `_meta` (about 230 bytes of long key names) is read into its
//! [`Claim`] in this pass, once, and `tools/call` takes its name and its arguments' members
//! from the same pass, through the [`ParamsLayout`] it leaves: positions in the params text,
//! which travel with the request to the method. Over stdio the pass is made while the message
//! itself is read ([`InMessage`], a `jsonrpc::ParamsPass`), for a `tools/call` and for a
//! message that may claim the era, so that their params are not skipped there and read again
//! here. Otherwise a session-based request makes no claim (ruled out by a search of the raw
//! text), and `tools/call` then runs the pass itself. A handler that asks for `_meta` has it
//! read from the params text then (`Context::meta`), not here.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use crate::jsonrpc::ParamsPass;
use crate::jsonrpc::scan::{Members, decoded};
use crate::protocol::envelope::Claim;
use crate::tool::{ArgumentsAt, RawFields, ToolEntry};

/// What the pass read from a params object, borrowed from its text.
pub(crate) struct Params<'a> {
    text: &'a str,
    /// The first `_meta`, read as a claim of the stateless era (checked only if it claims).
    pub(crate) claim: Option<Claim<'a>>,
    /// Whether there is a `_meta` member.
    has_meta: bool,
    /// Whether there is an `inputResponses` or a `requestState` member.
    carries_answers: bool,
    /// `name`, when a string.
    name: Option<Cow<'a, str>>,
    /// `uri`, when a string.
    uri: Option<Cow<'a, str>>,
    /// `taskId` (the tasks extension's methods), when a string.
    task_id: Option<Cow<'a, str>>,
    arguments: ArgumentsAt,
}

/// The claim of the stateless era `params` make, with the rest of the params read in the same
/// pass; `None` for a request of the session-based era.
///
/// Most requests of the session-based era carry no `_meta` at all; a search for the key's last
/// part in the raw text rules them out without parsing anything (text with an escape, which
/// could spell the key otherwise, is read).
pub(crate) fn claim(params: Option<&str>) -> Option<Params<'_>> {
    let params = params?;
    if !crate::substring::may_name(params, &["protocolVersion"]) {
        return None;
    }
    Some(Params::read(params)).filter(Params::claims_era)
}

/// The pass over a request's params made while the message itself is read
/// ([`parse_message_with`](crate::jsonrpc::parse_message_with)): for a `tools/call` and for a message that may claim
/// the stateless era, the only ones whose params are read member by member anyway.
pub(crate) struct InMessage;

impl<'de> ParamsPass<'de> for InMessage {
    type Read = Params<'de>;

    fn wanted(&self, method: Option<&str>, text: &str) -> bool {
        method == Some("tools/call") || crate::substring::may_name(text, &["protocolVersion"])
    }

    fn read(&self, params: &mut Members<'de>) -> Option<Params<'de>> {
        Params::scan(params)
    }
}

impl<'a> Params<'a> {
    /// Reads `params`, a JSON object (the JSON-RPC layer admits no other params). Never fails:
    /// a member of the wrong type is left for its method to explain.
    pub(crate) fn read(params: &'a str) -> Params<'a> {
        // A `_meta` that is not an object: no claim, and `tools/call` explains what it can
        // through a decoded object. (A `_meta` given twice,
        // or naming a field twice, is a claim the era's check refuses.)
        Members::of(params)
            .and_then(|mut members| Params::scan(&mut members))
            .unwrap_or(Params::nothing(params, ArgumentsAt::NotAnObject))
    }

    /// The params object `members`, read to its end; `None` for what [`Params::read`] reads
    /// as nothing. Text whose escapes stand for no character (a lone surrogate, which
    /// serde_json refuses) does not hide the rest: such a member name is none the pass looks
    /// for, and such a `name`, `uri` or `taskId` is not read as a string (its method, which
    /// decodes it, says why).
    fn scan(members: &mut Members<'a>) -> Option<Params<'a>> {
        let mut params = Params::nothing("", ArgumentsAt::Absent);
        // Positions are kept from where the params begin.
        let base = members.start();
        while let Some(name) = members.next_name().ok()? {
            match &*name.bytes().unwrap_or_default() {
                // The first `_meta` is the one that claims; a claim is refused when another
                // `_meta` follows or precedes it.
                b"_meta" => {
                    let mut meta = members.nested()?;
                    let claim = Claim::scan(&mut meta)?;
                    members.resume(&meta);
                    if params.has_meta {
                        // Either one claiming the era makes the request one to refuse.
                        let kept = match params.claim.take() {
                            Some(first) if first.claims_era() || !claim.claims_era() => first,
                            _ => claim,
                        };
                        params.claim.insert(kept).given_twice();
                    } else {
                        params.claim = Some(claim);
                        params.has_meta = true;
                    }
                }
                b"name" => params.name = decoded(members.value().ok()?),
                b"uri" => params.uri = decoded(members.value().ok()?),
                b"taskId" => params.task_id = decoded(members.value().ok()?),
                b"arguments" => {
                    params.arguments = match members.nested() {
                        Some(mut fields) => {
                            let fields_read = RawFields::scan(&mut fields, base)?;
                            members.resume(&fields);
                            ArgumentsAt::Object(fields_read)
                        }
                        None => match members.value().ok()? {
                            "null" => ArgumentsAt::Object(RawFields::none()),
                            _ => ArgumentsAt::NotAnObject,
                        },
                    }
                }
                other => {
                    params.carries_answers |= matches!(other, b"inputResponses" | b"requestState");
                    members.value().ok()?;
                }
            }
        }
        params.text = members.object();
        Some(params)
    }

    /// Whether the params claim the stateless era.
    pub(crate) fn claims_era(&self) -> bool {
        self.claim.as_ref().is_some_and(Claim::claims_era)
    }

    /// Params in which nothing was found (yet), `arguments` being as given.
    fn nothing(text: &'a str, arguments: ArgumentsAt) -> Params<'a> {
        Params {
            text,
            claim: None,
            has_meta: false,
            carries_answers: false,
            name: None,
            uri: None,
            task_id: None,
            arguments,
        }
    }

    /// The params' `name` (`field` "name"), `uri` (`field` "uri") or `taskId` (`field`
    /// "taskId"), if a string: what the HTTP `Mcp-Name` header must equal.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn named(&self, field: &str) -> Option<&str> {
        match field {
            "uri" => self.uri.as_deref(),
            "taskId" => self.task_id.as_deref(),
            _ => self.name.as_deref(),
        }
    }

    /// The JSON text of argument `name`, if the params have an `arguments` object with it.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn argument(&self, name: &str) -> Option<&'a str> {
        match &self.arguments {
            ArgumentsAt::Object(fields) => fields.value_of(self.text, name),
            ArgumentsAt::Absent | ArgumentsAt::NotAnObject => None,
        }
    }

    /// What the method needs later, as positions in the params text: the claim and `uri`
    /// have been used by then.
    pub(crate) fn into_layout(self) -> ParamsLayout {
        let at = |part: &str| {
            let start = part.as_ptr() as usize - self.text.as_ptr() as usize;
            start..start + part.len()
        };
        ParamsLayout {
            name: self.name.map(|name| match name {
                Cow::Borrowed(name) => Span::At(at(name)),
                Cow::Owned(name) => Span::Decoded(name),
            }),
            has_meta: self.has_meta,
            carries_answers: self.carries_answers,
            arguments: self.arguments,
        }
    }
}

/// Where a request's `name` and `arguments` lie in its params text, and whether it has a
/// `_meta` and answers to earlier questions, as the one pass over them found them.
pub(crate) struct ParamsLayout {
    name: Option<Span>,
    pub(crate) arguments: ArgumentsAt,
    pub(crate) has_meta: bool,
    /// An `inputResponses` or a `requestState` member (read by the input-required flow).
    pub(crate) carries_answers: bool,
}

/// A string member's value: where it lies in the text, or (written with escapes) decoded, or
/// (a `tools/call`'s `name`) the tool of that name, looked up already.
enum Span {
    At(Range<usize>),
    Decoded(String),
    Tool(Arc<ToolEntry>),
}

impl ParamsLayout {
    /// Lays out `params` (for a request whose era made no pass over them).
    pub(crate) fn of(params: &str) -> ParamsLayout {
        Params::read(params).into_layout()
    }

    /// `name`, if a string; `text` is the params text the layout was made of.
    pub(crate) fn name<'t>(&'t self, text: &'t str) -> Option<&'t str> {
        match self.name.as_ref()? {
            Span::At(range) => Some(&text[range.clone()]),
            Span::Decoded(name) => Some(name),
            Span::Tool(tool) => Some(tool.name()),
        }
    }

    /// This layout of a `tools/call` whose tool `tool` (the one its `name` names) the
    /// transport has looked up already (the HTTP transport does, for the tool's mirrored
    /// arguments), so that the call need not look it up again.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn with_tool(self, tool: Arc<ToolEntry>) -> ParamsLayout {
        ParamsLayout {
            name: Some(Span::Tool(tool)),
            ..self
        }
    }

    /// The tool `name` names, if it was looked up already ([`with_tool`](Self::with_tool)).
    pub(crate) fn tool(&self) -> Option<&Arc<ToolEntry>> {
        match self.name.as_ref()? {
            Span::Tool(tool) => Some(tool),
            Span::At(_) | Span::Decoded(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::value::RawValue;
    use serde_json::{Value, json};

    use super::*;
    use crate::protocol::envelope::PROTOCOL_VERSION;

    /// Whether `params` claim the stateless era.
    fn claims(params: Value) -> bool {
        let raw = serde_json::value::to_raw_value(&params).unwrap();
        claim(Some(raw.get())).is_some()
    }

    #[test]
    fn only_the_protocol_version_key_claims() {
        assert!(!claims(json!({"name": "protocolVersion"})));
        assert!(!claims(json!({"_meta": {"progressToken": 1}})));
        assert!(!claims(json!({"protocolVersion": "2026-07-28"})));
        assert!(claims(json!({"_meta": {PROTOCOL_VERSION: 5}})));
        assert!(claims(json!({"_meta": {PROTOCOL_VERSION: null}})));
        assert!(claim(None).is_none());
    }

    /// basic/versioning: a request carrying the modern `_meta` is served statelessly. Text
    /// whose escape stands for no character (`\ud800`, which serde_json refuses) anywhere in
    /// the params used to end the pass, and the request lost its claim: it was served as a
    /// session-based one (a question to the client written as a server request).
    #[test]
    fn a_lone_surrogate_does_not_hide_the_claim() {
        let meta = format!(
            r#""_meta":{{"{PROTOCOL_VERSION}":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}"#
        );
        for (text, name) in [
            (format!(r#"{{{meta},"_meta":{{"\ud800":1}}}}"#), None),
            (format!(r#"{{"_meta":{{"\ud800":1,{}}}"#, &meta[9..]), None),
            (format!(r#"{{"x\udc00":1,"name":"p",{meta}}}"#), Some("p")),
            (format!(r#"{{"name":"p\ud800",{meta}}}"#), None),
            (format!(r#"{{"uri":"a\ud800",{meta}}}"#), None),
            (
                format!(r#"{{"name":"t","arguments":{{"\ud800":1,"a":2}},{meta}}}"#),
                Some("t"),
            ),
        ] {
            let params = claim(Some(&text)).unwrap_or_else(|| panic!("no claim: {text}"));
            assert_eq!(params.named("name"), name, "{text}");
            assert_eq!(params.named("uri"), None, "{text}");
        }
        let text = format!(r#"{{"name":"t","arguments":{{"\ud800":1,"a":2}},{meta}}}"#);
        let params = claim(Some(&text)).unwrap();
        assert_eq!(
            params.argument("a"),
            Some("2"),
            "the other arguments are found"
        );
    }

    #[test]
    fn the_layout_finds_name_arguments_and_meta_in_the_text() {
        let text = r#"{"_meta":{"k":1},"name":"ad\u0064","arguments":{"a":1,"b":"x"},"uri":7}"#;
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap();
        let params = Params::read(raw.get());
        assert_eq!(params.named("name"), Some("add"));
        assert_eq!(params.named("uri"), None);
        assert_eq!(params.argument("b"), Some(r#""x""#));
        let layout = params.into_layout();
        assert_eq!(layout.name(text), Some("add"));
        assert!(matches!(layout.arguments, ArgumentsAt::Object(_)));
        assert!(layout.has_meta);
        assert!(!layout.carries_answers);
        let text = r#"{"name":"add","requestState":"x"}"#;
        let raw: Box<RawValue> = serde_json::from_str(text).unwrap();
        assert!(ParamsLayout::of(raw.get()).carries_answers);
        for (arguments, object) in [("null", true), ("[1]", false), ("\"a\"", false)] {
            let text = format!(r#"{{"name":"add","arguments":{arguments}}}"#);
            let raw: Box<RawValue> = serde_json::from_str(&text).unwrap();
            let layout = ParamsLayout::of(raw.get());
            assert_eq!(layout.name(&text), Some("add"));
            assert!(!layout.has_meta);
            assert_eq!(
                matches!(layout.arguments, ArgumentsAt::Object(_)),
                object,
                "{text}"
            );
        }
    }
}
