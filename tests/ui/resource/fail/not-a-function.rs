use mcp_runtime::prelude::*;

/// The catalog.
#[mcp_resource(uri = "gifts://catalog")]
const CATALOG: &str = "{}";

fn main() {
    let _ = CATALOG;
}
