//! Prompts and prompt-argument completion through the real protocol.

mod common;

use common::Checked;
use mcp_runtime::Server;
use mcp_runtime::prelude::*;
use serde_json::json;

#[derive(Deserialize, JsonSchema, Debug)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Warm,
    Formal,
}

/// Writes a greeting in a tone.
#[mcp_prompt(title = "Greeting")]
fn greeting(
    /// Who to greet.
    name: String,
    /// The tone.
    tone: Option<Tone>,
    /// How many sentences.
    sentences: Option<u8>,
) -> Vec<PromptMessage> {
    vec![
        PromptMessage::user(format!(
            "Greet {name} in a {:?} tone in {} sentences.",
            tone.unwrap_or(Tone::Warm),
            sentences.unwrap_or(1)
        )),
        PromptMessage::assistant("Sure."),
    ]
}

/// A plain one-liner.
#[mcp_prompt(name = "one.liner")]
fn one_liner() -> String {
    "Say something nice.".to_owned()
}

/// Fails on purpose.
#[mcp_prompt]
fn failing() -> Result<String, String> {
    Err("the prompt store is offline".to_owned())
}

fn cities(prefix: &str) -> Vec<&'static str> {
    let _ = prefix;
    vec!["Lisbon", "London", "Lima", "Oslo"]
}

/// Plans a trip.
#[mcp_prompt]
fn trip(#[complete(cities)] city: String) -> String {
    format!("Plan a trip to {city}.")
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .prompt::<greeting>()
        .prompt::<one_liner>()
        .prompt::<failing>()
        .prompt::<trip>()
        .page_size(2)
        .build()
        .unwrap()
}

#[tokio::test]
async fn prompts_are_listed_with_their_arguments_across_pages() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let first = client.request("prompts/list", json!({})).await.unwrap();
    assert_eq!(first["prompts"].as_array().unwrap().len(), 2);
    assert_eq!(
        first["prompts"][1],
        json!({
            "name": "greeting",
            "title": "Greeting",
            "description": "Writes a greeting in a tone.",
            "arguments": [
                {"name": "name", "description": "Who to greet.", "required": true},
                {"name": "tone", "description": "The tone. One of: warm, formal."},
                {"name": "sentences", "description": "How many sentences."},
            ],
        })
    );
    let second = client
        .request("prompts/list", json!({"cursor": first["nextCursor"]}))
        .await
        .unwrap();
    let names: Vec<&str> = second["prompts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["one.liner", "trip"]);
    assert!(second.get("nextCursor").is_none());
}

#[tokio::test]
async fn get_renders_typed_arguments() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let result = client
        .request("prompts/get", json!({"name": "greeting", "arguments": {"name": "Ana", "tone": "formal", "sentences": "2"}}))
        .await
        .unwrap();
    assert_eq!(
        result,
        json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "Greet Ana in a Formal tone in 2 sentences."}},
            {"role": "assistant", "content": {"type": "text", "text": "Sure."}},
        ]})
    );
    let result = client
        .request("prompts/get", json!({"name": "one.liner"}))
        .await
        .unwrap();
    assert_eq!(result["messages"][0]["role"], "user");
    assert_eq!(
        result["messages"][0]["content"]["text"],
        "Say something nice."
    );
}

#[tokio::test]
async fn argument_mistakes_are_invalid_params_naming_the_argument() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let error = client
        .request("prompts/get", json!({"name": "greeting", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.message,
        "Invalid arguments for prompt `greeting`: name: missing required argument"
    );
    let error = client
        .request("prompts/get", json!({"name": "greeting", "arguments": {"name": "Ana", "tone": "loud", "sentences": "many"}}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(
        error
            .message
            .contains("tone: expected one of \"warm\", \"formal\", got \"loud\""),
        "{}",
        error.message
    );
    assert!(
        error
            .message
            .contains("sentences: expected an integer, got \"many\""),
        "{}",
        error.message
    );
    // server/prompts: every argument travels as a string; one that is not is named.
    let error = client
        .request(
            "prompts/get",
            json!({"name": "greeting", "arguments": {"name": "Ana", "sentences": 2}}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.message,
        "invalid params for `prompts/get`: `arguments.sentences` must be a string (a prompt's arguments are all strings), not 2"
    );
}

#[tokio::test]
async fn an_unknown_prompt_is_invalid_params_naming_it() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let error = client
        .request("prompts/get", json!({"name": "greetings"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.message,
        "Unknown prompt: `greetings`; did you mean `greeting`?"
    );
}

#[tokio::test]
async fn a_failing_prompt_is_an_internal_error_with_its_message() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let error = client
        .request("prompts/get", json!({"name": "failing"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32603);
    assert_eq!(error.message, "the prompt store is offline");
}

#[tokio::test]
async fn arguments_complete_from_completers_and_enums() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let complete = |prompt: &str, argument: &str, value: &str| json!({"ref": {"type": "ref/prompt", "name": prompt}, "argument": {"name": argument, "value": value}});
    let result = client
        .request("completion/complete", complete("trip", "city", "l"))
        .await
        .unwrap();
    assert_eq!(
        result["completion"],
        json!({"values": ["Lisbon", "London", "Lima"], "total": 3})
    );
    let result = client
        .request("completion/complete", complete("greeting", "tone", ""))
        .await
        .unwrap();
    assert_eq!(result["completion"]["values"], json!(["warm", "formal"]));
    let result = client
        .request("completion/complete", complete("greeting", "name", "A"))
        .await
        .unwrap();
    assert_eq!(result["completion"]["values"], json!([]));
    let error = client
        .request("completion/complete", complete("nope", "x", ""))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    let error = client
        .request("completion/complete", complete("trips", "city", ""))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert_eq!(
        error.message,
        "Unknown prompt: `trips`; did you mean `trip`?"
    );
    let error = client
        .request("completion/complete", complete("trip", "town", ""))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
}

#[tokio::test]
async fn each_revision_gets_schema_valid_prompt_messages() {
    for revision in common::SESSION_REVISIONS {
        let client = Checked::connect(&server(), revision).await;
        client.request("prompts/list", json!({})).await.unwrap();
        client
            .request(
                "prompts/get",
                json!({"name": "greeting", "arguments": {"name": "Bo"}}),
            )
            .await
            .unwrap();
    }
}
