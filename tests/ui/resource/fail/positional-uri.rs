use mcp_runtime::prelude::*;

/// The gift catalog.
#[mcp_resource("gifts://catalog")]
fn catalog() -> String {
    "books, games".to_owned()
}

fn main() {}
