use mcp_runtime::prelude::*;

struct Point {
    x: f64,
    y: f64,
}

/// The origin.
#[mcp_tool]
fn origin() -> Point {
    Point { x: 0.0, y: 0.0 }
}

fn main() {
    let Point { x, y } = origin();
    let _ = (x, y);
}
