//! URI template parsing and matching on arbitrary templates and URIs: no panic, and a URI
//! built by expanding a template with plain values matches it with exactly those values.
#![no_main]

use std::collections::HashMap;

use libfuzzer_sys::fuzz_target;
use mcp_runtime::__internals::UriTemplate;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    // Arbitrary input: the template is everything before the first newline, the URI after.
    let (template, uri) = text.split_once('\n').unwrap_or((&text, ""));
    if let Ok(parsed) = UriTemplate::parse(template) {
        let _ = parsed.match_uri(uri);
    }
    round_trip(data);
});

/// Builds `scheme://lit{v0}lit{v1}...` from the input's bytes, expands it with alphanumeric
/// values, and checks the match gives those values back.
fn round_trip(data: &[u8]) {
    let mut template = String::from("t://");
    let mut uri = String::from("t://");
    let mut expected = HashMap::new();
    for (index, chunk) in data.chunks(3).take(8).enumerate() {
        let literal = ["/", "/x/", "/a.", "/-", "/_/"][usize::from(chunk[0]) % 5];
        template.push_str(literal);
        uri.push_str(literal);
        let name = format!("v{index}");
        let value: String = chunk
            .iter()
            .map(|byte| char::from(b'a' + byte % 26))
            .collect();
        template.push_str(&format!("{{{name}}}"));
        uri.push_str(&value);
        expected.insert(name, value);
    }
    let parsed = UriTemplate::parse(&template).expect("a generated template parses");
    // Every literal starts with `/`, which a simple `{var}` value never holds, so where each
    // value ends is unambiguous and the match must give back exactly what was expanded.
    let matched = parsed.match_uri(&uri);
    assert_eq!(
        matched.as_ref(),
        Some(&expected),
        "{template} expanded to {uri} did not match back"
    );
}
