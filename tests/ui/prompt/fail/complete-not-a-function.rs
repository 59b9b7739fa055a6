use mcp_runtime::prelude::*;

const NAMES: [&str; 2] = ["Ada", "Grace"];

/// A congratulation.
#[mcp_prompt]
fn congratulate(
    /// Who to congratulate.
    #[complete(NAMES)]
    name: String,
) -> String {
    format!("Congratulate {name}.")
}

fn main() {}
