//! Errors of resource and prompt handlers, which become JSON-RPC errors.
//!
//! Tools report failures *inside* their result (`isError`), for the model to read. Resources
//! and prompts have no such field: their failures are protocol errors, sent to the client.

use std::any::Any;
use std::fmt::Display;

use serde_json::json;

use crate::jsonrpc::{ErrorCode, RpcError};

/// Why a resource read or a prompt failed.
///
/// Any `Display` error converts into one (so `?` works on `io::Error`, `String`, ...), as an
/// internal error carrying its message; an `io::Error` of kind `NotFound` becomes "Resource not
/// found" (-32002, which a request of revision 2026-07-28 gets as -32602: that revision has no
/// -32002). The constructors pick the code explicitly.
#[derive(Debug)]
pub struct HandlerError {
    pub(crate) error: RpcError,
}

impl HandlerError {
    /// -32002 "Resource not found", naming the URI (-32602 for a request of 2026-07-28).
    pub fn not_found(uri: impl Into<String>) -> HandlerError {
        let uri = uri.into();
        HandlerError {
            error: RpcError::new(ErrorCode::ResourceNotFound, "Resource not found")
                .with_data(json!({ "uri": uri })),
        }
    }

    /// -32602: the request's parameters are wrong.
    pub fn invalid_params(message: impl Into<String>) -> HandlerError {
        HandlerError {
            error: RpcError::invalid_params(message),
        }
    }

    /// -32603: the server failed.
    pub fn internal(message: impl Into<String>) -> HandlerError {
        HandlerError {
            error: RpcError::internal(message),
        }
    }

    /// Any code and message.
    ///
    /// For an error of the application's own, take a code outside JSON-RPC's reserved range
    /// (-32768 to -32000): the specification (2026-07-28, basic "Error Codes") reserves
    /// -32020 to -32099 for codes it defines, to be used only with their meanings, and leaves
    /// the rest of that range to JSON-RPC and implementations.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> HandlerError {
        HandlerError {
            error: RpcError::new(code, message),
        }
    }

    /// The JSON-RPC error sent to the client.
    pub fn rpc_error(&self) -> &RpcError {
        &self.error
    }
}

// `HandlerError` deliberately does not implement `Display`, so this blanket conversion does not
// overlap with the reflexive `From<T> for T` (the technique `anyhow` uses).
impl<E: Display + 'static> From<E> for HandlerError {
    fn from(error: E) -> HandlerError {
        if let Some(io) = (&error as &dyn Any).downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::NotFound
        {
            return HandlerError {
                error: RpcError::new(ErrorCode::ResourceNotFound, "Resource not found"),
            };
        }
        HandlerError {
            error: RpcError::internal(error.to_string()),
        }
    }
}

impl From<HandlerError> for RpcError {
    fn from(error: HandlerError) -> RpcError {
        error.error
    }
}
