use mcp_runtime::prelude::*;

// Derives `JsonSchema` only: structured output is serialized too, and the error names the
// type inside the `Vec` that does not serialize.
#[derive(JsonSchema)]
struct Gift {
    name: String,
}

/// Suggests gifts.
#[mcp_tool]
fn suggest() -> Result<Vec<Gift>, String> {
    Ok(vec![Gift {
        name: "a book".to_owned(),
    }])
}

fn main() {}
