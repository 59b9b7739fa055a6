use mcp_runtime::prelude::*;

/// One gift of a category.
#[mcp_resource(uri = "gifts://catalog/{category}/{gift}")]
fn gift(category: String) -> String {
    category
}

fn main() {}
