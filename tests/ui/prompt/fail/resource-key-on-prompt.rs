use mcp_runtime::prelude::*;

/// A congratulation.
#[mcp_prompt(uri = "prompts://congratulate")]
fn congratulate(name: String) -> String {
    format!("Congratulate {name}.")
}

fn main() {}
