//! Rewrites that make a generated schema acceptable to every client.
//!
//! [`clean_input`] turns what schemars writes for an argument into the shape strict clients
//! accept, at every depth: no `$ref` (references inlined; a recursive type written out
//! [`RECURSION_DEPTH`] levels deep, fewer if that would inline more than [`MAX_INLINED`]
//! references, then described by its JSON type alone), no `null` in a type
//! union, an `enum` or an `anyOf`/`oneOf` (see [`strip_null`]), no `null` default, tuples as
//! plain arrays (`prefixItems` and `items: [...]` mean different things in different drafts),
//! and only the `format`s the JSON Schema specification defines (schemars' `uint32`, `double`,
//! `ip`... make a strict ajv refuse the schema). [`clean_output`] only drops those `format`s.

use serde_json::{Map, Value};

/// How many times a recursive type is written out along one path of an `inputSchema` before
/// the next level is described by its JSON type alone (`{"type": "object"}`).
pub(crate) const RECURSION_DEPTH: usize = 3;

/// How many references one argument's schema may inline in all; past that, recursive types are
/// written out fewer levels deep (down to one), so a type that refers to itself many times (an
/// expression tree) does not make a schema of megabytes.
const MAX_INLINED: usize = 64;

/// The keywords whose value is one schema.
const SCHEMA_KEYWORDS: [&str; 10] = [
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
];

/// The keywords whose value is a list of schemas.
const SCHEMA_LIST_KEYWORDS: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];

/// The keywords whose value maps names to schemas (`$defs` aside).
const SCHEMA_MAP_KEYWORDS: [&str; 3] = ["properties", "patternProperties", "dependentSchemas"];

/// The `format`s defined by JSON Schema 2020-12 (and known to ajv-formats and Python
/// `jsonschema`); any other is an annotation strict validators refuse to compile.
const STANDARD_FORMATS: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Cleans one argument's schema for an `inputSchema`, `definitions` being the `$defs` schemars
/// collected (referenced as `#/$defs/Name`).
pub(crate) fn clean_input(schema: &mut Value, definitions: &Map<String, Value>) {
    if !refers(schema) {
        // Nothing to inline (what the input generator makes but for a recursive type): the
        // first attempt below would be kept whatever its depth, so it is made in place,
        // without a copy of the schema.
        let mut walk = Walk {
            definitions,
            depth: RECURSION_DEPTH,
            path: Vec::new(),
            inlined: 0,
        };
        clean(schema, &mut walk);
        return;
    }
    for depth in (2..=RECURSION_DEPTH).rev() {
        let mut attempt = schema.clone();
        let mut walk = Walk {
            definitions,
            depth,
            path: Vec::new(),
            inlined: 0,
        };
        clean(&mut attempt, &mut walk);
        if walk.inlined <= MAX_INLINED {
            *schema = attempt;
            return;
        }
    }
    let mut walk = Walk {
        definitions,
        depth: 1,
        path: Vec::new(),
        inlined: 0,
    };
    clean(schema, &mut walk);
}

/// Whether `schema` holds a `$ref` anywhere (a superset of the references [`clean`] inlines).
fn refers(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.contains_key("$ref") || map.values().any(refers),
        Value::Array(items) => items.iter().any(refers),
        _ => false,
    }
}

/// Where [`clean`] is in an argument's schema.
struct Walk<'a> {
    definitions: &'a Map<String, Value>,
    /// How many times a type may be written out along one path.
    depth: usize,
    /// The types being written out, outermost first.
    path: Vec<String>,
    /// How many references were inlined so far.
    inlined: usize,
}

fn clean(schema: &mut Value, walk: &mut Walk<'_>) {
    let Value::Object(map) = schema else {
        return;
    };
    let mut entered = None;
    if let Some(name) = map
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .map(str::to_owned)
    {
        map.remove("$ref");
        let definition = walk
            .definitions
            .get(&name)
            .cloned()
            .unwrap_or(Value::Bool(true));
        let definition = if walk.path.iter().filter(|n| **n == name).count() < walk.depth {
            walk.inlined += 1;
            entered = Some(name);
            definition
        } else {
            further_level(&definition)
        };
        if let Value::Object(definition) = definition {
            // The referring schema's own keys (a field's description) win over the type's.
            for (key, value) in definition {
                map.entry(key).or_insert(value);
            }
        }
    }
    map.remove("$defs");
    if let Some(name) = &entered {
        walk.path.push(name.clone());
    }
    for sub in subschemas(map) {
        clean(sub, walk);
    }
    if entered.is_some() {
        walk.path.pop();
    }
    strip_null(map);
    if map.get("default").is_some_and(Value::is_null) {
        map.remove("default");
    }
    tuple_as_array(map);
    drop_unknown_format(map);
}

/// Cleans an `outputSchema` without changing what it accepts: only the `format`s JSON Schema
/// does not define go (validators ignore them, and ajv warns about each one).
pub(crate) fn clean_output(schema: &mut Value) {
    if let Value::Object(map) = schema {
        subschemas(map).into_iter().for_each(clean_output);
        drop_unknown_format(map);
    }
}

fn drop_unknown_format(schema: &mut Map<String, Value>) {
    if schema
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| !STANDARD_FORMATS.contains(&f))
    {
        schema.remove("format");
    }
}

/// The schemas directly inside `schema` (under its keywords, and in `$defs`), never the data
/// of `enum`, `const` or `default`, nor a property's name.
fn subschemas(schema: &mut Map<String, Value>) -> Vec<&mut Value> {
    let mut found = Vec::new();
    for (key, value) in schema.iter_mut() {
        let key = key.as_str();
        if SCHEMA_KEYWORDS.contains(&key) {
            found.push(value);
        } else if SCHEMA_LIST_KEYWORDS.contains(&key) {
            found.extend(value.as_array_mut().into_iter().flatten());
        } else if SCHEMA_MAP_KEYWORDS.contains(&key) || key == "$defs" {
            found.extend(
                value
                    .as_object_mut()
                    .into_iter()
                    .flat_map(|m| m.values_mut()),
            );
        }
    }
    found
}

/// What stands for a recursive type past [`RECURSION_DEPTH`]: its JSON type, so a deeper value
/// can still be sent (the server decodes and checks it as usual).
fn further_level(definition: &Value) -> Value {
    let mut level = Map::new();
    if let Some(kind) = json_type(definition) {
        level.insert("type".to_owned(), kind);
    }
    Value::Object(level)
}

/// The `type` of a schema, or the one type all its `anyOf`/`oneOf` branches share.
fn json_type(schema: &Value) -> Option<Value> {
    let map = schema.as_object()?;
    if let Some(kind) = map.get("type") {
        return Some(kind.clone());
    }
    ["oneOf", "anyOf"].iter().find_map(|key| {
        let branches = map.get(*key)?.as_array()?;
        let first = json_type(branches.first()?)?;
        branches
            .iter()
            .all(|b| json_type(b).as_ref() == Some(&first))
            .then_some(first)
    })
}

/// `{"prefixItems": [A, B], "items": false, ...}` (a Rust tuple) becomes an array whose items
/// are each one of `A`, `B`: the length stays exact, the order is left to the description.
fn tuple_as_array(schema: &mut Map<String, Value>) {
    let Some(Value::Array(elements)) = schema.remove("prefixItems") else {
        return;
    };
    let mut distinct: Vec<Value> = Vec::new();
    for element in elements {
        if !distinct.contains(&element) {
            distinct.push(element);
        }
    }
    let items = match distinct.len() {
        0 => None,
        1 => distinct.pop(),
        _ => Some(serde_json::json!({ "anyOf": distinct })),
    };
    match items {
        Some(items) => schema.insert("items".to_owned(), items),
        None => schema.remove("items"),
    };
}

/// Removes the `null` alternative that schemars adds for `Option<T>`: from a `type` array,
/// from `enum`, and from an `anyOf`/`oneOf` branch list (collapsing it when one branch is left).
pub(crate) fn strip_null(schema: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = schema.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.pop().expect("one element");
            schema.insert("type".to_owned(), only);
        }
    }
    if let Some(Value::Array(values)) = schema.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = schema.get_mut(key) else {
            continue;
        };
        branches.retain(|branch| !is_null_schema(branch));
        if branches.len() == 1 && branches[0].is_object() {
            let Some(Value::Object(only)) = branches.pop() else {
                unreachable!("checked to be one object")
            };
            schema.remove(key);
            for (k, v) in only {
                schema.entry(k).or_insert(v);
            }
        }
    }
}

fn is_null_schema(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => {
            map.get("type").is_some_and(|t| t == "null")
                || map.get("const").is_some_and(Value::is_null)
                || map
                    .get("enum")
                    .and_then(Value::as_array)
                    .is_some_and(|values| values.iter().all(Value::is_null))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stripped(value: Value) -> Value {
        let Value::Object(mut map) = value else {
            unreachable!()
        };
        strip_null(&mut map);
        Value::Object(map)
    }

    #[test]
    fn null_alternatives_are_removed() {
        assert_eq!(
            stripped(json!({"type": ["string", "null"]})),
            json!({"type": "string"})
        );
        assert_eq!(
            stripped(
                json!({"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "null"}], "description": "d"})
            ),
            json!({"type": "string", "enum": ["a"], "description": "d"})
        );
        assert_eq!(
            stripped(json!({"enum": ["a", null]})),
            json!({"enum": ["a"]})
        );
    }

    #[test]
    fn a_branch_that_is_not_an_object_is_kept() {
        assert_eq!(
            stripped(json!({"anyOf": [true, {"type": "null"}]})),
            json!({"anyOf": [true]})
        );
    }

    #[test]
    fn references_are_inlined_and_recursion_is_cut_by_type() {
        let definitions = json!({
            "Node": {
                "type": "object",
                "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}
            }
        });
        let mut schema = json!({"$ref": "#/$defs/Node", "description": "the root"});
        clean_input(&mut schema, definitions.as_object().unwrap());
        let mut level = &schema;
        for _ in 0..RECURSION_DEPTH {
            assert_eq!(level["type"], "object", "{schema}");
            level = &level["properties"]["children"]["items"];
        }
        assert_eq!(level, &json!({"type": "object"}), "{schema}");
        assert_eq!(schema["description"], "the root");
        assert!(!schema.to_string().contains("$ref"), "{schema}");
    }

    #[test]
    fn tuples_become_arrays_of_exact_length() {
        let mut schema = json!({
            "type": "array",
            "prefixItems": [{"type": "string"}, {"type": "integer", "format": "uint32"}],
            "items": false,
            "minItems": 2,
            "maxItems": 2
        });
        clean_input(&mut schema, &Map::new());
        assert_eq!(
            schema,
            json!({
                "type": "array",
                "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "minItems": 2,
                "maxItems": 2
            })
        );
    }

    #[test]
    fn property_names_are_not_keywords_and_values_are_not_schemas() {
        let mut schema = json!({
            "type": "object",
            "properties": {"type": {"type": ["string", "null"], "default": null}},
            "enum": [{"type": ["a", "null"]}],
            "format": "date-time"
        });
        clean_input(&mut schema, &Map::new());
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {"type": {"type": "string"}},
                "enum": [{"type": ["a", "null"]}],
                "format": "date-time"
            })
        );
    }

    #[test]
    fn a_type_that_refers_to_itself_often_is_written_out_less_deep() {
        let branches: Vec<Value> = (0..10)
            .map(|i| json!({"type": "object", "properties": {format!("op{i}"): {"$ref": "#/$defs/Expr"}}}))
            .collect();
        let definitions = json!({"Expr": {"oneOf": branches}});
        let mut schema = json!({"$ref": "#/$defs/Expr"});
        clean_input(&mut schema, definitions.as_object().unwrap());
        let text = schema.to_string();
        assert!(!text.contains("$ref"), "{text}");
        // Ten references per level: three levels would inline 1 + 10 + 100 copies (more than
        // MAX_INLINED), two levels 1 + 10.
        assert!(text.len() < 10_000, "{} bytes", text.len());
        let second = &schema["oneOf"][0]["properties"]["op0"];
        assert_eq!(
            second["oneOf"][0]["properties"]["op0"],
            json!({"type": "object"}),
            "{text}"
        );
    }
}
