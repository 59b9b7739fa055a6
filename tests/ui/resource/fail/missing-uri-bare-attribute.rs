use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource]
fn catalog() -> String {
    String::new()
}

fn main() {}
