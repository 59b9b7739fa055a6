use mcp_runtime::prelude::*;

struct Catalog {
    categories: Vec<String>,
}

/// The catalog.
#[mcp_resource(uri = "gifts://catalog")]
fn catalog() -> Catalog {
    Catalog {
        categories: Vec::new(),
    }
}

fn main() {
    let _ = catalog().categories;
}
