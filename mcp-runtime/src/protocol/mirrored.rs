//! The arguments a tool's input schema mirrors into HTTP headers (revision 2026-07-28,
//! server/tools "x-mcp-header"; basic/transports/streamable-http "Custom Headers from Tool
//! Parameters"), read from the schema and checked against the rules a client holds a tool
//! definition to: a client on Streamable HTTP drops a tool that breaks one of them from
//! `tools/list`, so the server refuses to serve such a tool at all.

use serde_json::{Map, Value};

/// One argument mirrored into a header.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MirroredArgument {
    /// Where the argument is in the call's `arguments`: its chain of property names (one for
    /// a top-level argument, more for a property of an object argument).
    pub(crate) path: Vec<String>,
    /// The header that carries it, lowercase: `mcp-param-<x-mcp-header>`.
    pub(crate) header: String,
}

impl MirroredArgument {
    /// The argument's path as a reader finds it: `region`, or `target.region`.
    pub(crate) fn dotted(&self) -> String {
        self.path.join(".")
    }
}

/// The arguments `input_schema` mirrors: each property reached from the root through
/// `properties` alone whose schema has an `x-mcp-header` name. The error says which rule an
/// annotation breaks: a name that is not an HTTP token, a name used twice (ignoring case), a
/// property of another type than integer, string or boolean, or an annotation anywhere else
/// (under `items`, `oneOf`, `$ref`'s target, ...).
pub(crate) fn mirrored_arguments(
    input_schema: &Map<String, Value>,
) -> Result<Vec<MirroredArgument>, String> {
    let mut found = Vec::new();
    let mut path = Vec::new();
    walk(input_schema, true, &mut path, &mut found)?;
    for (index, argument) in found.iter().enumerate() {
        if let Some(first) = found[..index].iter().find(|a| a.header == argument.header) {
            return Err(format!(
                "`{}` and `{}` are both mirrored into `{}` (x-mcp-header names ignore case): give each its own name",
                first.dotted(),
                argument.dotted(),
                argument.header
            ));
        }
    }
    Ok(found)
}

/// Collects the annotations of `schema`, at `path`, which a chain of `properties` alone
/// reaches from the root when `reachable`.
fn walk(
    schema: &Map<String, Value>,
    reachable: bool,
    path: &mut Vec<String>,
    found: &mut Vec<MirroredArgument>,
) -> Result<(), String> {
    if let Some(name) = schema.get("x-mcp-header") {
        let at = || match path.is_empty() {
            true => "the schema's root".to_owned(),
            false => format!("property `{}`", path.join(".")),
        };
        if !reachable || path.is_empty() {
            return Err(format!(
                "the `x-mcp-header` of {} is not on a property reached from the root through `properties` alone (not under `items`, `oneOf`, `anyOf`, `allOf`, `not`, `if`/`then`/`else` or `$ref`)",
                at()
            ));
        }
        let Some(name) = name.as_str() else {
            return Err(format!("the `x-mcp-header` of {} is not a string", at()));
        };
        if let Some(problem) = header_name_problem(name) {
            return Err(format!("the `x-mcp-header` of {}: {problem}", at()));
        }
        if !is_primitive(schema) {
            return Err(format!(
                "{} has an `x-mcp-header` but is not of type integer, string or boolean (alone or with null): only those can be mirrored into a header",
                at()
            ));
        }
        found.push(MirroredArgument {
            path: path.clone(),
            header: format!("mcp-param-{}", name.to_ascii_lowercase()),
        });
    }
    for (keyword, value) in schema {
        match (keyword.as_str(), value) {
            ("properties", Value::Object(properties)) => {
                for (name, property) in properties {
                    if let Value::Object(property) = property {
                        path.push(name.clone());
                        walk(property, reachable, path, found)?;
                        path.pop();
                    }
                }
            }
            // Keyword values that are not schemas.
            ("enum" | "const" | "examples" | "default" | "required", _) => {}
            // Below any other keyword (a schema, a list of schemas, or a map of them such as
            // `$defs`, walked as if it were a schema), an annotation is misplaced.
            (_, Value::Object(sub)) => walk(sub, false, path, found)?,
            (_, Value::Array(items)) => {
                for item in items.iter().filter_map(Value::as_object) {
                    walk(item, false, path, found)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether a property's schema is of type integer, string or boolean, alone or with null.
fn is_primitive(schema: &Map<String, Value>) -> bool {
    let primitive = |t: &str| matches!(t, "integer" | "string" | "boolean");
    match schema.get("type") {
        Some(Value::String(t)) => primitive(t),
        Some(Value::Array(types)) => {
            let named: Vec<&str> = types.iter().filter_map(Value::as_str).collect();
            named.len() == types.len()
                && named.iter().filter(|t| **t != "null").count() == 1
                && named.iter().all(|t| *t == "null" || primitive(t))
        }
        _ => false,
    }
}

/// Why `name` cannot name a header (`Mcp-Param-<name>`), if it cannot: it must be an RFC 9110
/// token, so neither empty nor holding a control character.
fn header_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a header name cannot be empty".to_owned());
    }
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    name.chars().find(|c| !tchar(*c)).map(|bad| {
        format!(
            "{bad:?} cannot be in an HTTP header name: use letters, digits and `!#$%&'*+-.^_`|~` (an RFC 9110 token)"
        )
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn of(schema: Value) -> Result<Vec<MirroredArgument>, String> {
        let Value::Object(schema) = schema else {
            panic!("an object")
        };
        mirrored_arguments(&schema)
    }

    fn paths(schema: Value) -> Vec<(String, String)> {
        of(schema)
            .unwrap()
            .into_iter()
            .map(|m| (m.dotted(), m.header))
            .collect()
    }

    /// streamable-http: "Nested object properties are permitted as long as every step in the
    /// chain is a `properties` key".
    #[test]
    fn top_level_and_nested_properties_are_mirrored() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "target": {"type": "object", "properties": {
                "zone": {"type": ["integer", "null"], "x-mcp-header": "Zone"},
                "dry": {"type": "boolean", "x-mcp-header": "Dry-Run"}
            }},
            "query": {"type": "string"}
        }});
        assert_eq!(
            paths(schema),
            [
                ("region".to_owned(), "mcp-param-region".to_owned()),
                ("target.zone".to_owned(), "mcp-param-zone".to_owned()),
                ("target.dry".to_owned(), "mcp-param-dry-run".to_owned()),
            ]
        );
    }

    /// server/tools "x-mcp-header" constraints, one by one.
    #[test]
    fn an_annotation_that_breaks_a_rule_is_refused_saying_which() {
        let refused = [
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": ""}}}),
                "cannot be empty",
            ),
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": "A B"}}}),
                "' ' cannot be in an HTTP header name",
            ),
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": "A\r\nB"}}}),
                "'\\r' cannot be in an HTTP header name",
            ),
            (
                json!({"properties": {"a": {"type": "string", "x-mcp-header": 5}}}),
                "is not a string",
            ),
            (
                json!({"properties": {
                    "a": {"type": "string", "x-mcp-header": "Region"},
                    "b": {"type": "string", "x-mcp-header": "REGION"}}}),
                "`a` and `b` are both mirrored into `mcp-param-region`",
            ),
            (
                json!({"properties": {"a": {"type": "number", "x-mcp-header": "A"}}}),
                "not of type integer, string or boolean",
            ),
            (
                json!({"properties": {"a": {"type": "object", "x-mcp-header": "A"}}}),
                "not of type integer, string or boolean",
            ),
            (
                json!({"properties": {"a": {"enum": ["x"], "x-mcp-header": "A"}}}),
                "not of type integer, string or boolean",
            ),
            (
                json!({"properties": {"a": {"type": "array",
                    "items": {"type": "string", "x-mcp-header": "A"}}}}),
                "not on a property reached from the root",
            ),
            (
                json!({"properties": {"a": {"oneOf": [
                    {"type": "string", "x-mcp-header": "A"}]}}}),
                "not on a property reached from the root",
            ),
            (
                json!({"$defs": {"Target": {"type": "object", "properties": {
                    "zone": {"type": "string", "x-mcp-header": "Zone"}}}},
                    "properties": {"t": {"$ref": "#/$defs/Target"}}}),
                "not on a property reached from the root",
            ),
            (
                json!({"type": "object", "x-mcp-header": "Root"}),
                "the schema's root",
            ),
        ];
        for (schema, expected) in refused {
            let error = of(schema.clone()).unwrap_err();
            assert!(error.contains(expected), "{schema}: {error}");
        }
    }
}
