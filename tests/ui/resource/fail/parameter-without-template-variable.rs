use mcp_runtime::prelude::*;

/// One page of a category.
#[mcp_resource(uri = "gifts://catalog/{category}")]
fn category(category: String, page: u32) -> String {
    format!("{category}, page {page}")
}

fn main() {}
