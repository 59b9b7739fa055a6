//! Whether a request claims revision 2026-07-28, as the runtime reads it (a quick search of the
//! raw text, then one pass over the params), against a reading of the same text by
//! serde_json. A request claims the revision when its params have a `_meta` object with a
//! member named `io.modelcontextprotocol/protocolVersion`, whatever its value (revision
//! 2026-07-28, basic/versioning, "Backward Compatibility"), however the name is written:
//! `protocol\u0056ersion` is the same name (RFC 8259 section 8.3). Compared for requests whose
//! envelope and params name each member once; what a name given twice means is the runtime's
//! own rule. And whether a message is a request at all does not change when characters of its
//! strings are written as escapes.
#![no_main]

use std::fmt;

use libfuzzer_sys::fuzz_target;
use mcp_runtime::__internals::{claims_stateless_era, parse_message};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        let _ = claims_stateless_era(data);
        return;
    };
    // The same message with some characters of its strings written as `\u` escapes (which the
    // fuzzer seldom makes by itself, and a look at the raw text could miss).
    let escaped = escaped(text);
    // (Up to the id limit's length: a longer id may cross it once escaped.)
    if escaped.len() <= 1024 {
        assert_eq!(
            parse_message(text.as_bytes()),
            parse_message(escaped.as_bytes()),
            "{text:?} and {escaped:?} are not both requests"
        );
    }
    for text in [text.to_owned(), escaped] {
        let Some(runtime) = claims_stateless_era(text.as_bytes()) else {
            continue;
        };
        let Some(serde) = claims(&text) else {
            continue;
        };
        assert_eq!(
            runtime, serde,
            "the runtime and serde_json disagree on whether {text:?} claims revision 2026-07-28"
        );
    }
});

/// `text` with about one in three printable ASCII characters inside its strings (other than
/// `"` and `\`, which end a string and begin an escape) written as a `\u` escape, the picks
/// decided by the text itself.
fn escaped(text: &str) -> String {
    let mut pick = text.bytes().fold(0x9e37_79b9_u32, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    }) | 1;
    let mut out = String::with_capacity(text.len() * 2);
    let (mut in_string, mut after_backslash, mut hex_digits) = (false, false, 0);
    for char in text.chars() {
        // Not the character after a backslash, nor one of the four hex digits of a `\u`.
        let plain = !after_backslash && hex_digits == 0;
        if after_backslash && char == 'u' {
            hex_digits = 4;
        } else if !plain && hex_digits > 0 {
            hex_digits -= 1;
        }
        after_backslash = in_string && plain && char == '\\';
        let escapable =
            in_string && plain && char.is_ascii_graphic() && !matches!(char, '"' | '\\');
        if char == '"' && plain {
            in_string = !in_string;
        }
        // xorshift32
        pick ^= pick << 13;
        pick ^= pick >> 17;
        pick ^= pick << 5;
        if escapable && pick % 3 == 0 {
            out.push_str(&format!("\\u{:04x}", u32::from(char)));
        } else {
            out.push(char);
        }
    }
    out
}

/// Whether the request `text` claims the revision, as serde_json reads it; `None` if serde_json
/// refuses it (a lone surrogate escape in a name, say) or its envelope or params name a member
/// twice.
fn claims(text: &str) -> Option<bool> {
    let envelope = object(serde_json::from_str(text).ok()?)??.once()?;
    let Some((_, params)) = envelope.into_iter().find(|(name, _)| name == "params") else {
        return Some(false);
    };
    let Some(params) = object(params)? else {
        return Some(false);
    };
    let mut claims = false;
    for (name, value) in params.once()? {
        if name == "_meta"
            && let Some(meta) = object(value)?
        {
            claims |= meta.0.iter().any(|(name, _)| name == PROTOCOL_VERSION);
        }
    }
    Some(claims)
}

/// The members of `value`: `Some(None)` if it is not an object, `None` if serde_json cannot
/// read it as one.
fn object(value: &RawValue) -> Option<Option<Members<'_>>> {
    if !value.get().trim_start().starts_with('{') {
        return Some(None);
    }
    serde_json::from_str(value.get()).ok().map(Some)
}

/// A JSON object's members in order, names decoded, every one kept when a name is given twice.
struct Members<'a>(Vec<(String, &'a RawValue)>);

impl<'a> Members<'a> {
    /// The members, if no name is given twice.
    fn once(self) -> Option<Vec<(String, &'a RawValue)>> {
        let mut names: Vec<&str> = self.0.iter().map(|(name, _)| name.as_str()).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        (names.len() == before).then_some(self.0)
    }
}

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Object;
        impl<'de> Visitor<'de> for Object {
            type Value = Members<'de>;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("a JSON object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(Members(members))
            }
        }
        deserializer.deserialize_map(Object)
    }
}
