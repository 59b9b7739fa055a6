use mcp_runtime::prelude::*;

/// Lists notes.
#[mcp_tool]
fn list_notes(
    #[serde(default)] limit: u32,
    /// How many sides.
    #[schemars(range(min = 1, max = 100))]
    sides: u32,
) -> String {
    format!("{limit} notes, {sides} sides")
}

fn main() {}
