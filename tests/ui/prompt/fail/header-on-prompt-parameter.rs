use mcp_runtime::prelude::*;

/// Writes a greeting.
#[mcp_prompt]
fn greeting(#[header("Name")] name: String) -> String {
    format!("Greet {name}.")
}

fn main() {}
