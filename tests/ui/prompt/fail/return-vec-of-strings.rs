use mcp_runtime::prelude::*;

/// A congratulation.
#[mcp_prompt]
fn congratulate(name: String) -> Vec<String> {
    vec![format!("Congratulate {name}."), "Keep it short.".to_owned()]
}

fn main() {}
