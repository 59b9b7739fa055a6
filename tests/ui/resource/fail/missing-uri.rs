use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(mime_type = "application/json")]
fn catalog() -> String {
    String::new()
}

fn main() {}
