//! How a tool's return value becomes a `tools/call` result: the tool's rules for the
//! return-value engine of the handler layer (see `handler::returns`).
//!
//! 1. a type implementing [`IntoToolResult`] (`String`, `&str`, [`Content`],
//!    `Vec<Content>`, [`CallToolResult`], `()`) is turned into content as it says;
//! 2. any other `Serialize + JsonSchema` type is *structured*: it gets an `outputSchema`, and
//!    its result carries `structuredContent` plus the same JSON as a text block;
//! 3. `Result<T, E>` with `E: Display` (or a [`HandlerError`]) applies 1 or 2 to `Ok`, and
//!    turns `Err` into a result with `isError: true` and the error's message.

use std::borrow::Cow;
use std::fmt::Display;
use std::sync::Arc;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Serialize;

use crate::handler::{
    Convert, DescribedInPart, Direct, Failure, Returns, Serialized, SerializedInPart, kinds,
};
use crate::handler_error::HandlerError;
use crate::protocol::{CallToolResult, Content, OutputSchema};
use crate::schema::output_schema_for;

/// A value that knows how to be a tool result.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP tool",
    label = "not a tool result",
    note = "a tool returns text (`String`, `&str`, `Cow<str>`, ...), content (`Content`, `Vec<Content>`, `CallToolResult`, `()`, any `IntoToolResult`), or structured output: a type implementing `Serialize` and `JsonSchema` (`#[derive(Serialize, JsonSchema)]`)",
    note = "or a `Result<T, E>` with one of those as `T` and an error `E` that implements `Display` (an `Err` becomes a result with `isError: true` and the error's message)",
    note = "a type deriving `JsonSchema` of schemars 0.8 does not count: the runtime uses schemars 1.x, whose trait is a different one (upgrade the dependency to `schemars = \"1\"`)"
)]
pub trait IntoToolResult {
    /// Converts the value.
    fn into_tool_result(self) -> CallToolResult;
}

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoToolResult for String {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

impl IntoToolResult for &str {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::text(self)
    }
}

/// Text held otherwise than in a `String`, as a `String` gives it (not structured output).
macro_rules! text_result {
    ($([$($generics:tt)*] $ty:ty;)*) => {$(
        impl<$($generics)*> IntoToolResult for $ty {
            fn into_tool_result(self) -> CallToolResult {
                let text: &str = self.as_ref();
                CallToolResult::text(text)
            }
        }
    )*};
}

text_result! {
    ['a] &'a String;
    ['a] Cow<'a, str>;
    [] Box<str>;
    [] Arc<str>;
}

impl IntoToolResult for Content {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::content(vec![self])
    }
}

impl IntoToolResult for Vec<Content> {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::content(self)
    }
}

impl IntoToolResult for () {
    fn into_tool_result(self) -> CallToolResult {
        CallToolResult::content(Vec::new())
    }
}

/// Per-tool cache of the output shape, a `static` in the generated code.
#[derive(Debug, Default)]
pub struct OutputCache(OnceLock<OutputSchema>);

impl OutputCache {
    /// An empty cache.
    pub const fn new() -> OutputCache {
        OutputCache(OnceLock::new())
    }

    fn schema<T: JsonSchema>(&self) -> &OutputSchema {
        self.0.get_or_init(output_schema_for::<T>)
    }
}

/// The tool's return rules: a value becomes a [`CallToolResult`], the output schema cached in
/// the tool's [`OutputCache`].
pub enum ToolReturns {}

impl Returns for ToolReturns {
    type Output = CallToolResult;
    type Needs<'a> = &'a OutputCache;
    type Schema = OutputSchema;
}

impl<T: IntoToolResult> Direct<ToolReturns> for T {
    fn convert(self, _cache: &OutputCache) -> CallToolResult {
        self.into_tool_result()
    }
}

impl<T: Serialize + JsonSchema> Serialized<ToolReturns> for T {
    fn convert(self, _cache: &OutputCache) -> CallToolResult {
        structured(&self)
    }

    fn schema(cache: &OutputCache) -> Option<OutputSchema> {
        Some(cache.schema::<T>().clone())
    }
}

/// `Serialize` without `JsonSchema` (a type deriving only `Serialize`, or holding one that
/// does): given structured output all the same, whose bound then names the type without a
/// schema.
impl<T: Serialize> SerializedInPart<ToolReturns> for T {}

/// `JsonSchema` without `Serialize`: given structured output all the same, whose bound then
/// names the type that does not serialize.
impl<T: JsonSchema> DescribedInPart<ToolReturns> for T {}

#[diagnostic::do_not_recommend]
impl<E: Display> Failure<ToolReturns> for E {
    fn fail(self) -> CallToolResult {
        CallToolResult::error(self.to_string())
    }
}

/// The error resources and prompts return also fails a tool, with its message and the URI it
/// names, if any ("Resource not found: notes://3").
impl Failure<ToolReturns> for HandlerError {
    fn fail(self) -> CallToolResult {
        let mut text = self.error.message;
        let uri = self.error.data.as_ref().and_then(|data| data.get("uri"));
        if let Some(uri) = uri.and_then(|uri| uri.as_str()) {
            text = format!("{text}: {uri}");
        }
        CallToolResult::error(text)
    }
}

/// Never selected for a type that fits, so its bound only explains what a tool returns.
impl<R: IntoToolResult> Convert<ToolReturns, R> for kinds::Unsupported {
    fn output_schema(&self, _cache: &OutputCache) -> Option<OutputSchema> {
        None
    }
    fn convert(&self, value: R, _cache: &OutputCache) -> CallToolResult {
        value.into_tool_result()
    }
}

/// The structured result of a value, as revision 2026-07-28 sends it: a 2025 client of a tool
/// whose values are not objects gets it wrapped by `tools/call`
/// ([`OutputSchema::wraps_values`]).
fn structured<T: Serialize>(value: &T) -> CallToolResult {
    let value = match serde_json::to_value(value) {
        Ok(value) => value,
        Err(error) => {
            return CallToolResult::error(format!(
                "the tool's result could not be serialized: {error}"
            ));
        }
    };
    CallToolResult {
        content: vec![Content::text(value.to_string())],
        structured_content: Some(value),
        is_error: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handler_error_fails_a_tool_with_its_message_and_uri() {
        let result = Failure::<ToolReturns>::fail(HandlerError::not_found("gift://7"));
        assert!(result.is_error);
        assert_eq!(
            result.content[0].as_text(),
            Some("Resource not found: gift://7")
        );
        let result = Failure::<ToolReturns>::fail(HandlerError::invalid_params("no such size"));
        assert_eq!(result.content[0].as_text(), Some("no such size"));
    }
}
