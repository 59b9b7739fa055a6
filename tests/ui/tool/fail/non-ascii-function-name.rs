use mcp_runtime::prelude::*;

/// Orders a coffee.
#[mcp_tool]
fn café() -> String {
    "espresso".to_owned()
}

fn main() {}
