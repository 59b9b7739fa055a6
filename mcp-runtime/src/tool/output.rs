//! How a tool's return value becomes a `tools/call` result.
//!
//! The rules, from most to least specific:
//!
//! 1. a type implementing [`IntoToolResult`] (`String`, `&str`, [`Content`],
//!    `Vec<Content>`, [`CallToolResult`], `()`) is turned into content as it says;
//! 2. any other `Serialize + JsonSchema` type is *structured*: it gets an `outputSchema`, and
//!    its result carries `structuredContent` plus the same JSON as a text block;
//! 3. `Result<T, E>` with `E: Display` applies 1 or 2 to `Ok`, and turns `Err` into a result
//!    with `isError: true` and the error's message.
//!
//! Rust has no specialization, so generated code picks the rule with autoref-based dispatch:
//! `(&&&&OutputProbe::<R>::new()).__mcp_output_kind()` resolves to the most specific impl
//! whose bounds hold. A type that fits no rule selects [`Unsupported`](kinds::Unsupported),
//! whose `OutputKind` impl requires a trait nothing implements; the error message, on the
//! return type, is [`OutputKind`]'s.

use std::fmt::Display;
use std::marker::PhantomData;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::protocol::{CallToolResult, Content};
use crate::schema::{OutputShape, output_schema_for};

/// A value that knows how to be a tool result.
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
pub struct OutputCache(OnceLock<OutputShape>);

impl OutputCache {
    /// An empty cache.
    pub const fn new() -> OutputCache {
        OutputCache(OnceLock::new())
    }

    fn shape<T: JsonSchema>(&self) -> &OutputShape {
        self.0.get_or_init(output_schema_for::<T>)
    }
}

/// How one return type becomes a result: the kind chosen for it by the probe.
///
/// Its impls are `do_not_recommend`, so a return type that fits no rule is reported with this
/// trait's message, on the return type, rather than through the internals of [`kinds`].
#[diagnostic::on_unimplemented(
    message = "`{R}` cannot be returned from an MCP tool",
    label = "not a tool result",
    note = "a tool returns text (`String`, `&str`), content (`Content`, `Vec<Content>`, `CallToolResult`, `()`, any `IntoToolResult`), or structured output: a type implementing `Serialize` and `JsonSchema` (`#[derive(Serialize, JsonSchema)]`)",
    note = "or a `Result<T, E>` with one of those as `T` and an error `E` that implements `Display` (an `Err` becomes a result with `isError: true` and the error's message)"
)]
pub trait OutputKind<R> {
    /// The `outputSchema`, for structured kinds.
    fn output_schema(&self, cache: &OutputCache) -> Option<Map<String, Value>>;
    /// Converts a returned value.
    #[allow(clippy::wrong_self_convention)] // `self` is the kind; the value is converted
    fn into_result(&self, value: R, cache: &OutputCache) -> CallToolResult;
}

/// The probe generated code dispatches on; see the module docs.
pub struct OutputProbe<R>(PhantomData<fn() -> R>);

impl<R> Clone for OutputProbe<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for OutputProbe<R> {}

impl<R> OutputProbe<R> {
    /// A probe for return type `R`.
    pub const fn new() -> OutputProbe<R> {
        OutputProbe(PhantomData)
    }
}

impl<R> Default for OutputProbe<R> {
    fn default() -> Self {
        OutputProbe::new()
    }
}

/// The kinds, one per rule.
pub mod kinds {
    use super::*;

    /// Rule 1.
    pub struct Explicit;
    /// Rule 2.
    pub struct Structured;
    /// Rule 3 with rule 1 for `Ok`.
    pub struct ExplicitOrError;
    /// Rule 3 with rule 2 for `Ok`.
    pub struct StructuredOrError;
    /// No rule applies: its `OutputKind` impl requires [`ToolReturnType`], which nothing
    /// implements, so the compiler explains what to return instead.
    pub struct Unsupported;

    /// Level 4 (most specific): `Result<T: IntoToolResult, E: Display>`.
    pub trait ViaExplicitResult {
        /// The kind.
        fn __mcp_output_kind(self) -> ExplicitOrError
        where
            Self: Sized,
        {
            ExplicitOrError
        }
    }
    impl<T: IntoToolResult, E: Display> ViaExplicitResult for &&&&OutputProbe<Result<T, E>> {}

    /// Level 3: `Result<T: Serialize + JsonSchema, E: Display>`.
    pub trait ViaStructuredResult {
        /// The kind.
        fn __mcp_output_kind(self) -> StructuredOrError
        where
            Self: Sized,
        {
            StructuredOrError
        }
    }
    impl<T: Serialize + JsonSchema, E: Display> ViaStructuredResult for &&&OutputProbe<Result<T, E>> {}

    /// Level 2: `T: IntoToolResult`.
    pub trait ViaExplicit {
        /// The kind.
        fn __mcp_output_kind(self) -> Explicit
        where
            Self: Sized,
        {
            Explicit
        }
    }
    impl<T: IntoToolResult> ViaExplicit for &&OutputProbe<T> {}

    /// Level 1: `T: Serialize + JsonSchema`.
    pub trait ViaStructured {
        /// The kind.
        fn __mcp_output_kind(self) -> Structured
        where
            Self: Sized,
        {
            Structured
        }
    }
    impl<T: Serialize + JsonSchema> ViaStructured for &OutputProbe<T> {}

    /// Level 0: anything else.
    pub trait ViaUnsupported {
        /// The kind.
        fn __mcp_output_kind(self) -> Unsupported
        where
            Self: Sized,
        {
            Unsupported
        }
    }
    impl<T> ViaUnsupported for OutputProbe<T> {}

    /// Implemented by no type: the bound that explains an unsupported return type.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be returned from an MCP tool",
        label = "not a tool result",
        note = "a tool returns text (`String`, `&str`), content (`Content`, `Vec<Content>`, `CallToolResult`, `()`, any `IntoToolResult`), or structured output: a type implementing `Serialize` and `JsonSchema` (`#[derive(Serialize, JsonSchema)]`)",
        note = "or a `Result<T, E>` with one of those as `T` and an error `E` that implements `Display` (an `Err` becomes a result with `isError: true` and the error's message)"
    )]
    pub trait ToolReturnType {}

    #[diagnostic::do_not_recommend]
    impl<R: IntoToolResult> OutputKind<R> for Explicit {
        fn output_schema(&self, _cache: &OutputCache) -> Option<Map<String, Value>> {
            None
        }
        fn into_result(&self, value: R, _cache: &OutputCache) -> CallToolResult {
            value.into_tool_result()
        }
    }

    #[diagnostic::do_not_recommend]
    impl<R: Serialize + JsonSchema> OutputKind<R> for Structured {
        fn output_schema(&self, cache: &OutputCache) -> Option<Map<String, Value>> {
            Some(cache.shape::<R>().schema.clone())
        }
        fn into_result(&self, value: R, cache: &OutputCache) -> CallToolResult {
            structured(&value, cache.shape::<R>().wrapped)
        }
    }

    #[diagnostic::do_not_recommend]
    impl<T: IntoToolResult, E: Display> OutputKind<Result<T, E>> for ExplicitOrError {
        fn output_schema(&self, _cache: &OutputCache) -> Option<Map<String, Value>> {
            None
        }
        fn into_result(&self, value: Result<T, E>, _cache: &OutputCache) -> CallToolResult {
            match value {
                Ok(ok) => ok.into_tool_result(),
                Err(error) => CallToolResult::error(error.to_string()),
            }
        }
    }

    #[diagnostic::do_not_recommend]
    impl<T: Serialize + JsonSchema, E: Display> OutputKind<Result<T, E>> for StructuredOrError {
        fn output_schema(&self, cache: &OutputCache) -> Option<Map<String, Value>> {
            Some(cache.shape::<T>().schema.clone())
        }
        fn into_result(&self, value: Result<T, E>, cache: &OutputCache) -> CallToolResult {
            match value {
                Ok(ok) => structured(&ok, cache.shape::<T>().wrapped),
                Err(error) => CallToolResult::error(error.to_string()),
            }
        }
    }

    #[diagnostic::do_not_recommend]
    impl<R: ToolReturnType> OutputKind<R> for Unsupported {
        fn output_schema(&self, _cache: &OutputCache) -> Option<Map<String, Value>> {
            None
        }
        fn into_result(&self, _value: R, _cache: &OutputCache) -> CallToolResult {
            unreachable!("no type implements ToolReturnType")
        }
    }
}

fn structured<T: Serialize>(value: &T, wrapped: bool) -> CallToolResult {
    let value = match serde_json::to_value(value) {
        Ok(value) => value,
        Err(error) => {
            return CallToolResult::error(format!(
                "the tool's result could not be serialized: {error}"
            ));
        }
    };
    let value = if wrapped {
        let mut map = Map::with_capacity(1);
        map.insert("result".to_owned(), value);
        Value::Object(map)
    } else {
        value
    };
    CallToolResult {
        content: vec![Content::text(value.to_string())],
        structured_content: Some(value),
        is_error: false,
    }
}
