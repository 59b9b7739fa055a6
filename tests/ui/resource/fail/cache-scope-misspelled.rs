use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", cache_scope = "Public")]
fn catalog() -> String {
    String::new()
}

fn main() {}
