use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog", uri = "gifts://catalog/all")]
fn catalog() -> String {
    String::new()
}

fn main() {}
