use mcp_runtime::prelude::*;

#[derive(Debug)]
struct NotFound;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog")]
fn catalog() -> Result<String, NotFound> {
    Err(NotFound)
}

fn main() {}
