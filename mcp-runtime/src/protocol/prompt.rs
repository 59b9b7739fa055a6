//! Prompts on the wire (`prompts/list`, `prompts/get`).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::{Content, Revision, Role};

/// What `prompts/list` says about a prompt, apart from its arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptDefinition {
    /// The prompt's name.
    pub name: Cow<'static, str>,
    /// A human-readable title.
    pub title: Option<Cow<'static, str>>,
    /// What the prompt is for.
    pub description: Option<Cow<'static, str>>,
}

#[derive(Serialize)]
pub(crate) struct WirePrompt<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    arguments: Vec<WireArgument<'a>>,
}

/// One argument of a prompt, as `prompts/list` shows it.
#[derive(Serialize)]
pub(crate) struct WireArgument<'a> {
    pub(crate) name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) description: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) required: bool,
}

impl<'a> WirePrompt<'a> {
    pub(crate) fn new(
        prompt: &'a PromptDefinition,
        arguments: Vec<WireArgument<'a>>,
        revision: Revision,
    ) -> WirePrompt<'a> {
        WirePrompt {
            name: &prompt.name,
            title: prompt
                .title
                .as_deref()
                .filter(|_| revision.has_structured_output()),
            description: prompt.description.as_deref(),
            arguments,
        }
    }
}

/// One message of a prompt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PromptMessage {
    /// Who speaks: the spec allows only `user` and `assistant`.
    pub role: Role,
    /// What is said.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user.
    pub fn user(content: impl Into<Content>) -> PromptMessage {
        PromptMessage {
            role: Role::User,
            content: content.into(),
        }
    }

    /// A message from the assistant.
    pub fn assistant(content: impl Into<Content>) -> PromptMessage {
        PromptMessage {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// The result of `prompts/get`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GetPromptResult {
    /// A description of this rendering of the prompt.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
}
