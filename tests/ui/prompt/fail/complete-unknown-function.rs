use mcp_runtime::prelude::*;

/// A congratulation.
#[mcp_prompt]
fn congratulate(
    /// Who to congratulate.
    #[complete(names)]
    name: String,
) -> String {
    format!("Congratulate {name}.")
}

fn main() {}
