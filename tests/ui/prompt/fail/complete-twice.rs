use mcp_runtime::prelude::*;

fn names(_prefix: &str) -> Vec<String> {
    Vec::new()
}

fn friends(_prefix: &str) -> Vec<String> {
    Vec::new()
}

/// A congratulation.
#[mcp_prompt]
fn congratulate(
    #[complete(names)]
    #[complete(friends)]
    name: String,
) -> String {
    format!("Congratulate {name}.")
}

fn main() {}
