use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gift catalog")]
fn catalog() -> String {
    String::new()
}

fn main() {}
