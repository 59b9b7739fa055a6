//! JSON shown to people, in error messages and traces.
//!
//! A value's compact text is written with serde_json's writer, not `Value`'s `Display`: that
//! impl carries a second, pretty writer (`{:#}`) besides the compact one, about 12 KB of machine
//! code that nothing else in the crate needs.

use serde_json::Value;

/// `value`'s compact JSON text, as `value.to_string()` gives it.
pub(crate) fn compact_text(value: &Value) -> String {
    serde_json::to_string(value).expect("a `Value` always serializes")
}

/// serde_json's message without its ` at line L column C`: when a value is decoded from its
/// own JSON text, a member or an argument, the position is within that text, which tells the
/// client nothing (and the same value decoded from a `Value` has no position at all).
pub(crate) fn message_without_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    if error.line() == 0 {
        return message;
    }
    let position = format!(" at line {} column {}", error.line(), error.column());
    match message.strip_suffix(&position) {
        Some(message) => message.to_owned(),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_text_is_what_display_writes() {
        let value: Value =
            serde_json::from_str(r#"{"a": [1, 2.5, "x\"y", null, true], "b": {"c": -0.0}}"#)
                .unwrap();
        assert_eq!(compact_text(&value), value.to_string());
    }

    #[test]
    fn the_position_is_left_out_only_where_there_is_one() {
        let error = serde_json::from_str::<u8>("  300").unwrap_err();
        assert!(
            error.to_string().ends_with(" at line 1 column 5"),
            "{error}"
        );
        assert_eq!(
            message_without_position(&error),
            "invalid value: integer `300`, expected u8"
        );
        let error = serde_json::from_value::<u8>(Value::Bool(true)).unwrap_err();
        assert_eq!(
            message_without_position(&error),
            "invalid type: boolean `true`, expected u8"
        );
    }
}
