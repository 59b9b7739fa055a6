use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", cache_ttl_ms = -1)]
fn catalog() -> String {
    String::new()
}

fn main() {}
