//! How a resource function's return value becomes `contents`.
//!
//! From most to least specific, as for tools (see `tool::output`):
//!
//! 1. [`IntoResourceContents`] types: `String`/`&str` (text, `text/plain` unless the resource
//!    names a MIME type), `Vec<u8>` (bytes, sent base64 as `blob`), [`ResourceContents`] and
//!    `Vec<ResourceContents>` (several contents);
//! 2. any other `Serialize` type: JSON text, `application/json`;
//! 3. `Result<T, E>` of those, where `E` converts into a [`HandlerError`].

use std::marker::PhantomData;

use serde::Serialize;

use crate::handler_error::HandlerError;
use crate::protocol::{ResourceContents, base64_encode};

/// A value that knows how to be a resource's contents.
pub trait IntoResourceContents {
    /// Converts the value read from `uri`; `mime_type` is the resource's declared type.
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents>;
}

fn text(uri: &str, mime_type: Option<&str>, default: &str, text: String) -> ResourceContents {
    ResourceContents::Text {
        uri: uri.to_owned(),
        mime_type: Some(mime_type.unwrap_or(default).to_owned()),
        text,
    }
}

impl IntoResourceContents for String {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![text(uri, mime_type, "text/plain", self)]
    }
}

impl IntoResourceContents for &str {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![text(uri, mime_type, "text/plain", self.to_owned())]
    }
}

impl IntoResourceContents for Vec<u8> {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![ResourceContents::Blob {
            uri: uri.to_owned(),
            mime_type: Some(mime_type.unwrap_or("application/octet-stream").to_owned()),
            blob: base64_encode(&self),
        }]
    }
}

impl IntoResourceContents for ResourceContents {
    fn into_contents(self, _uri: &str, _mime_type: Option<&str>) -> Vec<ResourceContents> {
        vec![self]
    }
}

impl IntoResourceContents for Vec<ResourceContents> {
    fn into_contents(self, _uri: &str, _mime_type: Option<&str>) -> Vec<ResourceContents> {
        self
    }
}

/// How one return type becomes contents: the kind chosen by the probe.
///
/// Its impls are `do_not_recommend`, so a return type that fits no rule is reported with this
/// trait's message, on the return type, rather than through the internals of [`kinds`].
#[diagnostic::on_unimplemented(
    message = "`{R}` cannot be returned from an MCP resource",
    label = "cannot become resource contents",
    note = "a resource returns text (`String`, `&str`), bytes (`Vec<u8>`, sent as a base64 `blob`), contents (`ResourceContents`, `Vec<ResourceContents>`, any `IntoResourceContents`), or a type implementing `Serialize`, sent as JSON (`#[derive(Serialize)]`)",
    note = "or a `Result<T, E>` with one of those as `T` and an error `E` that implements `Display` or is a `HandlerError` (an `Err` becomes an error response)"
)]
pub trait ResourceOutput<R> {
    /// Converts a returned value.
    fn contents(
        &self,
        value: R,
        uri: &str,
        mime_type: Option<&str>,
    ) -> Result<Vec<ResourceContents>, HandlerError>;
}

/// The probe generated code dispatches on.
pub struct ResourceProbe<R>(PhantomData<fn() -> R>);

impl<R> ResourceProbe<R> {
    /// A probe for return type `R`.
    pub const fn new() -> ResourceProbe<R> {
        ResourceProbe(PhantomData)
    }
}

impl<R> Default for ResourceProbe<R> {
    fn default() -> Self {
        ResourceProbe::new()
    }
}

impl<R> Clone for ResourceProbe<R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for ResourceProbe<R> {}

fn json(
    value: &impl Serialize,
    uri: &str,
    mime_type: Option<&str>,
) -> Result<Vec<ResourceContents>, HandlerError> {
    let body = serde_json::to_string(value).map_err(|e| {
        HandlerError::internal(format!("the resource could not be serialized: {e}"))
    })?;
    Ok(vec![text(uri, mime_type, "application/json", body)])
}

/// The kinds, one per rule.
pub mod kinds {
    use super::*;

    /// Rule 1.
    pub struct Explicit;
    /// Rule 2.
    pub struct Json;
    /// Rule 3 with rule 1.
    pub struct ExplicitOrError;
    /// Rule 3 with rule 2.
    pub struct JsonOrError;
    /// No rule applies.
    pub struct Unsupported;

    /// Level 4: `Result<T: IntoResourceContents, E>`.
    pub trait ViaExplicitResult {
        /// The kind.
        fn __mcp_resource_kind(self) -> ExplicitOrError
        where
            Self: Sized,
        {
            ExplicitOrError
        }
    }
    impl<T: IntoResourceContents, E: Into<HandlerError>> ViaExplicitResult
        for &&&&ResourceProbe<Result<T, E>>
    {
    }

    /// Level 3: `Result<T: Serialize, E>`.
    pub trait ViaJsonResult {
        /// The kind.
        fn __mcp_resource_kind(self) -> JsonOrError
        where
            Self: Sized,
        {
            JsonOrError
        }
    }
    impl<T: Serialize, E: Into<HandlerError>> ViaJsonResult for &&&ResourceProbe<Result<T, E>> {}

    /// Level 2: `T: IntoResourceContents`.
    pub trait ViaExplicit {
        /// The kind.
        fn __mcp_resource_kind(self) -> Explicit
        where
            Self: Sized,
        {
            Explicit
        }
    }
    impl<T: IntoResourceContents> ViaExplicit for &&ResourceProbe<T> {}

    /// Level 1: `T: Serialize`.
    pub trait ViaJson {
        /// The kind.
        fn __mcp_resource_kind(self) -> Json
        where
            Self: Sized,
        {
            Json
        }
    }
    impl<T: Serialize> ViaJson for &ResourceProbe<T> {}

    /// Level 0: anything else.
    pub trait ViaUnsupported {
        /// The kind.
        fn __mcp_resource_kind(self) -> Unsupported
        where
            Self: Sized,
        {
            Unsupported
        }
    }
    impl<T> ViaUnsupported for ResourceProbe<T> {}

    /// Implemented by no type: the bound that keeps [`Unsupported`] from converting anything.
    pub trait ResourceReturnType {}

    #[diagnostic::do_not_recommend]
    impl<R: IntoResourceContents> ResourceOutput<R> for Explicit {
        fn contents(
            &self,
            value: R,
            uri: &str,
            mime: Option<&str>,
        ) -> Result<Vec<ResourceContents>, HandlerError> {
            Ok(value.into_contents(uri, mime))
        }
    }

    #[diagnostic::do_not_recommend]
    impl<R: Serialize> ResourceOutput<R> for Json {
        fn contents(
            &self,
            value: R,
            uri: &str,
            mime: Option<&str>,
        ) -> Result<Vec<ResourceContents>, HandlerError> {
            json(&value, uri, mime)
        }
    }

    #[diagnostic::do_not_recommend]
    impl<T: IntoResourceContents, E: Into<HandlerError>> ResourceOutput<Result<T, E>>
        for ExplicitOrError
    {
        fn contents(
            &self,
            value: Result<T, E>,
            uri: &str,
            mime: Option<&str>,
        ) -> Result<Vec<ResourceContents>, HandlerError> {
            value
                .map(|v| v.into_contents(uri, mime))
                .map_err(Into::into)
        }
    }

    #[diagnostic::do_not_recommend]
    impl<T: Serialize, E: Into<HandlerError>> ResourceOutput<Result<T, E>> for JsonOrError {
        fn contents(
            &self,
            value: Result<T, E>,
            uri: &str,
            mime: Option<&str>,
        ) -> Result<Vec<ResourceContents>, HandlerError> {
            json(&value.map_err(Into::into)?, uri, mime)
        }
    }

    #[diagnostic::do_not_recommend]
    impl<R: ResourceReturnType> ResourceOutput<R> for Unsupported {
        fn contents(
            &self,
            _value: R,
            _uri: &str,
            _mime: Option<&str>,
        ) -> Result<Vec<ResourceContents>, HandlerError> {
            unreachable!("no type implements ResourceReturnType")
        }
    }
}
