use mcp_runtime::prelude::*;

/// One user message, as text.
#[mcp_prompt]
fn text() -> String {
    "Suggest a gift.".to_owned()
}

/// One user message, as static text.
#[mcp_prompt]
fn static_text() -> &'static str {
    "Suggest a gift."
}

/// One message.
#[mcp_prompt]
fn one_message() -> PromptMessage {
    PromptMessage::assistant("Which budget?")
}

/// A conversation.
#[mcp_prompt]
fn conversation() -> Vec<PromptMessage> {
    vec![
        PromptMessage::user("Suggest a gift."),
        PromptMessage::assistant("For whom?"),
    ]
}

/// A whole result, with its own description.
#[mcp_prompt]
fn whole_result() -> GetPromptResult {
    GetPromptResult {
        description: Some("A gift conversation".to_owned()),
        messages: vec![PromptMessage::user("Suggest a gift.")],
    }
}

/// A conversation, or an error message.
#[mcp_prompt]
fn conversation_or_message(for_whom: String) -> Result<Vec<PromptMessage>, String> {
    if for_whom.is_empty() {
        return Err("say for whom".to_owned());
    }
    Ok(vec![PromptMessage::user(format!(
        "Suggest a gift for {for_whom}."
    ))])
}

/// A message, or a handler error.
#[mcp_prompt]
fn message_or_handler_error() -> Result<PromptMessage, HandlerError> {
    Err(HandlerError::internal("no gifts today"))
}

/// One user message, later.
#[mcp_prompt]
async fn later() -> Result<String, std::io::Error> {
    Ok("Suggest a gift.".to_owned())
}

fn main() {
    // The functions stay callable as written.
    assert_eq!(text(), "Suggest a gift.");
    assert!(conversation_or_message(String::new()).is_err());

    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .prompt::<text>()
        .prompt::<static_text>()
        .prompt::<one_message>()
        .prompt::<conversation>()
        .prompt::<whole_result>()
        .prompt::<conversation_or_message>()
        .prompt::<message_or_handler_error>()
        .prompt::<later>()
        .build()
        .unwrap();
}
