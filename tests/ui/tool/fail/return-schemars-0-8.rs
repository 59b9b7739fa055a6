use mcp_runtime::prelude::*;

// Derives schemars 0.8's `JsonSchema`, not the schemars 1.x trait the runtime uses.
#[derive(Serialize, schemars08::JsonSchema)]
#[schemars(crate = "schemars08")]
struct Point {
    x: f64,
    y: f64,
}

/// The origin.
#[mcp_tool]
fn origin() -> Point {
    Point { x: 0.0, y: 0.0 }
}

fn main() {}
