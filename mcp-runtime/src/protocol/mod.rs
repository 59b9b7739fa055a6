//! The MCP data types the runtime reads and writes: content blocks, tool descriptions, call
//! results and the lifecycle messages. Field names follow the specification's JSON exactly;
//! absent optional fields are left out, never written as `null`.

mod content;
pub(crate) mod envelope;
mod lifecycle;
mod logging;
mod mirrored;
mod prompt;
mod resource;
mod revision;
pub(crate) mod stateless_result;
mod tool;
mod uri_scheme;

#[cfg(feature = "http")]
pub(crate) use crate::base64::base64_decode;
pub(crate) use crate::base64::base64_encode;
pub use prompt::{GetPromptResult, PromptDefinition, PromptMessage};
pub(crate) use prompt::{WireArgument, WirePrompt};
pub(crate) use resource::WireResource;
pub use resource::{Annotations, ReadResourceResult, ResourceDefinition, Role};

pub use content::{
    AudioContent, Content, EmbeddedResource, ImageContent, ResourceContents, ResourceLink,
    TextContent,
};
pub use lifecycle::{ClientInfo, Implementation};
pub(crate) use lifecycle::{
    InitializeResult, ListCapability, ResourcesCapability, ServerCapabilities, WireClientInfo,
};
pub use logging::LoggingLevel;
pub(crate) use mirrored::{MirroredArgument, mirrored_arguments};
pub use revision::Revision;
pub use stateless_result::{CacheHints, CacheScope};
pub(crate) use tool::WireTool;
pub use tool::{CallToolResult, OutputSchema, ToolAnnotations, ToolDefinition};
pub(crate) use uri_scheme::is_uri_scheme;
