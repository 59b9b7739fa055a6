use mcp_runtime::prelude::*;

/// Writes a note.
#[mcp_tool(scopes = [notes_write])]
fn write_note(text: String) -> String {
    text
}

fn main() {}
