use mcp_runtime::prelude::*;

/// Writes a note.
#[mcp_tool(scopes = [])]
fn write_note(text: String) -> String {
    text
}

fn main() {}
