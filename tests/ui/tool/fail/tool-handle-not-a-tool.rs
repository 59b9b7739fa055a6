use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool]
fn hello() -> String {
    "hello".to_owned()
}

/// Not a tool: a plain struct.
struct NotATool;

fn main() {
    let _ = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<hello>()
        .tool::<NotATool>();
}
