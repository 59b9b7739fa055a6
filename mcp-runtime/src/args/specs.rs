//! What a handler's string arguments are (for listing and completion), and their values for
//! one request.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::completion::Completer;
use crate::handler::{ArgumentSource, Missing, Requirements, describe_error, is_optional};
use crate::schema::input_generator;

/// One string argument of a prompt or variable of a resource template.
#[derive(Clone)]
pub struct ArgumentSpec {
    /// Its name.
    pub name: String,
    /// Its description (for an enum, followed by the allowed values).
    pub description: Option<String>,
    /// Whether it must be given.
    pub required: bool,
    /// The values it may take, when its type is an enum.
    pub choices: Vec<String>,
    /// A function suggesting values.
    pub completer: Option<Completer>,
}

/// Collects the argument specs of one handler while it is described.
#[derive(Default)]
pub struct ArgumentSpecs {
    pub(crate) specs: Vec<ArgumentSpec>,
    pub(crate) problems: Vec<String>,
    pub(crate) requirements: Requirements,
}

impl ArgumentSpecs {
    /// No arguments yet.
    pub fn new() -> ArgumentSpecs {
        ArgumentSpecs::default()
    }

    /// Adds argument `name` of type `T`.
    pub fn add<T: DeserializeOwned + JsonSchema>(
        &mut self,
        name: &str,
        description: Option<&str>,
        completer: Option<Completer>,
    ) {
        // `subschema_for` (inlined by this generator), as a tool's parameters are: one schema
        // function per type for listing and for explaining a decoding failure.
        let schema = input_generator().subschema_for::<T>().to_value();
        let required = !is_optional::<T>();
        let (choices, string_like) = string_shape(&schema);
        if !string_like {
            self.problems.push(format!(
                "argument `{name}` has type `{}`, which cannot be written as a string; use a string, a number, a boolean or an enum of unit variants",
                std::any::type_name::<T>()
            ));
        }
        let description = match (description, choices.is_empty()) {
            (description, true) => description.map(str::to_owned),
            (Some(text), false) => Some(format!("{text} One of: {}.", choices.join(", "))),
            (None, false) => Some(format!("One of: {}.", choices.join(", "))),
        };
        self.specs.push(ArgumentSpec {
            name: name.to_owned(),
            description,
            required,
            choices,
            completer,
        });
    }

    /// What the handler's supplied parameters need from the server.
    pub fn requirements(&mut self) -> &mut Requirements {
        &mut self.requirements
    }

    /// Attaches a completer to an argument added before.
    pub fn complete(&mut self, name: &str, completer: Completer) {
        if let Some(spec) = self.specs.iter_mut().find(|s| s.name == name) {
            spec.completer = Some(completer);
        }
    }
}

/// The enum values of a schema, and whether a string can express its values at all.
fn string_shape(schema: &Value) -> (Vec<String>, bool) {
    let Some(map) = schema.as_object() else {
        return (Vec::new(), true);
    };
    let mut choices = Vec::new();
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        choices.extend(values.iter().filter_map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            other => Some(other.to_string()),
        }));
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(branches) = map.get(key).and_then(Value::as_array) {
            for branch in branches {
                let (more, ok) = string_shape(branch);
                if !ok {
                    return (choices, false);
                }
                choices.extend(more);
            }
        }
    }
    if let Some(s) = map.get("const").and_then(Value::as_str) {
        choices.push(s.to_owned());
    }
    let scalar = |t: &str| matches!(t, "string" | "number" | "integer" | "boolean" | "null");
    let ok = match map.get("type") {
        Some(Value::String(t)) => scalar(t),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).all(scalar),
        _ => true,
    };
    (choices, ok)
}

/// The string arguments of one request, consumed by name.
#[derive(Debug, Default)]
pub struct StringArgs {
    values: HashMap<String, String>,
}

impl StringArgs {
    /// Wraps name → value pairs.
    pub fn new(values: HashMap<String, String>) -> StringArgs {
        StringArgs { values }
    }

    /// The name → value pairs not decoded yet.
    pub(crate) fn into_map(self) -> HashMap<String, String> {
        self.values
    }

    /// Decodes argument `name` as a `T`.
    pub fn decode<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Result<T, String> {
        let Some(text) = self.values.remove(name) else {
            return T::deserialize(Missing).map_err(|_| "missing required argument".to_owned());
        };
        let as_string = Value::String(text);
        match T::deserialize(&as_string) {
            Ok(value) => Ok(value),
            Err(error) => {
                let Value::String(text) = &as_string else {
                    unreachable!()
                };
                match serde_json::from_str::<Value>(text) {
                    Ok(scalar @ (Value::Number(_) | Value::Bool(_))) => T::deserialize(&scalar)
                        .map_err(|error| describe_error::<T>(&scalar, &error)),
                    _ => Err(describe_error::<T>(&as_string, &error)),
                }
            }
        }
    }
}

impl ArgumentSource for StringArgs {
    type Description = ArgumentSpecs;

    fn describe<T: DeserializeOwned + JsonSchema>(
        into: &mut ArgumentSpecs,
        name: &str,
        description: Option<&str>,
        completer: Option<Completer>,
    ) {
        into.add::<T>(name, description, completer);
    }

    fn requirements(into: &mut ArgumentSpecs) -> &mut Requirements {
        &mut into.requirements
    }

    fn decode<T: DeserializeOwned + JsonSchema>(&mut self, name: &str) -> Result<T, String> {
        StringArgs::decode(self, name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(pairs: &[(&str, &str)]) -> StringArgs {
        StringArgs::new(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[derive(serde::Deserialize, schemars::JsonSchema, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Tone {
        Warm,
        Formal,
    }

    #[test]
    fn strings_become_typed_values() {
        let mut a = args(&[("n", "42"), ("flag", "true"), ("tone", "warm"), ("s", "42")]);
        assert_eq!(a.decode::<u32>("n"), Ok(42));
        assert_eq!(a.decode::<bool>("flag"), Ok(true));
        assert_eq!(a.decode::<Tone>("tone"), Ok(Tone::Warm));
        assert_eq!(a.decode::<String>("s"), Ok("42".to_owned()));
        assert_eq!(a.decode::<Option<u32>>("absent"), Ok(None));
    }

    #[test]
    fn bad_values_are_described() {
        let mut a = args(&[("n", "abc"), ("tone", "loud")]);
        assert_eq!(
            a.decode::<u32>("n"),
            Err("expected an integer, got \"abc\"".to_owned())
        );
        assert_eq!(
            a.decode::<Tone>("tone"),
            Err("expected one of \"warm\", \"formal\", got \"loud\"".to_owned())
        );
        assert_eq!(
            a.decode::<u32>("gone"),
            Err("missing required argument".to_owned())
        );
    }

    #[test]
    fn specs_list_enum_values_and_refuse_objects() {
        let mut specs = ArgumentSpecs::new();
        specs.add::<Tone>("tone", Some("The tone."), None);
        specs.add::<Option<u8>>("count", None, None);
        specs.add::<Vec<String>>("list", None, None);
        assert_eq!(
            specs.specs[0].description.as_deref(),
            Some("The tone. One of: warm, formal.")
        );
        assert_eq!(specs.specs[0].choices, ["warm", "formal"]);
        assert!(specs.specs[0].required);
        assert!(!specs.specs[1].required);
        assert_eq!(specs.problems.len(), 1);
        assert!(specs.problems[0].contains("`list`"));
    }
}
