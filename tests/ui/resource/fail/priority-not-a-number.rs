use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", priority = "high")]
fn catalog() -> String {
    String::new()
}

fn main() {}
