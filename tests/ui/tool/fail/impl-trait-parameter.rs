use mcp_runtime::prelude::*;

/// Shows a value.
#[mcp_tool]
fn show(value: impl std::fmt::Display) -> String {
    value.to_string()
}

fn main() {}
