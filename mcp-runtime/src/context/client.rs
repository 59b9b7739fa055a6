//! Asking the client: a model completion (sampling) and its roots. Each requires the client to
//! have declared the capability; without it the call fails at once with an error saying so.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Context;
use super::client_requests::Unanswered;
use crate::jsonrpc::RpcError;
use crate::protocol::{Content, Role};

/// Why a request to the client failed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ClientError {
    /// The client did not declare the capability this needs.
    NotSupported {
        /// The capability (`sampling`, `elicitation`, `roots`, ...).
        capability: &'static str,
    },
    /// The client did not answer in time.
    Timeout {
        /// What was asked.
        method: String,
    },
    /// The connection closed before the answer came.
    Closed,
    /// The client answered with an error.
    Rejected(RpcError),
    /// The client's answer did not have the expected shape.
    InvalidResponse(String),
    /// The request cannot reach the client from where it was asked: why (an HTTP POST that
    /// accepts only `application/json` has no stream for it).
    Unreachable(&'static str),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::NotSupported { capability } => write!(
                f,
                "the client does not support `{capability}` (it did not declare the capability in `initialize`)"
            ),
            ClientError::Timeout { method } => {
                write!(f, "the client did not answer `{method}` in time")
            }
            ClientError::Closed => f.write_str("the client closed the connection before answering"),
            ClientError::Rejected(error) => write!(f, "the client refused: {error}"),
            ClientError::InvalidResponse(why) => {
                write!(f, "the client's answer was malformed: {why}")
            }
            ClientError::Unreachable(why) => write!(f, "the client cannot be asked here: {why}"),
        }
    }
}

impl std::error::Error for ClientError {}

impl Context {
    /// Sends `method` to the client after checking it declared `capability` (a path of keys
    /// into its capabilities, e.g. `["elicitation"]`), and decodes the answer.
    pub(crate) async fn ask<T: for<'de> Deserialize<'de>>(
        &self,
        capability: &'static str,
        method: &str,
        params: &impl Serialize,
    ) -> Result<T, ClientError> {
        if let Some(round) = &self.input {
            let round = round.get();
            let key = match &self.question_key {
                Some(key) => key.to_string(),
                None => round.default_key(method.split('/').next().unwrap_or(method)),
            };
            return round
                .ask(key, capability, method, params, self.client())
                .await;
        }
        if !self.client().has_capability(capability) {
            return Err(ClientError::NotSupported { capability });
        }
        let answer = self
            .session
            .client_requests()
            .send(&self.state.sink, method, params)
            .await
            .map_err(|unanswered| match unanswered {
                Unanswered::Timeout { .. } => ClientError::Timeout {
                    method: method.to_owned(),
                },
                Unanswered::Closed => ClientError::Closed,
                Unanswered::Malformed(why) => ClientError::InvalidResponse(why),
                Unanswered::Refused(error) => ClientError::Rejected(error),
                Unanswered::Unreachable(why) => ClientError::Unreachable(why),
            })?;
        serde_json::from_value(answer).map_err(|e| ClientError::InvalidResponse(e.to_string()))
    }

    /// Asks the client's model for a completion (`sampling/createMessage`).
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// /// Translates a sentence with the client's model.
    /// #[mcp_tool]
    /// async fn translate(ctx: Context, sentence: String) -> Result<String, String> {
    ///     let request = SamplingRequest::new(200)
    ///         .system_prompt("You translate into French. Answer with the translation only.")
    ///         .user(sentence)
    ///         .temperature(0.2);
    ///     let answer = ctx.sample(request).await.map_err(|e| e.to_string())?;
    ///     Ok(answer.text())
    /// }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<translate>().build().unwrap();
    /// #     let client = mcp_runtime::testing::TestClient::new(&server);
    /// #     client.answer_requests(|_, _| Ok(serde_json::json!({"role": "assistant", "model": "test", "content": {"type": "text", "text": "Bonjour"}})));
    /// #     client.initialize_with(mcp_runtime::Revision::LATEST_SESSION_BASED.as_str(), serde_json::json!({"sampling": {}})).await.unwrap();
    /// #     let result = client.call_tool("translate", serde_json::json!({"sentence": "Hello"})).await.unwrap();
    /// #     assert_eq!(result.content[0].as_text(), Some("Bonjour"));
    /// # }
    /// ```
    pub async fn sample(&self, request: SamplingRequest) -> Result<SamplingResponse, ClientError> {
        self.ask("sampling", "sampling/createMessage", &request)
            .await
    }

    /// Asks the client's model one question and returns the text of its answer.
    pub async fn ask_model(
        &self,
        question: impl Into<String>,
        max_tokens: u32,
    ) -> Result<String, ClientError> {
        let response = self
            .sample(SamplingRequest::new(max_tokens).user(Content::text(question)))
            .await?;
        Ok(response.text())
    }

    /// The client's roots (`roots/list`): the folders or files it lets the server work on.
    ///
    /// ```
    /// use mcp_runtime::prelude::*;
    ///
    /// /// The folders the client lets this server work on.
    /// #[mcp_tool]
    /// async fn folders(ctx: Context) -> Result<String, String> {
    ///     let roots = ctx.list_roots().await.map_err(|e| e.to_string())?;
    ///     Ok(roots.into_iter().map(|root| root.uri).collect::<Vec<_>>().join("\n"))
    /// }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<folders>().build().unwrap();
    /// #     let client = mcp_runtime::testing::TestClient::new(&server);
    /// #     client.answer_requests(|_, _| Ok(serde_json::json!({"roots": [{"uri": "file:///work"}]})));
    /// #     client.initialize_with(mcp_runtime::Revision::LATEST_SESSION_BASED.as_str(), serde_json::json!({"roots": {}})).await.unwrap();
    /// #     let result = client.call_tool("folders", serde_json::json!({})).await.unwrap();
    /// #     assert_eq!(result.content[0].as_text(), Some("file:///work"));
    /// # }
    /// ```
    pub async fn list_roots(&self) -> Result<Vec<Root>, ClientError> {
        #[derive(Deserialize)]
        #[serde(expecting = "a roots/list result: an object with a `roots` array")]
        struct Roots {
            roots: Vec<Root>,
        }
        let roots: Roots = self.ask("roots", "roots/list", &json!({})).await?;
        Ok(roots.roots)
    }
}

/// A root the client exposes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// Its URI (`file://...`).
    pub uri: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// A request for a model completion.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingRequest {
    messages: Vec<SamplingMessage>,
    max_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    system_prompt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    temperature: Option<f64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    stop_sequences: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    model_preferences: Option<Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct SamplingMessage {
    role: Role,
    content: Content,
}

impl SamplingRequest {
    /// A request whose answer is at most `max_tokens` long; add messages next.
    pub fn new(max_tokens: u32) -> SamplingRequest {
        SamplingRequest {
            messages: Vec::new(),
            max_tokens,
            system_prompt: None,
            temperature: None,
            stop_sequences: Vec::new(),
            model_preferences: None,
        }
    }

    /// Adds a user message.
    #[must_use]
    pub fn user(mut self, content: impl Into<Content>) -> SamplingRequest {
        self.messages.push(SamplingMessage {
            role: Role::User,
            content: content.into(),
        });
        self
    }

    /// Adds an assistant message.
    #[must_use]
    pub fn assistant(mut self, content: impl Into<Content>) -> SamplingRequest {
        self.messages.push(SamplingMessage {
            role: Role::Assistant,
            content: content.into(),
        });
        self
    }

    /// Sets the system prompt.
    #[must_use]
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> SamplingRequest {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Sets the sampling temperature.
    #[must_use]
    pub fn temperature(mut self, temperature: f64) -> SamplingRequest {
        self.temperature = Some(temperature);
        self
    }

    /// Adds a stop sequence.
    #[must_use]
    pub fn stop_sequence(mut self, stop: impl Into<String>) -> SamplingRequest {
        self.stop_sequences.push(stop.into());
        self
    }

    /// Sets model preferences: hints (model name fragments, best first) and priorities from
    /// 0 to 1 for cost, speed and intelligence.
    #[must_use]
    pub fn model_preferences(
        mut self,
        hints: &[&str],
        cost: Option<f64>,
        speed: Option<f64>,
        intelligence: Option<f64>,
    ) -> SamplingRequest {
        let mut preferences = serde_json::Map::new();
        if !hints.is_empty() {
            let hints: Vec<Value> = hints.iter().map(|h| json!({ "name": h })).collect();
            preferences.insert("hints".to_owned(), Value::Array(hints));
        }
        for (key, value) in [
            ("costPriority", cost),
            ("speedPriority", speed),
            ("intelligencePriority", intelligence),
        ] {
            if let Some(value) = value {
                preferences.insert(key.to_owned(), json!(value));
            }
        }
        self.model_preferences = Some(Value::Object(preferences));
        self
    }
}

/// The client model's answer.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SamplingResponse {
    /// Who speaks (the assistant).
    pub role: Role,
    /// The answer's content blocks (kinds this runtime does not know are left out).
    #[serde(deserialize_with = "content_blocks")]
    pub content: Vec<Content>,
    /// The model that answered.
    pub model: String,
    /// Why it stopped (`endTurn`, `stopSequence`, `maxTokens`, ...).
    #[serde(default)]
    pub stop_reason: Option<String>,
}

impl SamplingResponse {
    /// The text of the answer's text blocks.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(Content::as_text)
            .collect::<Vec<_>>()
            .join("")
    }
}

/// One block or a list of blocks (2025-11-25 allows both).
fn content_blocks<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Content>, D::Error> {
    let value = Value::deserialize(d)?;
    let blocks = match value {
        Value::Array(blocks) => blocks,
        single => vec![single],
    };
    Ok(blocks
        .into_iter()
        .filter_map(|block| serde_json::from_value(block).ok())
        .collect())
}
