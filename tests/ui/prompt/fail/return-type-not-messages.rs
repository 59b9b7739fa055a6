use mcp_runtime::prelude::*;

/// A congratulation, as a number.
#[mcp_prompt]
fn congratulate(name: String) -> u32 {
    name.len() as u32
}

fn main() {}
