//! The runtime's scanner of JSON text against serde_json on arbitrary text: both take the same
//! texts for one JSON object (and nothing after it), and each message is classified as a
//! transport does without a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_runtime::__internals::{parse_message, scans_as_object};
use serde_json::value::RawValue;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let serde = serde_json::from_str::<&RawValue>(text).is_ok_and(|raw| raw.get().starts_with('{'));
    assert_eq!(
        scans_as_object(text),
        serde,
        "the scanner and serde_json disagree on {text:?}"
    );
    let _ = parse_message(data);
});
