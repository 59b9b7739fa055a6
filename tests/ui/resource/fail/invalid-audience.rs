use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", audience = "model")]
fn catalog() -> String {
    String::new()
}

fn main() {}
