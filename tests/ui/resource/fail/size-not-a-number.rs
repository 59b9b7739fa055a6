use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", size = "1 KiB")]
fn catalog() -> String {
    String::new()
}

fn main() {}
