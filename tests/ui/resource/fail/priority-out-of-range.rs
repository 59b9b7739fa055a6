use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", priority = 1.5)]
fn catalog() -> String {
    String::new()
}

fn main() {}
