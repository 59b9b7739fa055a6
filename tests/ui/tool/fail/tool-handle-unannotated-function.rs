use mcp_runtime::prelude::*;

/// Says hello, but `#[mcp_tool]` is missing.
fn hello() -> Content {
    Content::text("hello")
}

fn main() {
    let _ = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<hello>();
}
