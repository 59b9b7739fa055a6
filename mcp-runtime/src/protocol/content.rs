//! Content blocks: what tool results and prompt messages carry.

use serde::{Deserialize, Serialize};

/// One block of content in a tool result or a prompt message.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Content {
    /// Plain text.
    Text(TextContent),
    /// An image, base64-encoded.
    Image(ImageContent),
    /// Audio, base64-encoded.
    Audio(AudioContent),
    /// The contents of a resource, embedded.
    Resource(EmbeddedResource),
    /// A link to a resource the client can read.
    ResourceLink(ResourceLink),
}

// Written by hand for text, the block nearly every tool result carries: serde's internally
// tagged enums serialize through a buffering adapter that costs several hundred instructions a
// block. The other kinds go through `WireContent`, the derived form.
impl Serialize for Content {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Content::Text(TextContent { text }) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
                map.end()
            }
            Content::Image(image) => WireContent::Image(image).serialize(serializer),
            Content::Audio(audio) => WireContent::Audio(audio).serialize(serializer),
            Content::Resource(resource) => WireContent::Resource(resource).serialize(serializer),
            Content::ResourceLink(link) => WireContent::ResourceLink(link).serialize(serializer),
        }
    }
}

/// [`Content`] as serde derives it, borrowed: the kinds other than text.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum WireContent<'a> {
    Image(&'a ImageContent),
    Audio(&'a AudioContent),
    Resource(&'a EmbeddedResource),
    ResourceLink(&'a ResourceLink),
}

impl Content {
    /// Appends the JSON its `Serialize` writes, byte for byte (see
    /// [`CallToolResult::write_json`](super::CallToolResult::write_json)).
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        match self {
            Content::Text(TextContent { text }) => {
                out.extend_from_slice(br#"{"type":"text","text":"#);
                serde_json::to_writer(&mut *out, text)?;
                out.push(b'}');
                Ok(())
            }
            other => serde_json::to_writer(out, other),
        }
    }

    /// A text block.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text(TextContent { text: text.into() })
    }

    /// An image block from base64 data and its MIME type.
    pub fn image(base64_data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Image(ImageContent {
            data: base64_data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// An image block from its bytes (sent base64-encoded) and its MIME type.
    pub fn image_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::image(super::base64_encode(bytes), mime_type)
    }

    /// An audio block from its bytes (sent base64-encoded) and its MIME type.
    pub fn audio_bytes(bytes: &[u8], mime_type: impl Into<String>) -> Content {
        Content::audio(super::base64_encode(bytes), mime_type)
    }

    /// An audio block from base64 data and its MIME type.
    pub fn audio(base64_data: impl Into<String>, mime_type: impl Into<String>) -> Content {
        Content::Audio(AudioContent {
            data: base64_data.into(),
            mime_type: mime_type.into(),
        })
    }

    /// A resource embedded in the content: its URI, MIME type and text.
    pub fn embedded_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::embedded(ResourceContents::Text {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
        })
    }

    /// A resource embedded in the content, text or blob.
    pub fn embedded(contents: ResourceContents) -> Content {
        Content::Resource(EmbeddedResource { resource: contents })
    }

    /// A link to a resource the client can read (2025-06-18 and later).
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Content {
        Content::ResourceLink(ResourceLink {
            uri: uri.into(),
            name: name.into(),
            description: None,
            mime_type: None,
        })
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(&text.text),
            _ => None,
        }
    }
}

impl From<String> for Content {
    fn from(text: String) -> Content {
        Content::text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Content {
        Content::text(text)
    }
}

/// `{"type": "text", "text": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
}

/// `{"type": "image", "data": ..., "mimeType": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageContent {
    /// Base64-encoded image bytes.
    pub data: String,
    /// The image's MIME type, e.g. `image/png`.
    pub mime_type: String,
}

/// `{"type": "audio", "data": ..., "mimeType": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AudioContent {
    /// Base64-encoded audio bytes.
    pub data: String,
    /// The audio's MIME type, e.g. `audio/wav`.
    pub mime_type: String,
}

/// `{"type": "resource", "resource": {...}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The embedded contents.
    pub resource: ResourceContents,
}

/// The contents of a resource: text or base64 blob.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ResourceContents {
    /// Text contents.
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none", default)]
        mime_type: Option<String>,
        /// The text.
        text: String,
    },
    /// Binary contents.
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", skip_serializing_if = "Option::is_none", default)]
        mime_type: Option<String>,
        /// Base64-encoded bytes.
        blob: String,
    },
}

impl ResourceContents {
    /// Binary contents from their bytes (sent base64-encoded), with their MIME type.
    pub fn blob(uri: impl Into<String>, mime_type: impl Into<String>, bytes: &[u8]) -> Self {
        ResourceContents::Blob {
            uri: uri.into(),
            mime_type: Some(mime_type.into()),
            blob: super::base64_encode(bytes),
        }
    }
}

/// `{"type": "resource_link", "uri": ..., "name": ...}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceLink {
    /// The linked resource's URI.
    pub uri: String,
    /// Its name.
    pub name: String,
    /// What it is.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mime_type: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_sent_base64_encoded() {
        let Content::Image(image) = Content::image_bytes(b"hi", "image/png") else {
            panic!("an image")
        };
        assert_eq!(
            (image.data.as_str(), image.mime_type.as_str()),
            ("aGk=", "image/png")
        );
        let Content::Audio(audio) = Content::audio_bytes(b"hi!", "audio/wav") else {
            panic!("audio")
        };
        assert_eq!(audio.data, "aGkh");
        assert_eq!(
            ResourceContents::blob("file:///a", "application/octet-stream", b"hi"),
            ResourceContents::Blob {
                uri: "file:///a".into(),
                mime_type: Some("application/octet-stream".into()),
                blob: "aGk=".into(),
            }
        );
    }
}
