use mcp_runtime::prelude::*;

/// Echoes its argument.
#[mcp_tool]
fn echo<T: ToString>(value: T) -> String {
    value.to_string()
}

fn main() {}
