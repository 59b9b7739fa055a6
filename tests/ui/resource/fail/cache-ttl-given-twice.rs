use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", cache_ttl_ms = 60_000, cache_ttl_ms = 1_000)]
fn catalog() -> String {
    String::new()
}

fn main() {}
