use mcp_runtime::prelude::*;

/// Summarizes a text.
#[mcp_tool]
#[mcp_prompt]
fn summarize(text: String) -> String {
    format!("Summarize: {text}")
}

fn main() {}
