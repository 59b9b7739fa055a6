use mcp_runtime::prelude::*;

/// One category of the catalog.
#[mcp_resource(uri = "gifts://{unclosed")]
fn category(unclosed: String) -> String {
    unclosed
}

fn main() {}
