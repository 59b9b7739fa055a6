use mcp_runtime::prelude::*;

/// A point.
#[mcp_tool]
struct Point {
    x: f64,
    y: f64,
}

fn main() {
    let _ = Point { x: 0.0, y: 0.0 };
}
