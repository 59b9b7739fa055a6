//! Tool arguments: decoding each parameter, and error messages a model can act on.
//!
//! A decoding failure never becomes a protocol error: it becomes a `tools/call` result with
//! `isError: true` naming each faulty argument and what was expected
//! (`budget: expected a number, got "cem dólares"`), so the model can correct its call.

use std::fmt::Write as _;
use std::sync::Arc;

use schemars::JsonSchema;

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::InputSchema;
use crate::completion::Completer;
use crate::handler::{ArgumentSource, Missing, Requirements, describe_error, describe_unreadable};
use crate::jsonrpc::compact_text;
use crate::jsonrpc::scan::{Members, only_space};
use crate::protocol::CallToolResult;

/// The `arguments` object of a `tools/call`, consumed parameter by parameter.
#[derive(Clone, Debug, Default)]
pub struct Arguments {
    source: Source,
}

#[derive(Clone, Debug)]
enum Source {
    /// Decoded into values.
    Map(Map<String, Value>),
    /// As received: each parameter is decoded straight from its JSON text, with no
    /// intermediate `Value`.
    Raw { text: Arc<str>, fields: Vec<Field> },
}

impl Default for Source {
    fn default() -> Source {
        Source::Map(Map::new())
    }
}

/// One argument of a [`Source::Raw`]: its name and where its value lies in the text.
#[derive(Clone, Debug)]
struct Field {
    name: Name,
    value: std::ops::Range<usize>,
    taken: bool,
}

/// An argument's name: where it lies in the text, or (when it was written with escapes) its
/// decoded form.
#[derive(Clone, Debug)]
enum Name {
    InText(std::ops::Range<usize>),
    Decoded(String),
}

impl Field {
    fn name<'a>(&'a self, text: &'a str) -> &'a str {
        match &self.name {
            Name::InText(range) => &text[range.clone()],
            Name::Decoded(name) => name,
        }
    }

    /// Whether the argument is called `name`: lengths first, then bytes (the parameter names
    /// of one tool mostly differ in length or in their first byte).
    fn is_named(&self, text: &str, name: &str) -> bool {
        match &self.name {
            Name::InText(range) => {
                range.len() == name.len()
                    && text.as_bytes().get(range.clone()) == Some(name.as_bytes())
            }
            Name::Decoded(decoded) => decoded == name,
        }
    }
}

/// The JSON text of the argument `name` among `fields` of `text`, marked taken; `None` if
/// there is none left. The last of repeated names counts, as in a decoded object, and takes
/// the earlier ones with it: they were never arguments of their own. (Apart from
/// [`Arguments::decode`], so that each parameter type's copy of it holds only what depends on
/// the type.)
fn take<'t>(text: &'t str, fields: &mut [Field], name: &str) -> Option<&'t str> {
    let mut last = None;
    for (index, field) in fields.iter_mut().enumerate() {
        if !field.taken && field.is_named(text, name) {
            field.taken = true;
            last = Some(index);
        }
    }
    Some(&text[fields[last?].value.clone()])
}

/// Decodes `value` as a `T`, through its compact text: the reader of text is the one every
/// parameter type has anyway, where reading a `Value` would compile a second reader of `T`
/// (several KB for each structured parameter type of a server). A failure is explained in the
/// schema's words where the JSON type is wrong.
///
/// A number is decoded from itself: serde_json's default float reader is not correctly
/// rounded (its `float_roundtrip` feature makes it so), and reading back the shortest text of
/// a float it read can land one unit in the last place away, where decoding the arguments'
/// text gives the float as first read. (A float inside an array or object still goes through
/// its text.)
fn decode_value<T: DeserializeOwned + JsonSchema>(value: &Value) -> Result<T, String> {
    if let Value::Number(number) = value {
        return T::deserialize(number).map_err(|error| describe_error::<T>(value, &error));
    }
    let text = compact_text(value);
    serde_json::from_str(&text)
        .map_err(|error| variant_explained(describe_error::<T>(value, &error), &text, &error))
}

/// `described`, unless it is serde_json's bare "expected value" (see [`not_a_variant`]). Out
/// of the generic [`decode_value`]: one copy, not one per parameter type.
#[inline(never)]
fn variant_explained(described: String, text: &str, error: &serde_json::Error) -> String {
    match described.as_str() {
        "expected value" => not_a_variant(text, error),
        _ => described,
    }
}

/// Reading valid JSON text, serde_json says only "expected value" where an enum met a value
/// that names no variant (neither a string nor an object): says what it met, read at the
/// error's column (the text is one line).
#[inline(never)]
fn not_a_variant(text: &str, error: &serde_json::Error) -> String {
    let met = text
        .get(error.column().saturating_sub(1)..)
        .and_then(|rest| {
            serde_json::Deserializer::from_str(rest)
                .into_iter::<Value>()
                .next()
        })
        .and_then(Result::ok)
        .map_or_else(String::new, |met| format!(", got {}", compact_text(&met)));
    format!("expected a variant's name (or an object naming a variant with data){met}")
}

/// Argument `name` taken out of a decoded object. Out of the generic [`Arguments::decode`]:
/// one copy of the map's removal, not one per parameter type.
#[inline(never)]
fn remove(map: &mut Map<String, Value>, name: &str) -> Option<Value> {
    map.remove(name)
}

/// An argument's JSON text that did not decode as its parameter's type, read as a value to
/// decide the outcome by (see [`Arguments::decode`]); when it holds no value, the text's own
/// error. Out of the generic [`Arguments::decode`], as [`remove`].
#[inline(never)]
fn read_again(json: &str, text_error: &serde_json::Error) -> Result<Value, String> {
    serde_json::from_str(json).map_err(|_| describe_unreadable(text_error))
}

/// The value of an argument's JSON text (`null` should it not parse).
fn parse_value(json: &str) -> Value {
    serde_json::from_str(json).unwrap_or(Value::Null)
}

impl Arguments {
    /// Wraps an `arguments` object.
    pub fn new(map: Map<String, Value>) -> Arguments {
        Arguments {
            source: Source::Map(map),
        }
    }

    /// The arguments object whose members [`RawFields::scan`] located in `text`.
    pub(crate) fn from_raw(text: Arc<str>, fields: RawFields) -> Arguments {
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
            Source::Map(map) => match remove(map, name) {
                Some(value) => decode_value(&value),
                None => missing(),
            },
            Source::Raw { text, fields } => {
                let Some(json) = take(text, fields, name) else {
                    return missing();
                };
                serde_json::from_str(json).or_else(|text_error| {
                    // Decided by the decoded value, as for a decoded object, so that the
                    // client reads one outcome whichever way its arguments were decoded: a
                    // field named twice fails from text ("duplicate field") where a decoded
                    // object keeps its last value. A text that holds no value (a number out
                    // of range) fails.
                    decode_value(&read_again(json, &text_error)?)
                })
            }
        }
    }

    /// The bytes these arguments hold as JSON text: the params received (for arguments read
    /// from text), or the object's compact text.
    #[cfg(feature = "tasks")]
    pub(crate) fn held_bytes(&self) -> usize {
        match &self.source {
            Source::Raw { text, .. } => text.len(),
            Source::Map(map) => crate::jsonrpc::json_bytes(map),
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
                    let value = parse_value(&text[field.value.clone()]);
                    (field.name(&text).to_owned(), value)
                })
                .collect(),
        }
    }

    /// The names of arguments no parameter has taken.
    pub fn unused(&self) -> impl Iterator<Item = &str> {
        let (map, raw) = match &self.source {
            Source::Map(map) => (Some(map), None),
            Source::Raw { text, fields } => (None, Some((text, fields))),
        };
        let from_map = map
            .into_iter()
            .flat_map(|map| map.keys().map(String::as_str));
        let from_text = raw.into_iter().flat_map(|(text, fields)| {
            fields
                .iter()
                .filter(|field| !field.taken)
                .map(|field| field.name(text))
        });
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

    /// The members of `json`, a JSON object (any other JSON value: `None`), located in `json`
    /// itself.
    pub(crate) fn of(json: &str) -> Option<RawFields> {
        let mut members = Members::of(json)?;
        let fields = RawFields::scan(&mut members, 0)?;
        only_space(&json[members.end()..]).then_some(fields)
    }

    /// Each member's name and JSON text, in order, from the `text` they were located in.
    pub(crate) fn members<'s, 't: 's>(
        &'s self,
        text: &'t str,
    ) -> impl Iterator<Item = (&'s str, &'t str)> + 's {
        self.0
            .iter()
            .map(move |field| (field.name(text), &text[field.value.clone()]))
    }

    /// The members of the object `members`, read to its end, located from byte `base` of the
    /// text scanned. A name whose escapes stand for no character (a lone surrogate) is kept
    /// as written, which names no parameter.
    pub(crate) fn scan(members: &mut Members<'_>, base: usize) -> Option<RawFields> {
        let mut fields = Vec::with_capacity(4);
        while let Some(name) = members.next_name().ok()? {
            let decoded = name.escaped.then(|| name.decoded()).flatten();
            let name = if let Some(decoded) = decoded {
                Name::Decoded(decoded.into_owned())
            } else {
                let range = name.raw_range();
                Name::InText(range.start - base..range.end - base)
            };
            let value = members.value_range().ok()?;
            fields.push(Field {
                name,
                value: value.start - base..value.end - base,
                taken: false,
            });
        }
        Some(RawFields(fields))
    }

    /// The JSON text of member `name` (the last one, if repeated, as in a decoded object).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn value_of<'t>(&self, text: &'t str, name: &str) -> Option<&'t str> {
        let field = self.0.iter().rev().find(|field| field.name(text) == name)?;
        Some(&text[field.value.clone()])
    }
}

/// An `arguments` member, as a pass over the params around it meets it.
pub(crate) enum ArgumentsAt {
    /// No `arguments` member.
    Absent,
    /// An object, its members located (`null` counts as an object without members).
    Object(RawFields),
    /// Something else: `tools/call` refuses it, explaining what it expected.
    NotAnObject,
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
                self.record(name, &message);
                None
            }
        }
    }

    /// Records `message` against argument `name`: out of the generic [`check`](Self::check),
    /// one copy, not one per parameter type.
    #[cold]
    #[inline(never)]
    fn record(&mut self, name: &str, message: &str) {
        self.messages.push(format!("{name}: {message}"));
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
        let mut members = Members::of(&text).unwrap();
        while members.next_name().unwrap().unwrap().raw() != "arguments" {
            members.value().unwrap();
        }
        let mut arguments = members.nested().expect("an object");
        // Located from the start of `text`, where the call's params begin.
        let fields = RawFields::scan(&mut arguments, 0).unwrap();
        Arguments::from_raw(text.into(), fields)
    }

    #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    enum Kind {
        Gift,
        Card { to: String },
    }

    #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    struct Order {
        kind: Kind,
        count: u32,
        tags: Vec<String>,
    }

    /// A structured argument is read through its text whichever way the arguments came, and
    /// what is wrong inside it is said in the same words either way, also where serde_json's
    /// reader of text says only "expected value" (an enum given neither a string nor an
    /// object); a field named twice keeps its last value, as in a decoded object.
    #[test]
    fn what_is_wrong_inside_a_structured_argument_is_said_alike_from_text_and_values() {
        let cases = [
            (
                r#"{"kind":5,"count":1,"tags":[]}"#,
                Err("expected a variant's name (or an object naming a variant with data), got 5"),
            ),
            (
                r#"{"kind":[1, 2],"count":1,"tags":[]}"#,
                Err(
                    "expected a variant's name (or an object naming a variant with data), got [1,2]",
                ),
            ),
            (
                r#"{"kind":"Gift2","count":1,"tags":[]}"#,
                Err("unknown variant `Gift2`, expected `Gift` or `Card`"),
            ),
            (
                r#"{"kind":{"Card":{}},"count":1,"tags":[]}"#,
                Err("missing field `to`"),
            ),
            (
                r#"{"kind":"Gift","count":"a","tags":[]}"#,
                Err("invalid type: string \"a\", expected u32"),
            ),
            (r#"{"kind":"Gift","tags":[]}"#, Err("missing field `count`")),
            (
                r#"{"kind":"Gift","count":1,"count":2,"tags":["x"]}"#,
                Ok(Order {
                    kind: Kind::Gift,
                    count: 2,
                    tags: vec!["x".to_owned()],
                }),
            ),
        ];
        for (order, expected) in cases {
            let json = format!(r#"{{"name":"t","arguments":{{"o":{order}}}}}"#);
            let parsed: Value = serde_json::from_str(&json).unwrap();
            let Value::Object(map) = parsed["arguments"].clone() else {
                unreachable!()
            };
            let expected = expected.map_err(str::to_owned);
            for (source, mut a) in [("text", raw_args(&json)), ("values", Arguments::new(map))] {
                assert_eq!(a.decode::<Order>("o"), expected, "{order} from {source}");
            }
        }
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

    /// Found by the `arguments` fuzz target: a float of more digits than serde_json's default
    /// reader rounds correctly decoded one unit in the last place apart from text and from a
    /// decoded object, as the latter read the float's shortest text back.
    #[test]
    fn a_long_float_decodes_alike_from_text_and_from_values() {
        let json = r#"{"name":"t","arguments":{"f":444444444444444400127250.4,"n":-1e-7}}"#;
        let parsed: Value = serde_json::from_str(json).unwrap();
        let Value::Object(map) = parsed["arguments"].clone() else {
            unreachable!()
        };
        let expected = parsed["arguments"]["f"].as_f64();
        for (source, mut a) in [("text", raw_args(json)), ("values", Arguments::new(map))] {
            assert_eq!(a.decode::<f64>("f").ok(), expected, "from {source}");
            assert_eq!(a.decode::<f32>("n"), Ok(-1e-7), "from {source}");
        }
        let from_values =
            Arguments::new(Map::from_iter([("f".to_owned(), Value::from(2.5))])).decode::<u8>("f");
        assert_eq!(
            from_values,
            raw_args(r#"{"name":"t","arguments":{"f":2.5}}"#).decode::<u8>("f"),
            "a number that fails fails alike"
        );
        assert!(from_values.unwrap_err().contains("2.5"));
    }

    /// Found by the `arguments` fuzz target: an error serde_json reports with a position (a
    /// value out of range) named a line and column within the argument's own text, and one it
    /// words differently when reading text (an enum given a number).
    #[test]
    fn an_error_from_text_carries_no_position_and_reads_as_from_a_value() {
        /// A colour.
        #[derive(Debug, PartialEq, serde::Deserialize, JsonSchema)]
        #[serde(rename_all = "lowercase")]
        enum Colour {
            /// Red.
            Red,
        }
        let json = r#"{"name":"t","arguments":{"c":[300],"d":0.5}}"#;
        let parsed: Value = serde_json::from_str(json).unwrap();
        let mut outcomes = Vec::new();
        for mut a in [raw_args(json), args(parsed["arguments"].clone())] {
            assert_eq!(
                a.decode::<Vec<u8>>("c"),
                Err("invalid value: integer `300`, expected u8".to_owned())
            );
            outcomes.push(a.decode::<Colour>("d"));
        }
        assert!(outcomes[0].is_err(), "{outcomes:?}");
        assert_eq!(outcomes[0], outcomes[1], "one message from either path");
    }

    /// A text that holds no value at all (a number beyond a double's range, a string with a
    /// lone surrogate escape) is refused in serde_json's words, not as "got null": what was
    /// sent is no null, and a string may well have been expected.
    #[test]
    fn an_argument_whose_text_holds_no_value_says_why() {
        let mut a = raw_args(r#"{"arguments":{"n":1e999999,"s":"a\ud800b"}}"#);
        assert_eq!(
            a.decode::<u64>("n"),
            Err("number out of range: it is beyond what a 64-bit float holds".to_owned())
        );
        let s = a.decode::<String>("s").unwrap_err();
        assert!(s.contains("escape") && s.contains("lone surrogate"), "{s}");
        assert!(!s.contains("null"), "{s}");
    }

    #[test]
    fn arguments_read_from_text_keep_the_untaken_ones_and_the_last_of_repeated_names() {
        // As a decoded object has it: the last `k` is the argument, and taking it leaves no
        // other `k` behind (found by the `arguments` fuzz target comparing both paths).
        let mut a = raw_args(r#"{"arguments":{"k":1,"k":2,"extra":{"deep":[true]}}}"#);
        assert_eq!(a.decode::<i64>("k"), Ok(2));
        assert_eq!(
            a.decode::<i64>("k"),
            Err("missing required argument".to_owned())
        );
        assert_eq!(a.unused().collect::<Vec<_>>(), ["extra"]);
        let rest = a.into_map();
        assert_eq!(Value::Object(rest), json!({"extra": {"deep": [true]}}));
        let untaken = raw_args(r#"{"arguments":{"k":1,"k":2}}"#);
        assert_eq!(Value::Object(untaken.into_map()), json!({"k": 2}));
    }

    /// Found by the `arguments` fuzz target: an argument whose text names a field twice
    /// failed from text (serde's "duplicate field") and decoded from a decoded object, which
    /// keeps the last value. From text it now decodes as the value the text holds, as from a
    /// decoded object; a text that holds no value (a number out of range) still fails.
    #[test]
    fn a_field_named_twice_inside_an_argument_keeps_its_last_value_from_either_source() {
        #[derive(Debug, PartialEq, serde::Deserialize, JsonSchema)]
        struct Order {
            count: u32,
            ship: Option<String>,
        }
        let json = r#"{"arguments":{"e":{"count":1,"ship":null,"ship":"pickup"},"f":{"count":1,"ship":"pickup","ship":5}}}"#;
        let parsed: Value = serde_json::from_str(json).unwrap();
        for mut a in [raw_args(json), args(parsed["arguments"].clone())] {
            let order = Order {
                count: 1,
                ship: Some("pickup".to_owned()),
            };
            assert_eq!(a.decode::<Order>("e"), Ok(order));
            assert_eq!(
                a.decode::<Order>("f"),
                Err("invalid type: integer `5`, expected a string".to_owned())
            );
        }
        let mut out_of_range = raw_args(r#"{"arguments":{"b":1e400}}"#);
        assert!(out_of_range.decode::<Option<String>>("b").is_err());
    }

    #[test]
    fn only_an_object_is_an_arguments_object() {
        assert!(RawFields::of(r#"{"a":1}"#).is_some());
        for other in ["[1]", "1", "null", r#"{"a":1} {}"#, r#"{"a":}"#] {
            assert!(RawFields::of(other).is_none(), "{other}");
        }
    }
}
