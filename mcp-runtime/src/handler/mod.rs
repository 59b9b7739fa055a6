//! The layer tools, resources and prompts stand on: how a handler's parameters are obtained
//! ([`Param`], one trait generic over the [`ArgumentSource`], with [`FromContext`] for the
//! values the runtime supplies), what a handler needs from the server ([`Requirements`]), how an
//! argument is decoded and its failure explained, how a handler is registered and kept
//! ([`Registration`] and [`Entry`], each one type generic over the [`Kind`]), and the one
//! engine that turns a return value into its kind's answer ([`Convert`]). Nothing here knows which kind of handler it serves: each kind's module
//! (`tool`, `resource`, `prompt`) builds on this one, never the other way round.
mod decode;
mod entry;
mod param;
mod registration;
mod returns;
mod supply;

use std::future::Future;
use std::pin::Pin;

pub(crate) use decode::{Missing, describe_error, describe_unreadable, is_optional};
pub(crate) use entry::{Called, Calls, Entry, Kind};
pub use param::{ArgumentSource, Param};
pub use registration::Registration;
pub(crate) use registration::registered;
pub use returns::{
    Absent, Convert, DescribedInPart, Direct, Failure, Probe, Returns, Serialized,
    SerializedInPart, kinds,
};
pub use supply::{FromArguments, FromContext, FromRequestContext, Requirements};

/// A boxed future, as stored for type-erased handlers.
pub(crate) type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;
