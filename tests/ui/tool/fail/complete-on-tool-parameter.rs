use mcp_runtime::prelude::*;

fn names(_prefix: &str) -> Vec<String> {
    Vec::new()
}

/// Greets someone.
#[mcp_tool]
fn greet(#[complete(names)] name: String) -> String {
    format!("Hello, {name}!")
}

fn main() {}
