//! Tool arguments decoded two ways from the same arbitrary JSON object: straight from its text
//! (what `tools/call` does) and from a decoded map (what a `DynamicTool` or a test does). Both
//! must give the same values, the same error messages, the same unused names and the same
//! remaining map.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_fuzz::{Colour, Order};
use mcp_runtime::__internals::arguments_from_text;
use mcp_runtime::Arguments;
use serde_json::{Map, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(map) = serde_json::from_str::<Map<String, Value>>(text) else {
        // Not an object, or one serde_json cannot hold as values (a number beyond f64, say):
        // the text path may still take it, as it leaves values as text until a parameter
        // decodes one; that must only fail that parameter.
        if let Some(mut arguments) = arguments_from_text(text) {
            let _ = arguments.decode::<f64>("e");
            let _ = arguments.decode::<Order>("a");
            let _ = arguments.into_map();
        }
        return;
    };
    let mut from_text = arguments_from_text(text).expect("an object is accepted as arguments");
    let mut from_map = Arguments::new(map);
    compare::<i64>(&mut from_text, &mut from_map, "a");
    compare::<Option<String>>(&mut from_text, &mut from_map, "b");
    compare::<Vec<u8>>(&mut from_text, &mut from_map, "c");
    compare::<Option<Colour>>(&mut from_text, &mut from_map, "d");
    compare::<Order>(&mut from_text, &mut from_map, "e");
    compare::<f64>(&mut from_text, &mut from_map, "f");
    let sorted = |args: &Arguments| {
        let mut names: Vec<String> = args.unused().map(str::to_owned).collect();
        names.sort();
        names.dedup();
        names
    };
    assert_eq!(sorted(&from_text), sorted(&from_map), "unused names differ");
    assert_eq!(
        from_text.into_map(),
        from_map.into_map(),
        "remaining maps differ"
    );
});

fn compare<T>(from_text: &mut Arguments, from_map: &mut Arguments, name: &str)
where
    T: serde::de::DeserializeOwned + schemars::JsonSchema + PartialEq + std::fmt::Debug,
{
    let text = from_text.decode::<T>(name);
    let map = from_map.decode::<T>(name);
    assert_eq!(text, map, "argument `{name}` decoded differently");
}
