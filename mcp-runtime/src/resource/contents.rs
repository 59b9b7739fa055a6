//! How a resource function's return value becomes `contents`: the resource's rules for the
//! return-value engine of the handler layer (see `handler::returns`).
//!
//! From most to least specific:
//!
//! 1. [`IntoResourceContents`] types: `String`, `&str`, `&String`, `Cow<str>`, `Box<str>`,
//!    `Arc<str>` (text, `text/plain` unless the resource names a MIME type), `Vec<u8>`,
//!    `&[u8]`, `&[u8; N]` (what `include_bytes!` gives), `Box<[u8]>`, `Cow<[u8]>` (bytes, sent
//!    base64 as `blob`), [`ResourceContents`] and `Vec<ResourceContents>` (several contents);
//!    and `Option` of any of those, `None` being "resource not found";
//! 2. any other `Serialize` type: JSON text, `application/json`; an `Option` of one is "resource
//!    not found" when `None` (see [`Absent`]), not the text `null`;
//! 3. `Result<T, E>` of those, where `E` converts into a [`HandlerError`].

use std::borrow::Cow;
use std::fmt::Display;
use std::sync::Arc;

use serde::Serialize;

use crate::handler::{Absent, Convert, Direct, Failure, Returns, Serialized, kinds};
use crate::handler_error::HandlerError;
use crate::protocol::{ResourceContents, base64_encode};

/// A value that knows how to be a resource's contents.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from an MCP resource",
    label = "cannot become resource contents",
    note = "a resource returns text (`String`, `&str`), bytes (`Vec<u8>`, `&[u8]`, sent as a base64 `blob`), contents (`ResourceContents`, `Vec<ResourceContents>`, any `IntoResourceContents`), or a type implementing `Serialize`, sent as JSON (`#[derive(Serialize)]`)",
    note = "or a `Result<T, E>` with one of those as `T` and an error `E` that implements `Display` or is a `HandlerError` (an `Err` becomes an error response)"
)]
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

/// Text held otherwise than in a `String`, as a `String` sends it.
macro_rules! text_contents {
    ($([$($generics:tt)*] $ty:ty;)*) => {$(
        impl<$($generics)*> IntoResourceContents for $ty {
            fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
                let text: &str = self.as_ref();
                text.to_owned().into_contents(uri, mime_type)
            }
        }
    )*};
}

text_contents! {
    ['a] &'a str;
    ['a] &'a String;
    ['a] Cow<'a, str>;
    [] Box<str>;
    [] Arc<str>;
}

/// Bytes, sent base64 as a `blob`, `application/octet-stream` unless the resource names a
/// MIME type.
fn blob(uri: &str, mime_type: Option<&str>, bytes: &[u8]) -> Vec<ResourceContents> {
    vec![ResourceContents::Blob {
        uri: uri.to_owned(),
        mime_type: Some(mime_type.unwrap_or("application/octet-stream").to_owned()),
        blob: base64_encode(bytes),
    }]
}

/// Bytes, as [`blob`] sends them.
macro_rules! blob_contents {
    ($([$($generics:tt)*] $ty:ty;)*) => {$(
        impl<$($generics)*> IntoResourceContents for $ty {
            fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Vec<ResourceContents> {
                blob(uri, mime_type, self.as_ref())
            }
        }
    )*};
}

blob_contents! {
    [] Vec<u8>;
    ['a] &'a [u8];
    ['a, const N: usize] &'a [u8; N];
    [] Box<[u8]>;
    ['a] Cow<'a, [u8]>;
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

/// The resource's return rules: a value becomes contents read from a URI, of the resource's
/// declared MIME type, or an error response.
pub enum ResourceReturns {}

impl Returns for ResourceReturns {
    type Output = Result<Vec<ResourceContents>, HandlerError>;
    /// The URI read, and the resource's declared MIME type.
    type Needs<'a> = (&'a str, Option<&'a str>);
    type Schema = std::convert::Infallible;
}

impl<T: IntoResourceContents> Direct<ResourceReturns> for T {
    fn convert(
        self,
        (uri, mime_type): (&str, Option<&str>),
    ) -> <ResourceReturns as Returns>::Output {
        Ok(self.into_contents(uri, mime_type))
    }
}

/// `None` is "resource not found", as [`HandlerError::not_found`] words it, whether the `Option`
/// holds contents (below) or a serialized value (the engine's `SerializedOrAbsent`).
impl Absent for ResourceReturns {
    fn absent((uri, _mime_type): (&str, Option<&str>)) -> Self::Output {
        Err(HandlerError::not_found(uri))
    }
}

impl<T: IntoResourceContents> Direct<ResourceReturns> for Option<T> {
    fn convert(self, needs: (&str, Option<&str>)) -> <ResourceReturns as Returns>::Output {
        match self {
            Some(value) => Direct::convert(value, needs),
            None => ResourceReturns::absent(needs),
        }
    }
}

impl<T: Serialize> Serialized<ResourceReturns> for T {
    fn convert(
        self,
        (uri, mime_type): (&str, Option<&str>),
    ) -> <ResourceReturns as Returns>::Output {
        let body = serde_json::to_string(&self).map_err(|e| {
            HandlerError::internal(format!("the resource could not be serialized: {e}"))
        })?;
        Ok(vec![text(uri, mime_type, "application/json", body)])
    }
}

#[diagnostic::do_not_recommend]
impl<E: Display + 'static> Failure<ResourceReturns> for E {
    fn fail(self) -> <ResourceReturns as Returns>::Output {
        Err(self.into())
    }
}

impl Failure<ResourceReturns> for HandlerError {
    fn fail(self) -> <ResourceReturns as Returns>::Output {
        Err(self)
    }
}

/// Never selected for a type that fits, so its bound only explains what a resource returns.
impl<R: IntoResourceContents> Convert<ResourceReturns, R> for kinds::Unsupported {
    fn output_schema(&self, _needs: (&str, Option<&str>)) -> Option<std::convert::Infallible> {
        None
    }
    fn convert(
        &self,
        value: R,
        needs: (&str, Option<&str>),
    ) -> <ResourceReturns as Returns>::Output {
        Direct::convert(value, needs)
    }
}
