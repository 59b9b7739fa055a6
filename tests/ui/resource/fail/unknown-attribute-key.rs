use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", mimetype = "application/json")]
fn catalog() -> String {
    String::new()
}

fn main() {}
