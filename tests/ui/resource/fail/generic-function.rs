use mcp_runtime::prelude::*;

/// One category of the catalog.
#[mcp_resource(uri = "gifts://catalog/{category}")]
fn category<T: ToString>(category: T) -> String {
    category.to_string()
}

fn main() {}
