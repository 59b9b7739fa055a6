use mcp_runtime::prelude::*;

/// The gifts of one category.
#[mcp_resource(uri = "gifts://catalog/{categry}")]
fn category(category: String) -> String {
    format!("gifts in {category}")
}

fn main() {}
