use mcp_runtime::prelude::*;

/// Greets someone.
#[mcp_tool]
fn greet(name: &str) -> String {
    format!("Hello, {name}!")
}

fn main() {}
