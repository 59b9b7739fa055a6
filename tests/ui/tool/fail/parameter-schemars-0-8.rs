use mcp_runtime::prelude::*;

// Derives schemars 0.8's `JsonSchema`, not the schemars 1.x trait the runtime uses.
#[derive(Deserialize, schemars08::JsonSchema)]
#[schemars(crate = "schemars08")]
struct Point {
    x: f64,
    y: f64,
}

/// The distance of a point from the origin.
#[mcp_tool]
fn norm(point: Point) -> String {
    point.x.hypot(point.y).to_string()
}

fn main() {}
