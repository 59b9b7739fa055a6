use mcp_runtime::prelude::*;

async fn categories(_prefix: &str) -> Vec<String> {
    vec!["books".to_owned()]
}

/// One category of the catalog.
#[mcp_resource(uri = "gifts://catalog/{category}")]
fn category(#[complete(categories)] category: String) -> String {
    category
}

fn main() {}
