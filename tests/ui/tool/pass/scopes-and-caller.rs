use mcp_runtime::prelude::*;
use mcp_runtime::Tool;

/// Writes a note.
#[mcp_tool(scopes = ["notes:write", "notes:read"])]
fn write_note(caller: Caller, text: String) -> String {
    format!("{} wrote {text}", caller.subject())
}

/// Says who calls, if anyone was authenticated.
#[mcp_tool]
fn whoami(caller: Option<Caller>) -> String {
    caller.map_or_else(|| "nobody".to_owned(), |c| c.subject().to_owned())
}

fn main() {
    assert_eq!(write_note::SCOPES, ["notes:write", "notes:read"]);
    assert!(whoami::SCOPES.is_empty());
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<write_note>()
        .tool::<whoami>()
        .build()
        .unwrap();
}
