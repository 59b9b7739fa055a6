//! A server whose tools talk back while they run: progress, cancellation, log messages,
//! questions to the user (elicitation) and to the client's model (sampling), and tools added
//! while the server runs.
//!
//! ```text
//! cargo run --release --example companion                        # stdio
//! cargo run --release --example companion -- --http 127.0.0.1:8000  # Streamable HTTP at /mcp
//! ```

use std::time::Duration;

use mcp_runtime::prelude::*;
use mcp_runtime::{DynamicTool, LoggingLevel};

/// Counts to `steps`, reporting progress at each step; stops early when cancelled.
#[mcp_tool(read_only)]
async fn slow_count(
    ctx: Context,
    /// How far to count.
    steps: u32,
    /// The pause between steps, in milliseconds.
    delay_ms: u64,
) -> String {
    for step in 1..=steps {
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(delay_ms)) => {}
            () = ctx.cancelled() => return format!("cancelled at {}", step - 1),
        }
        ctx.report_progress(
            f64::from(step),
            Some(f64::from(steps)),
            Some(&format!("step {step} of {steps}")),
        );
    }
    format!("counted to {steps}")
}

/// What the user is asked to fill in.
#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead with the action?
    confirmed: bool,
    /// Anything to add.
    note: Option<String>,
}

/// Asks the user to confirm an action, and says what they answered.
#[mcp_tool]
async fn confirm_action(
    ctx: Context,
    /// The action to confirm, in a few words.
    action: String,
) -> Result<String, ClientError> {
    let answer = ctx
        .elicit::<Confirmation>(&format!("Do you want to {action}?"))
        .await?;
    Ok(match answer {
        Elicitation::Accept(Confirmation {
            confirmed: true,
            note,
        }) => match note {
            Some(note) => format!("confirmed: {action} (note: {note})"),
            None => format!("confirmed: {action}"),
        },
        Elicitation::Accept(Confirmation {
            confirmed: false, ..
        }) => {
            format!("not confirmed: the user unticked {action}")
        }
        Elicitation::Decline => format!("declined: the user does not want to {action}"),
        Elicitation::Cancel => "cancelled: the user dismissed the question".to_owned(),
    })
}

/// Asks the client's model a question and returns its answer.
#[mcp_tool]
async fn ask_model(
    ctx: Context,
    /// The question.
    question: String,
) -> Result<String, ClientError> {
    ctx.ask_model(question, 200).await
}

/// Sends one log message at each level from debug to error.
#[mcp_tool]
fn log_levels(ctx: Context) -> String {
    let levels = [
        LoggingLevel::Debug,
        LoggingLevel::Info,
        LoggingLevel::Notice,
        LoggingLevel::Warning,
        LoggingLevel::Error,
    ];
    for level in levels {
        let name = format!("{level:?}").to_lowercase();
        ctx.log(
            level,
            Some("companion"),
            &format!("this is a {name} message"),
        );
    }
    format!("sent {} log messages", levels.len())
}

/// Registers a tool `greet_<name>` that greets `name`.
#[mcp_tool]
fn add_greeter(
    ctx: Context,
    /// Who the new tool greets (letters, digits, `_`, `.` or `-`).
    name: String,
) -> Result<String, mcp_runtime::BuildError> {
    let greeting = format!("Hello, {name}!");
    let tool = DynamicTool::new(format!("greet_{name}"), format!("Greets {name}.")).handler(
        move |_ctx, _arguments| {
            let greeting = greeting.clone();
            async move { CallToolResult::text(greeting) }
        },
    );
    ctx.server().add_dynamic_tool(tool)?;
    Ok(format!("added the tool greet_{name}"))
}

fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::server!().name("companion").run()
}
