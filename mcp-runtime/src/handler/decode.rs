//! Decoding one argument into its parameter's type, shared by every kind of handler: whether
//! an absent argument is allowed (only for `Option<T>`), and a decoding failure explained in
//! the schema's words (`expected a number, got "cem dólares"`), so a model can correct its call.

use schemars::generate::SchemaGenerator;
use schemars::{JsonSchema, Schema};
use serde::de::{self, DeserializeOwned, Visitor};
use serde_json::Value;

use crate::jsonrpc::{compact_text, message_without_position};

/// Whether a `T` can be decoded from an absent argument (true for `Option<T>`).
pub(crate) fn is_optional<T: DeserializeOwned>() -> bool {
    T::deserialize(Missing).is_ok()
}

/// Says what was expected and what came, in the schema's words where the JSON type is wrong.
///
/// `T`'s schema is made by the generator's `subschema_for::<T>` (inlined, as the input
/// generator makes every schema), the function that listing the parameter already uses
/// ([`InputSchema`](crate::tool::InputSchema), [`ArgumentSpecs`](crate::args::ArgumentSpecs)),
/// so that no other schema code is compiled per parameter type.
pub(crate) fn describe_error<T: JsonSchema>(value: &Value, error: &serde_json::Error) -> String {
    describe_with(SchemaGenerator::subschema_for::<T>, value, error)
}

/// Why an argument's text holds no value at all (a number beyond a double's range, a string
/// with a lone surrogate escape), in serde_json's words without its position.
pub(crate) fn describe_unreadable(error: &serde_json::Error) -> String {
    let message = message_without_position(error);
    // `substring::contains`, not `str::contains`: see that module on the searcher's copies.
    if crate::substring::contains(&message, "number out of range") {
        format!("{message}: it is beyond what a 64-bit float holds")
    } else if crate::substring::contains(&message, "escape") {
        format!(
            "{message}: a `\\u` escape in the string is not a whole character (a lone surrogate)"
        )
    } else {
        message
    }
}

/// [`describe_error`] with `T`'s schema function: the same code for every type.
fn describe_with(
    schema_of: fn(&mut SchemaGenerator) -> Schema,
    value: &Value,
    error: &serde_json::Error,
) -> String {
    let mut schema = schema_of(&mut crate::schema::input_generator()).to_value();
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
        let list: Vec<String> = allowed.iter().map(compact_text).collect();
        return format!(
            "expected one of {}, got {}",
            list.join(", "),
            preview(value)
        );
    }
    message_without_position(error)
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
    let text = compact_text(value);
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
