//! Tool arguments: decoding each parameter, and error messages a model can act on.
//!
//! A decoding failure never becomes a protocol error: it becomes a `tools/call` result with
//! `isError: true` naming each faulty argument and what was expected
//! (`budget: expected a number, got "cem dólares"`), so the model can correct its call.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::{Map, Value};

use crate::protocol::CallToolResult;

/// The `arguments` object of a `tools/call`, consumed parameter by parameter.
#[derive(Debug, Default)]
pub struct Arguments {
    map: Map<String, Value>,
}

impl Arguments {
    /// Wraps an `arguments` object.
    pub fn new(map: Map<String, Value>) -> Arguments {
        Arguments { map }
    }

    /// Decodes the argument `name` as a `T`; an absent argument is fine when `T` can be absent
    /// (`Option<T>`).
    pub fn decode<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Result<T, String> {
        match self.map.remove(name) {
            Some(value) => {
                T::deserialize(&value).map_err(|error| describe_error::<T>(&value, &error))
            }
            None => T::deserialize(Missing).map_err(|_| "missing required argument".to_owned()),
        }
    }

    /// The whole `arguments` object.
    pub fn into_map(self) -> Map<String, Value> {
        self.map
    }

    /// The names of arguments no parameter has taken.
    pub fn unused(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
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

/// Whether a `T` can be decoded from an absent argument (true for `Option<T>`).
pub(crate) fn is_optional<T: DeserializeOwned>() -> bool {
    T::deserialize(Missing).is_ok()
}

/// Says what was expected and what came, in the schema's words where the JSON type is wrong.
pub(crate) fn describe_error<T: JsonSchema>(value: &Value, error: &serde_json::Error) -> String {
    let mut schema = crate::schema::input_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if let Value::Object(map) = &mut schema {
        // A present value is never `null`'s fault: describe what a value should be.
        crate::schema::strip_null(map);
    }
    let schema = schema.as_object();
    if let Some(expected) = schema
        .and_then(|s| s.get("type"))
        .and_then(|t| type_mismatch(t, value))
    {
        return format!("expected {expected}, got {}", preview(value));
    }
    if let Some(allowed) = schema.and_then(|s| s.get("enum")).and_then(Value::as_array)
        && !allowed.contains(value)
    {
        let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
        return format!(
            "expected one of {}, got {}",
            list.join(", "),
            preview(value)
        );
    }
    error.to_string()
}

/// `Some("a number")` when `value`'s JSON type is not among the schema's `type`s.
fn type_mismatch(types: &Value, value: &Value) -> Option<String> {
    let types: Vec<&str> = match types {
        Value::String(t) => vec![t.as_str()],
        Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let matches = |t: &str| match t {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        _ => true,
    };
    if types.is_empty() || types.iter().any(|t| matches(t)) {
        return None;
    }
    let words: Vec<&str> = types
        .iter()
        .map(|t| match *t {
            "null" => "null",
            "boolean" => "true or false",
            "string" => "a string",
            "number" => "a number",
            "integer" => "an integer",
            "array" => "an array",
            "object" => "an object",
            other => other,
        })
        .collect();
    Some(words.join(" or "))
}

fn preview(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 80 {
        return text;
    }
    let mut short: String = text.chars().take(77).collect();
    short.push_str("...");
    short
}

/// A deserializer for an argument that is not there: `Option` accepts it as `None`, every
/// other type refuses it.
pub(crate) struct Missing;

impl<'de> de::Deserializer<'de> for Missing {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("missing"))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
}
