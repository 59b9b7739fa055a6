use mcp_runtime::prelude::*;

/// Greets someone.
#[mcp_tool(title)]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Says goodbye.
#[mcp_tool(description("Says goodbye."))]
fn goodbye(name: String) -> String {
    format!("Goodbye, {name}!")
}

fn main() {}
