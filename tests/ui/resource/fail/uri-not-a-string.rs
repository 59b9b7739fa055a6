use mcp_runtime::prelude::*;

const CATALOG_URI: &str = "gifts://catalog";

/// The catalog.
#[mcp_resource(uri = CATALOG_URI)]
fn catalog() -> String {
    String::new()
}

fn main() {
    let _ = CATALOG_URI;
}
