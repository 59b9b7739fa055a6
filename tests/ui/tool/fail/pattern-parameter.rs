use mcp_runtime::prelude::*;

/// Adds two numbers.
#[mcp_tool]
fn add((a, b): (i32, i32)) -> String {
    (a + b).to_string()
}

fn main() {}
