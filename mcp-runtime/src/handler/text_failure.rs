//! serde_json's words for a failure to decode an argument's text, made the words it uses for a
//! failure to decode the value the text holds: arguments are decoded from their text only (one
//! decoder per parameter type in the binary), and their failures read as they did when they
//! were decoded from values, and as they do wherever a value is decoded.

use serde::de;
use serde_json::Value;
use serde_json::value::RawValue;

/// serde_json's `message` for `error` (without its position), a failure to decode a type from
/// `json` (valid JSON: an argument's text), in the words serde_json uses when it decodes
/// the value `json` holds, which is how arguments were decoded before and how they still are
/// wherever a value is decoded. Reading text, serde_json words two failures as syntax errors,
/// which in valid JSON they are not:
/// - an enum given neither a string nor an object is "expected value" there; from a value,
///   "invalid type: integer `5`, expected string or map", or, for an object with other than
///   one member, "invalid value: map, expected map with a single key";
/// - an array with more elements than a tuple or a struct takes is "trailing characters"
///   there; from a value, "invalid length 3, expected fewer elements in array".
pub(super) fn as_from_a_value(json: &str, error: &serde_json::Error, message: String) -> String {
    if error.classify() != serde_json::error::Category::Syntax {
        return message;
    }
    let Some(at) = offset_of(json, error.line(), error.column()) else {
        return message;
    };
    let reworded = match message.as_str() {
        "expected value" => Some(enum_given(json, at)),
        "trailing characters" => longer_array(json, at),
        _ => None,
    };
    reworded.unwrap_or(message)
}

/// The byte of `json` at serde_json's `line` and `column`: for an error found by looking at
/// the next byte, that byte; for one found after a value, the value's last byte.
fn offset_of(json: &str, line: usize, column: usize) -> Option<usize> {
    let line_start = match line {
        0 => return None,
        1 => 0,
        _ => {
            let newlines = json.bytes().enumerate().filter(|&(_, byte)| byte == b'\n');
            newlines.map(|(at, _)| at + 1).nth(line - 2)?
        }
    };
    (line_start + column)
        .checked_sub(1)
        .filter(|&at| at < json.len())
}

/// An enum's failure at byte `at` of `json`, as from a value: where a value starts (serde_json
/// looked at it), a value that is neither a string nor an object; anywhere else (the `}` of an
/// empty object, or the end of the first member's value when a second one follows), an object
/// without exactly one member. (A one-digit first member's value followed by a second member
/// reads as that digit given: the text alone cannot tell the two apart.)
fn enum_given(json: &str, at: usize) -> String {
    let bytes = json.as_bytes();
    let starts_value = match bytes[at] {
        b'n' | b't' | b'f' | b'[' | b'-' => true,
        // A digit may end a number as well as start one.
        b'0'..=b'9' => !matches!(
            at.checked_sub(1).map(|before| bytes[before]),
            Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-')
        ),
        _ => false,
    };
    let given = starts_value.then(|| first_value(&json[at..])).flatten();
    let error: serde_json::Error = match given {
        Some(value) => de::Error::invalid_type(unexpected(&value), &"string or map"),
        None => de::Error::invalid_value(de::Unexpected::Map, &"map with a single key"),
    };
    error.to_string()
}

/// An array's failure to end where its type does, `at` being its first element too many, as
/// from a value: "invalid length 3, expected fewer elements in array".
fn longer_array(json: &str, at: usize) -> Option<String> {
    let start = innermost_open(json, at)?;
    let Value::Array(array) = first_value(&json[start..])? else {
        return None;
    };
    let error: serde_json::Error =
        de::Error::invalid_length(array.len(), &"fewer elements in array");
    Some(error.to_string())
}

/// Where the innermost array or object still open at byte `at` of `json` begins.
fn innermost_open(json: &str, at: usize) -> Option<usize> {
    let mut open = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for (index, &byte) in json.as_bytes()[..at].iter().enumerate() {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => open.push(index),
            b']' | b'}' => {
                open.pop();
            }
            _ => {}
        }
    }
    open.pop()
}

/// The JSON value `json` begins with (what follows it is not looked at).
fn first_value(json: &str) -> Option<Value> {
    // Found as a raw value and then parsed, by the readers the crate uses everywhere else.
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let raw: &RawValue = de::Deserialize::deserialize(&mut deserializer).ok()?;
    serde_json::from_str(raw.get()).ok()
}

/// What serde calls `value` in its messages, as serde_json does for a decoded value.
fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => de::Unexpected::Unsigned(u),
            (None, Some(i)) => de::Unexpected::Signed(i),
            (None, None) => de::Unexpected::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}
