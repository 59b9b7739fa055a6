use mcp_runtime::prelude::*;

fn requests(_prefix: &str) -> Vec<String> {
    Vec::new()
}

/// A congratulation.
#[mcp_prompt]
fn congratulate(#[complete(requests)] ctx: Context, name: String) -> String {
    format!("Congratulate {name} ({:?}).", ctx.request_id())
}

fn main() {}
