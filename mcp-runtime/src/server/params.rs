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

use crate::jsonrpc::{ParamsPass, Text};
use crate::protocol::envelope::Claim;
use crate::tool::{ArgumentsAt, RawFields, ToolEntry};
use serde::de::{Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};

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
/// part in the raw text rules them out without parsing anything.
pub(crate) fn claim(params: Option<&str>) -> Option<Params<'_>> {
    let params = params?;
    if !crate::substring::contains(params, "protocolVersion") {
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
        method == Some("tools/call") || crate::substring::contains(text, "protocolVersion")
    }

    fn read<D: Deserializer<'de>>(
        &self,
        from: &'de str,
        deserializer: D,
    ) -> Result<Params<'de>, D::Error> {
        // The positions found are relative to `from`, where the params begin.
        Members { text: from }.deserialize(deserializer)
    }
}

impl<'a> Params<'a> {
    /// Reads `params`, a JSON object (the JSON-RPC layer admits no other params). Never fails:
    /// a member of the wrong type is left for its method to explain.
    pub(crate) fn read(params: &'a str) -> Params<'a> {
        let text = params;
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let read = Members { text }.deserialize(&mut deserializer);
        // A member of the wrong type inside `_meta` (a duplicate key, a `_meta` that is not an
        // object): no claim, and `tools/call` explains what it can through a decoded object.
        read.unwrap_or(Params::nothing(text, ArgumentsAt::NotAnObject))
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

/// The visitor of the pass.
struct Members<'a> {
    text: &'a str,
}

impl<'de> DeserializeSeed<'de> for Members<'de> {
    type Value = Params<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Params<'de>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Members<'de> {
    type Value = Params<'de>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Params<'de>, A::Error> {
        let mut params = Params::nothing(self.text, ArgumentsAt::Absent);
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            match &*key {
                // The first `_meta` is the one that claims.
                "_meta" if !params.has_meta => {
                    params.claim = Some(map.next_value()?);
                    params.has_meta = true;
                }
                "name" => params.name = map.next_value::<TextOrNot<'de>>()?.0,
                "uri" => params.uri = map.next_value::<TextOrNot<'de>>()?.0,
                "taskId" => params.task_id = map.next_value::<TextOrNot<'de>>()?.0,
                "inputResponses" | "requestState" => {
                    params.carries_answers = true;
                    map.next_value::<IgnoredAny>()?;
                }
                "arguments" => {
                    params.arguments = map.next_value_seed(RawFields::seed(self.text))?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(params)
    }
}

/// A string, or `None` for any other JSON value (skipped).
struct TextOrNot<'a>(Option<Cow<'a, str>>);

impl<'de> Deserialize<'de> for TextOrNot<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = TextOrNot<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }

            fn visit_borrowed_str<E>(self, text: &'de str) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(Some(Cow::Borrowed(text))))
            }

            fn visit_str<E>(self, text: &str) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(Some(Cow::Owned(text.to_owned()))))
            }

            fn visit_bool<E>(self, _: bool) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_i64<E>(self, _: i64) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_u64<E>(self, _: u64) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_f64<E>(self, _: f64) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_unit<E>(self) -> Result<TextOrNot<'de>, E> {
                Ok(TextOrNot(None))
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<TextOrNot<'de>, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(TextOrNot(None))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<TextOrNot<'de>, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(TextOrNot(None))
            }
        }
        deserializer.deserialize_any(TextVisitor)
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
