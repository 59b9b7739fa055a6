//! Tool arguments: decoding each parameter, and error messages a model can act on.
//!
//! A decoding failure never becomes a protocol error: it becomes a `tools/call` result with
//! `isError: true` naming each faulty argument and what was expected
//! (`budget: expected a number, got "cem dólares"`), so the model can correct its call.

use std::fmt::Write as _;

use schemars::JsonSchema;
use std::borrow::Cow;

use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::InputSchema;
use crate::completion::Completer;
use crate::handler::{ArgumentSource, Missing, Requirements, describe_error};
use crate::protocol::CallToolResult;

/// The `arguments` object of a `tools/call`, consumed parameter by parameter.
#[derive(Debug, Default)]
pub struct Arguments {
    source: Source,
}

#[derive(Debug)]
enum Source {
    /// Decoded into values.
    Map(Map<String, Value>),
    /// As received: each parameter is decoded straight from its JSON text, with no
    /// intermediate `Value`.
    Raw { text: Box<str>, fields: Vec<Field> },
}

impl Default for Source {
    fn default() -> Source {
        Source::Map(Map::new())
    }
}

/// One argument of a [`Source::Raw`]: its name and where its value lies in the text.
#[derive(Debug)]
struct Field {
    name: String,
    value: std::ops::Range<usize>,
    taken: bool,
}

impl Arguments {
    /// Wraps an `arguments` object.
    pub fn new(map: Map<String, Value>) -> Arguments {
        Arguments {
            source: Source::Map(map),
        }
    }

    /// The arguments object whose members [`RawFields::find`] located in `text`.
    pub(crate) fn from_raw(text: Box<str>, fields: RawFields) -> Arguments {
        Arguments {
            source: Source::Raw {
                text,
                fields: fields.0,
            },
        }
    }

    /// Decodes the argument `name` as a `T`; an absent argument is fine when `T` can be absent
    /// (`Option<T>`).
    pub fn decode<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Result<T, String> {
        let missing =
            || T::deserialize(Missing).map_err(|_| "missing required argument".to_owned());
        match &mut self.source {
            Source::Map(map) => match map.remove(name) {
                Some(value) => {
                    T::deserialize(&value).map_err(|error| describe_error::<T>(&value, &error))
                }
                None => missing(),
            },
            Source::Raw { text, fields } => {
                // The last of repeated names counts, as in a decoded object.
                let Some(field) = fields.iter_mut().rev().find(|f| f.name == name && !f.taken)
                else {
                    return missing();
                };
                field.taken = true;
                let json = &text[field.value.clone()];
                serde_json::from_str(json).map_err(|error| {
                    let value: Value = serde_json::from_str(json).unwrap_or(Value::Null);
                    describe_error::<T>(&value, &error)
                })
            }
        }
    }

    /// The whole `arguments` object (without what parameters have taken).
    pub fn into_map(self) -> Map<String, Value> {
        match self.source {
            Source::Map(map) => map,
            Source::Raw { text, fields } => fields
                .into_iter()
                .filter(|field| !field.taken)
                .map(|field| {
                    let value = serde_json::from_str(&text[field.value]).unwrap_or(Value::Null);
                    (field.name, value)
                })
                .collect(),
        }
    }

    /// The names of arguments no parameter has taken.
    pub fn unused(&self) -> impl Iterator<Item = &str> {
        let (map, fields) = match &self.source {
            Source::Map(map) => (Some(map), None),
            Source::Raw { fields, .. } => (None, Some(fields)),
        };
        let from_map = map
            .into_iter()
            .flat_map(|map| map.keys().map(String::as_str));
        let from_text = fields
            .into_iter()
            .flatten()
            .filter(|field| !field.taken)
            .map(|field| field.name.as_str());
        from_map.chain(from_text)
    }
}

/// Where each member of an arguments object lies in the text that holds it.
pub(crate) struct RawFields(Vec<Field>);

impl RawFields {
    /// No arguments at all.
    pub(crate) fn none() -> RawFields {
        RawFields(Vec::new())
    }

    /// The members of `arguments`, a part of `text`; `None` if it is not an object.
    pub(crate) fn find(text: &str, arguments: &RawValue) -> Option<RawFields> {
        let json = arguments.get();
        let start = (json.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
        if start + json.len() > text.len() {
            return None;
        }
        let pairs: RawPairs<'_> = serde_json::from_str(json).ok()?;
        let fields = pairs
            .0
            .into_iter()
            .map(|(name, value)| {
                let offset = start + (value.get().as_ptr() as usize - json.as_ptr() as usize);
                Field {
                    name: name.into_owned(),
                    value: offset..offset + value.get().len(),
                    taken: false,
                }
            })
            .collect();
        Some(RawFields(fields))
    }
}

/// An object's members in order, each value left as JSON text.
struct RawPairs<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> Deserialize<'de> for RawPairs<'de> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Pairs;
        impl<'de> Visitor<'de> for Pairs {
            type Value = RawPairs<'de>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawPairs<'de>, A::Error> {
                let mut pairs = Vec::with_capacity(map.size_hint().unwrap_or(4));
                while let Some(pair) = map.next_entry::<Cow<'de, str>, &'de RawValue>()? {
                    pairs.push(pair);
                }
                Ok(RawPairs(pairs))
            }
        }
        deserializer.deserialize_map(Pairs)
    }
}

/// Collects the errors of every parameter, so one result reports them all.
#[derive(Debug, Default)]
pub struct ArgErrors {
    messages: Vec<String>,
}

impl ArgErrors {
    /// No errors yet.
    pub fn new() -> ArgErrors {
        ArgErrors::default()
    }

    /// Keeps a decoded value, or records the error against the argument's name.
    pub fn check<T>(&mut self, name: &str, decoded: Result<T, String>) -> Option<T> {
        match decoded {
            Ok(value) => Some(value),
            Err(message) => {
                self.messages.push(format!("{name}: {message}"));
                None
            }
        }
    }

    /// The -32602 error listing every problem, for prompts and resources (`subject` says
    /// what was invalid: "arguments for prompt `x`").
    pub fn into_invalid_params(self, subject: &str) -> crate::HandlerError {
        crate::HandlerError::invalid_params(format!(
            "Invalid {subject}: {}",
            self.messages.join("; ")
        ))
    }

    /// The `isError` result listing every problem (and any arguments nobody asked for).
    pub fn into_result(self, tool: &str, args: &Arguments) -> CallToolResult {
        let mut text = format!("Invalid arguments for tool `{tool}`: ");
        text.push_str(&self.messages.join("; "));
        let unused: Vec<&str> = args.unused().collect();
        if !unused.is_empty() {
            let _ = write!(text, "; unexpected argument(s): {}", unused.join(", "));
        }
        CallToolResult::error(text)
    }
}

impl ArgumentSource for Arguments {
    type Description = InputSchema;

    fn describe<T: DeserializeOwned + JsonSchema>(
        into: &mut InputSchema,
        name: &str,
        description: Option<&str>,
        // A tool's arguments have no completions: the macro refuses `#[complete]` there.
        _completer: Option<Completer>,
    ) {
        into.add::<T>(name, description);
    }

    fn requirements(into: &mut InputSchema) -> &mut Requirements {
        &mut into.requirements
    }

    fn decode<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Result<T, String> {
        Arguments::decode(self, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::handler::is_optional;
    use serde_json::json;

    fn args(value: Value) -> Arguments {
        let Value::Object(map) = value else {
            unreachable!()
        };
        Arguments::new(map)
    }

    #[test]
    fn options_may_be_absent_and_other_types_may_not() {
        assert!(is_optional::<Option<String>>());
        assert!(!is_optional::<String>());
        assert!(!is_optional::<Value>());
        let mut a = args(json!({}));
        assert_eq!(a.decode::<Option<u32>>("n"), Ok(None));
        assert_eq!(
            a.decode::<u32>("n"),
            Err("missing required argument".to_owned())
        );
    }

    #[test]
    fn a_wrong_json_type_is_described_in_plain_words() {
        let mut a = args(json!({"budget": "cem dólares"}));
        assert_eq!(
            a.decode::<f64>("budget"),
            Err("expected a number, got \"cem dólares\"".to_owned())
        );
    }

    #[test]
    fn errors_are_collected_and_name_each_argument() {
        let mut a = args(json!({"a": "x", "extra": 1}));
        let mut errors = ArgErrors::new();
        assert_eq!(errors.check("a", a.decode::<i64>("a")), None);
        assert_eq!(errors.check("b", a.decode::<i64>("b")), None);
        let result = errors.into_result("add", &a);
        assert!(result.is_error);
        let text = result.content[0].as_text().unwrap();
        assert_eq!(
            text,
            "Invalid arguments for tool `add`: a: expected an integer, got \"x\"; b: missing required argument; unexpected argument(s): extra"
        );
    }

    /// The arguments of a `tools/call` as the server receives them: JSON text, decoded field
    /// by field.
    fn raw_args(params: &str) -> Arguments {
        let text: Box<str> = params.into();
        #[derive(serde::Deserialize)]
        struct Call<'a> {
            #[serde(borrow)]
            arguments: &'a RawValue,
        }
        let call: Call<'_> = serde_json::from_str(&text).unwrap();
        let fields = RawFields::find(&text, call.arguments).expect("an object");
        Arguments::from_raw(text, fields)
    }

    #[test]
    fn arguments_read_from_text_decode_as_decoded_ones_do() {
        let json = r#"{"name":"t","arguments":{"a":1,"b\u0062":"x","list":[1,2],"budget":"cem d\u00f3lares","n":null}}"#;
        let map = |v: Value| match v {
            Value::Object(map) => Arguments::new(map),
            _ => unreachable!(),
        };
        let parsed: Value = serde_json::from_str(json).unwrap();
        for mut a in [raw_args(json), map(parsed["arguments"].clone())] {
            assert_eq!(a.decode::<i64>("a"), Ok(1));
            assert_eq!(a.decode::<String>("bb"), Ok("x".to_owned()));
            assert_eq!(a.decode::<Vec<u8>>("list"), Ok(vec![1, 2]));
            assert_eq!(
                a.decode::<f64>("budget"),
                Err("expected a number, got \"cem dólares\"".to_owned())
            );
            assert_eq!(a.decode::<Option<u32>>("n"), Ok(None));
            assert_eq!(
                a.decode::<i64>("a"),
                Err("missing required argument".to_owned()),
                "an argument is taken once"
            );
            assert_eq!(a.unused().count(), 0);
        }
    }

    #[test]
    fn arguments_read_from_text_keep_the_untaken_ones_and_the_last_of_repeated_names() {
        let mut a = raw_args(r#"{"arguments":{"k":1,"k":2,"extra":{"deep":[true]}}}"#);
        assert_eq!(a.decode::<i64>("k"), Ok(2));
        assert_eq!(a.unused().collect::<Vec<_>>(), ["k", "extra"]);
        let rest = a.into_map();
        assert_eq!(
            Value::Object(rest),
            json!({"k": 1, "extra": {"deep": [true]}})
        );
    }

    #[test]
    fn only_an_object_is_an_arguments_object() {
        let text = r#"{"arguments":[1]}"#;
        let value: Value = serde_json::from_str(text).unwrap();
        let inner = serde_json::value::to_raw_value(&value["arguments"]).unwrap();
        // Not a part of `text`: refused rather than misread.
        assert!(RawFields::find(text, &inner).is_none());
        let array: &RawValue = serde_json::from_str(&text[13..16]).unwrap();
        assert!(RawFields::find(text, array).is_none());
    }
}
