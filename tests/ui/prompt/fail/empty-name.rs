use mcp_runtime::prelude::*;

/// A congratulation.
#[mcp_prompt(name = "")]
fn congratulate(name: String) -> String {
    format!("Congratulate {name}.")
}

fn main() {}
