use mcp_runtime::prelude::*;

/// Greets someone.
#[mcp_tool("greet_user")]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

fn main() {}
