use mcp_runtime::prelude::*;

/// A congratulation.
#[mcp_prompt]
fn congratulate(name: &str) -> String {
    format!("Congratulate {name}.")
}

fn main() {}
