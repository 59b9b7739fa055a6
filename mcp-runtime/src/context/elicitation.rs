//! Asking the user through the client (`elicitation/create`): a form generated from a Rust
//! struct, with the answer typed; or, for 2025-11-25 clients, a URL to open.
//!
//! Forms may only use the flat shapes the specification allows: each field a string (with an
//! optional `format` of `email`, `uri`, `date` or `date-time`, and length bounds), a number or
//! integer (with bounds), a boolean, or an enum (single choice, or a list of choices), titled
//! or not, with defaults. A struct that needs more (nested objects, arrays of non-enums) is
//! refused with an error naming the field.

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::{ClientError, Context};
use crate::schema::{input_generator, strip_null};

/// What the user did with a form.
#[derive(Clone, Debug, PartialEq)]
pub enum Elicitation<T> {
    /// Submitted it: the values.
    Accept(T),
    /// Explicitly declined.
    Decline,
    /// Dismissed it without choosing.
    Cancel,
}

/// What the user did with a URL elicitation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UrlElicitation {
    /// Agreed to open the URL.
    Accept,
    /// Declined.
    Decline,
    /// Dismissed it.
    Cancel,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Action {
    Accept,
    Decline,
    Cancel,
}

#[derive(Deserialize)]
#[serde(expecting = "an elicitation result: an object with `action` and, on accept, `content`")]
struct ElicitAnswer {
    action: Action,
    #[serde(default)]
    content: Option<Value>,
}

impl Context {
    /// Asks the user to fill in a form for a `T` (a struct of flat fields), with `message`
    /// saying what for.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// #[derive(Deserialize, JsonSchema)]
    /// struct Address {
    ///     /// The street and number.
    ///     street: String,
    ///     /// The city.
    ///     city: String,
    /// }
    ///
    /// /// Ships the order, asking the user where to.
    /// #[mcp_tool]
    /// async fn ship(ctx: Context) -> Result<String, String> {
    ///     match ctx.elicit::<Address>("Where should the order go?").await {
    ///         Ok(Elicitation::Accept(address)) => Ok(format!("Shipping to {}, {}", address.street, address.city)),
    ///         Ok(Elicitation::Decline | Elicitation::Cancel) => Err("not shipped".to_string()),
    ///         Err(e) => Err(e.to_string()), // e.g. the client cannot elicit
    ///     }
    /// }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<ship>().build().unwrap();
    /// #     let client = mcp_runtime::testing::TestClient::new(&server);
    /// #     client.answer_requests(|_, _| Ok(serde_json::json!({"action": "accept", "content": {"street": "1 Main St", "city": "Lisbon"}})));
    /// #     client.initialize_with(mcp_runtime::Revision::LATEST_SESSION_BASED.as_str(), serde_json::json!({"elicitation": {}})).await.unwrap();
    /// #     let result = client.call_tool("ship", serde_json::json!({})).await.unwrap();
    /// #     assert_eq!(result.content[0].as_text(), Some("Shipping to 1 Main St, Lisbon"));
    /// # }
    /// ```
    pub async fn elicit<T: DeserializeOwned + JsonSchema>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, ClientError> {
        let schema = elicitation_schema::<T>().map_err(ClientError::InvalidResponse)?;
        Ok(match self.elicit_with_schema(message, schema).await? {
            Elicitation::Accept(values) => {
                let values = Value::Object(values);
                match T::deserialize(&values) {
                    Ok(typed) => Elicitation::Accept(typed),
                    Err(error) => {
                        // Serde's error names no field: the form's schema, made again on this
                        // rare path, finds which one.
                        let field = elicitation_schema::<T>()
                            .ok()
                            .and_then(|schema| misfit(&schema, &values));
                        return Err(ClientError::InvalidResponse(format!(
                            "the form's values do not fit: {}",
                            field.unwrap_or_else(|| error.to_string())
                        )));
                    }
                }
            }
            Elicitation::Decline => Elicitation::Decline,
            Elicitation::Cancel => Elicitation::Cancel,
        })
    }

    /// Asks the user to fill in a form described by `schema`, a `requestedSchema` written by
    /// hand (served as given); the answer's values come back as JSON.
    pub fn elicit_with_schema(
        &self,
        message: impl Into<String>,
        schema: Value,
    ) -> impl Future<Output = Result<Elicitation<Map<String, Value>>, ClientError>> + Send + '_
    {
        self.elicit_form(message.into(), schema)
    }

    async fn elicit_form(
        &self,
        message: String,
        schema: Value,
    ) -> Result<Elicitation<Map<String, Value>>, ClientError> {
        let mut params = json!({ "message": message, "requestedSchema": schema });
        if self.revision() >= crate::Revision::V2025_11_25 {
            params["mode"] = json!("form");
        }
        let answer: ElicitAnswer = self
            .ask("elicitation.form", "elicitation/create", &params)
            .await?;
        match answer.action {
            Action::Accept => match answer.content.unwrap_or_else(|| json!({})) {
                Value::Object(values) => Ok(Elicitation::Accept(values)),
                other => Err(ClientError::InvalidResponse(format!(
                    "the form's values are not an object: {other}"
                ))),
            },
            Action::Decline => Ok(Elicitation::Decline),
            Action::Cancel => Ok(Elicitation::Cancel),
        }
    }

    /// Asks the user to open `url` (URL-mode elicitation, 2025-11-25): for flows that must not
    /// pass through the client, such as signing in. `elicitation_id` identifies it.
    pub fn elicit_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
        elicitation_id: impl Into<String>,
    ) -> impl Future<Output = Result<UrlElicitation, ClientError>> + Send + '_ {
        self.elicit_by_url(message.into(), url.into(), elicitation_id.into())
    }

    async fn elicit_by_url(
        &self,
        message: String,
        url: String,
        elicitation_id: String,
    ) -> Result<UrlElicitation, ClientError> {
        let mut params = json!({
            "mode": "url",
            "message": message,
            "url": url,
            "elicitationId": elicitation_id,
        });
        if self.revision().is_stateless() {
            // 2026-07-28 identifies the question by its key instead.
            params.as_object_mut().map(|p| p.remove("elicitationId"));
        }
        let answer: ElicitAnswer = self
            .ask("elicitation.url", "elicitation/create", &params)
            .await?;
        Ok(match answer.action {
            Action::Accept => UrlElicitation::Accept,
            Action::Decline => UrlElicitation::Decline,
            Action::Cancel => UrlElicitation::Cancel,
        })
    }
}

/// The first field of a form's answer (`values`) that its flat `requestedSchema` (`schema`)
/// does not allow: a required one missing, or one of another JSON type; `None` if each fits.
///
/// `#[inline]`: compiled into the program that calls `elicit`, as `elicit` is, rather than into
/// this crate, where a function more reshuffles which functions share a codegen unit and get
/// inlined, and with that the size of every server's binary.
#[inline]
fn misfit(schema: &Value, values: &Value) -> Option<String> {
    let properties = schema.get("properties")?.as_object()?;
    let required = schema.get("required").and_then(Value::as_array);
    let missing = required
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|name| values.get(name).is_none_or(Value::is_null));
    if let Some(name) = missing {
        return Some(format!("`{name}` is required, and the answer has none"));
    }
    let (name, value, expected) = values.as_object()?.iter().find_map(|(name, value)| {
        if value.is_null() {
            // An optional field left out (a required one was looked at above).
            return None;
        }
        let expected = properties.get(name)?.get("type")?.as_str()?;
        let fits = match expected {
            "string" => value.is_string(),
            "number" => value.is_number(),
            "integer" => value.is_i64() || value.is_u64(),
            "boolean" => value.is_boolean(),
            "array" => value.is_array(),
            _ => true,
        };
        (!fits).then_some((name, value, expected))
    })?;
    let article = if expected.starts_with(['a', 'i']) {
        "an"
    } else {
        "a"
    };
    Some(format!(
        "`{name}`: expected {article} {expected}, got {value}"
    ))
}

/// A form's `requestedSchema` for `T`, restricted to what the specification allows.
pub(crate) fn elicitation_schema<T: JsonSchema>() -> Result<Value, String> {
    let _ = PhantomData::<T>;
    let root = input_generator().into_root_schema_for::<T>().to_value();
    let Value::Object(root) = root else {
        return Err("an elicitation form must be a struct".to_owned());
    };
    let properties = match root.get("properties") {
        Some(Value::Object(properties)) => properties,
        _ => {
            return Err(format!(
                "an elicitation form must be a struct with named fields, not `{}`",
                std::any::type_name::<T>()
            ));
        }
    };
    let required: Vec<&str> = root
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = Map::new();
    for (name, field) in properties {
        let Value::Object(field) = field else {
            return Err(format!("field `{name}` has no schema"));
        };
        let mut field = field.clone();
        if !required.contains(&name.as_str()) {
            strip_null(&mut field);
        }
        out.insert(name.clone(), Value::Object(restrict_field(name, field)?));
    }
    let mut schema = json!({ "type": "object", "properties": out });
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    Ok(schema)
}

const KEEP: [&str; 4] = ["title", "description", "default", "type"];

fn restrict_field(name: &str, field: Map<String, Value>) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    for key in KEEP {
        if let Some(value) = field.get(key) {
            out.insert(key.to_owned(), value.clone());
        }
    }
    let kind = field.get("type").and_then(Value::as_str);
    match kind {
        Some("string") => {
            if let Some(values) = field.get("enum") {
                out.insert("enum".to_owned(), values.clone());
            }
            if let Some(format) = field.get("format").and_then(Value::as_str)
                && ["email", "uri", "date", "date-time"].contains(&format)
            {
                out.insert("format".to_owned(), json!(format));
            }
            for key in ["minLength", "maxLength"] {
                if let Some(v) = field.get(key) {
                    out.insert(key.to_owned(), v.clone());
                }
            }
        }
        Some("number" | "integer") => {
            for key in ["minimum", "maximum"] {
                if let Some(v) = field.get(key) {
                    out.insert(key.to_owned(), v.clone());
                }
            }
        }
        Some("boolean") => {}
        Some("array") => {
            let items = field.get("items").and_then(Value::as_object);
            let choices = items.and_then(enum_choices);
            let Some(choices) = choices else {
                return Err(format!(
                    "field `{name}`: a list in an elicitation form must be a list of enum values (a multi-select)"
                ));
            };
            out.insert("items".to_owned(), choices.into_items());
            for key in ["minItems", "maxItems"] {
                if let Some(v) = field.get(key) {
                    out.insert(key.to_owned(), v.clone());
                }
            }
        }
        None => match enum_choices(&field) {
            Some(choices) => {
                out.insert("type".to_owned(), json!("string"));
                choices.into_single(&mut out);
            }
            None => {
                return Err(format!(
                    "field `{name}` cannot be shown in an elicitation form: use a string, number, integer, boolean or enum"
                ));
            }
        },
        Some(other) => {
            return Err(format!(
                "field `{name}` is of JSON type `{other}`; an elicitation form allows only strings, numbers, integers, booleans and enums"
            ));
        }
    }
    Ok(out)
}

/// The choices of an enum schema: plain values, or values with titles (from doc comments).
enum Choices {
    Plain(Vec<Value>),
    Titled(Vec<(Value, String)>),
}

impl Choices {
    fn into_single(self, out: &mut Map<String, Value>) {
        match self {
            Choices::Plain(values) => {
                out.insert("enum".to_owned(), Value::Array(values));
            }
            Choices::Titled(pairs) => {
                let options = pairs
                    .into_iter()
                    .map(|(value, title)| json!({ "const": value, "title": title }))
                    .collect();
                out.insert("oneOf".to_owned(), Value::Array(options));
            }
        }
    }

    fn into_items(self) -> Value {
        match self {
            Choices::Plain(values) => json!({ "type": "string", "enum": values }),
            Choices::Titled(pairs) => {
                let options: Vec<Value> = pairs
                    .into_iter()
                    .map(|(value, title)| json!({ "const": value, "title": title }))
                    .collect();
                json!({ "anyOf": options })
            }
        }
    }
}

fn enum_choices(schema: &Map<String, Value>) -> Option<Choices> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .all(Value::is_string)
            .then(|| Choices::Plain(values.clone()));
    }
    let branches = schema
        .get("oneOf")
        .or_else(|| schema.get("anyOf"))
        .and_then(Value::as_array)?;
    let mut pairs = Vec::new();
    for branch in branches {
        let value = branch
            .get("const")
            .cloned()
            .or_else(|| branch.get("enum")?.as_array()?.first().cloned())?;
        value.as_str()?;
        let title = branch
            .get("title")
            .or_else(|| branch.get("description"))
            .and_then(Value::as_str)
            .map_or_else(
                || value.as_str().unwrap_or_default().to_owned(),
                str::to_owned,
            );
        pairs.push((value, title));
    }
    Some(Choices::Titled(pairs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Confirm {
        /// Whether to go ahead.
        confirmed: bool,
        /// Anything to add.
        note: Option<String>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Size {
        /// Small size
        Small,
        /// Large size
        Large,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Order {
        size: Size,
        #[schemars(email)]
        email: String,
        count: u8,
        extras: Vec<Size>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Nested {
        inner: Confirm,
    }

    #[test]
    fn flat_structs_become_forms() {
        let schema = elicitation_schema::<Confirm>().unwrap();
        assert_eq!(
            schema,
            json!({
                "type": "object",
                "properties": {
                    "confirmed": {"type": "boolean", "description": "Whether to go ahead."},
                    "note": {"type": "string", "description": "Anything to add."},
                },
                "required": ["confirmed"],
            })
        );
    }

    #[test]
    fn enums_become_single_and_multi_selects() {
        let schema = elicitation_schema::<Order>().unwrap();
        let size = &schema["properties"]["size"];
        assert_eq!(size["type"], "string");
        assert_eq!(
            size["oneOf"][0],
            json!({"const": "small", "title": "Small size"})
        );
        assert_eq!(schema["properties"]["email"]["format"], "email");
        assert_eq!(schema["properties"]["count"]["type"], "integer");
        assert!(schema["properties"]["count"].get("format").is_none());
        assert_eq!(schema["properties"]["extras"]["type"], "array");
        assert!(schema["properties"]["extras"]["items"]["anyOf"].is_array());
    }

    #[test]
    fn nested_structs_are_refused_naming_the_field() {
        let error = elicitation_schema::<Nested>().unwrap_err();
        assert!(error.contains("`inner`"), "{error}");
    }
}
