use mcp_runtime::prelude::*;

struct Category {
    name: String,
}

/// One category of the catalog.
#[mcp_resource(uri = "gifts://catalog/{category}")]
fn category(category: Category) -> String {
    category.name
}

fn main() {}
