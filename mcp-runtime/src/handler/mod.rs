//! The layer tools, resources and prompts stand on: how a handler's parameters are obtained
//! ([`Param`], generic over the [`ArgumentSource`]; [`FromContext`] for the values the
//! runtime supplies; the marker types that tell an argument from a supplied value), what a handler needs from the server ([`Requirements`]),
//! how an argument is decoded and its failure explained, and how a handler is registered
//! ([`Registration`]). Nothing here knows which kind of handler it serves; each kind's module
//! (`tool`, `resource`, `prompt`) builds on this one, never the other way round.

mod decode;
mod param;
mod registration;
mod supply;

use std::future::Future;
use std::pin::Pin;

pub(crate) use decode::{Missing, describe_error, is_optional};
pub use param::{ArgumentSource, Param};
pub use registration::Registration;
pub(crate) use registration::registered;
pub use supply::{FromArguments, FromContext, FromRequestContext, Requirements};

/// A boxed future, as stored for type-erased handlers.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;
