//! Resources and resource templates on the wire (`resources/list`,
//! `resources/templates/list`, `resources/read`).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::{ResourceContents, Revision};

/// Who a resource or content is meant for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person using the client.
    User,
    /// The model.
    Assistant,
}

/// Hints for clients on how to use a resource.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// Who it is for.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub audience: Option<Vec<Role>>,
    /// How important it is, from 0 (optional) to 1 (required).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub priority: Option<f64>,
    /// When it last changed (ISO 8601).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub last_modified: Option<String>,
}

/// Everything the lists say about one resource or resource template.
#[derive(Clone, Debug, PartialEq)]
pub struct ResourceDefinition {
    /// The URI, or for a template the RFC 6570 URI template.
    pub uri: Cow<'static, str>,
    /// Whether `uri` is a template.
    pub is_template: bool,
    /// A short name.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    pub title: Option<Cow<'static, str>>,
    /// What it holds.
    pub description: Option<Cow<'static, str>>,
    /// Its MIME type.
    pub mime_type: Option<Cow<'static, str>>,
    /// Its size in bytes, when known.
    pub size: Option<u64>,
    /// Usage hints.
    pub annotations: Option<Annotations>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WireResource<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    uri: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_template: Option<&'a str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    mime_type: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<Cow<'a, Annotations>>,
}

impl<'a> WireResource<'a> {
    pub(crate) fn new(resource: &'a ResourceDefinition, revision: Revision) -> WireResource<'a> {
        let modern = revision.has_structured_output();
        let annotations = resource.annotations.as_ref().map(|a| {
            if modern || a.last_modified.is_none() {
                Cow::Borrowed(a)
            } else {
                // `lastModified` arrived with 2025-06-18.
                Cow::Owned(Annotations {
                    last_modified: None,
                    ..a.clone()
                })
            }
        });
        WireResource {
            uri: (!resource.is_template).then_some(&*resource.uri),
            uri_template: resource.is_template.then_some(&*resource.uri),
            name: &resource.name,
            title: resource.title.as_deref().filter(|_| modern),
            description: resource.description.as_deref(),
            mime_type: resource.mime_type.as_deref(),
            size: resource.size.filter(|_| !resource.is_template),
            annotations,
        }
    }
}

/// The result of `resources/read`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadResourceResult {
    /// The contents read: usually one, several for a resource made of parts.
    pub contents: Vec<ResourceContents>,
}
