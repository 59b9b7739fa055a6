use mcp_runtime::prelude::*;

// Derives `Serialize` only (as a resource's return type may): structured output needs a
// schema too, and the error names the type inside the `Vec` that has none.
#[derive(Serialize)]
struct Gift {
    name: String,
    price: f64,
}

/// Suggests gifts within a budget.
#[mcp_tool]
fn suggest(budget: f64) -> Result<Vec<Gift>, String> {
    Ok(vec![Gift {
        name: "book".to_owned(),
        price: budget,
    }])
}

fn main() {}
