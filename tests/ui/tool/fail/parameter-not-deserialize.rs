use mcp_runtime::prelude::*;

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
