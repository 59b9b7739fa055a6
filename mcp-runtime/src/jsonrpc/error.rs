//! JSON-RPC error objects and the codes MCP uses.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The error codes a server sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// -32700: the message is not valid JSON.
    ParseError,
    /// -32600: the JSON is not a valid request.
    InvalidRequest,
    /// -32601: no such method.
    MethodNotFound,
    /// -32602: the method exists but its params are wrong.
    InvalidParams,
    /// -32603: the server failed.
    InternalError,
    /// -32002: `resources/read` of a URI the server does not have (session-based revisions;
    /// 2026-07-28 answers -32602 instead).
    ResourceNotFound,
    /// -32020 (2026-07-28): an HTTP header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`)
    /// disagrees with the request body.
    HeaderMismatch,
    /// -32021 (2026-07-28): the request needs a client capability the client did not declare;
    /// `data.requiredCapabilities` names it.
    MissingRequiredClientCapability,
    /// -32022 (2026-07-28): the request names a protocol revision the server does not serve;
    /// `data` lists the `supported` ones and echoes the `requested` one.
    UnsupportedProtocolVersion,
    /// Any other code.
    Other(i64),
}

impl ErrorCode {
    /// The numeric code.
    pub const fn code(self) -> i64 {
        match self {
            ErrorCode::ParseError => -32700,
            ErrorCode::InvalidRequest => -32600,
            ErrorCode::MethodNotFound => -32601,
            ErrorCode::InvalidParams => -32602,
            ErrorCode::InternalError => -32603,
            ErrorCode::ResourceNotFound => -32002,
            ErrorCode::HeaderMismatch => -32020,
            ErrorCode::MissingRequiredClientCapability => -32021,
            ErrorCode::UnsupportedProtocolVersion => -32022,
            ErrorCode::Other(code) => code,
        }
    }

    /// The code for a number.
    pub const fn from_code(code: i64) -> ErrorCode {
        match code {
            -32700 => ErrorCode::ParseError,
            -32600 => ErrorCode::InvalidRequest,
            -32601 => ErrorCode::MethodNotFound,
            -32602 => ErrorCode::InvalidParams,
            -32603 => ErrorCode::InternalError,
            -32002 => ErrorCode::ResourceNotFound,
            -32020 => ErrorCode::HeaderMismatch,
            -32021 => ErrorCode::MissingRequiredClientCapability,
            -32022 => ErrorCode::UnsupportedProtocolVersion,
            other => ErrorCode::Other(other),
        }
    }
}

/// A JSON-RPC error object: `{code, message, data?}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    /// The numeric error code.
    pub code: i64,
    /// A sentence saying what went wrong.
    pub message: String,
    /// Structured details, when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    /// An error with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> RpcError {
        RpcError {
            code: code.code(),
            message: message.into(),
            data: None,
        }
    }

    /// Adds structured details.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> RpcError {
        self.data = Some(data);
        self
    }

    /// -32602 with a message.
    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError::new(ErrorCode::InvalidParams, message)
    }

    /// -32600 with a message.
    pub fn invalid_request(message: impl Into<String>) -> RpcError {
        RpcError::new(ErrorCode::InvalidRequest, message)
    }

    /// -32603 with a message.
    pub fn internal(message: impl Into<String>) -> RpcError {
        RpcError::new(ErrorCode::InternalError, message)
    }

    /// The code as an [`ErrorCode`].
    pub fn kind(&self) -> ErrorCode {
        ErrorCode::from_code(self.code)
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (JSON-RPC error {})", self.message, self.code)
    }
}

impl std::error::Error for RpcError {}
