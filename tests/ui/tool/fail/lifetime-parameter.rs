use mcp_runtime::prelude::*;

/// Greets someone: one error, on the borrowed parameter, not a second on `<'a>`.
#[mcp_tool]
fn greet<'a>(name: &'a str) -> String {
    format!("Hello, {name}!")
}

/// Returns a borrowed text: the lifetime parameter is the mistake.
#[mcp_tool]
fn motto<'a>() -> &'a str {
    "Gifts, fast."
}

fn main() {}
