use mcp_runtime::prelude::*;

fn categories(count: usize) -> Vec<String> {
    vec!["books".to_owned(); count]
}

/// One category of the catalog.
#[mcp_resource(uri = "gifts://catalog/{category}")]
fn category(#[complete(categories)] category: String) -> String {
    category
}

fn main() {}
