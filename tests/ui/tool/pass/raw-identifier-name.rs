use mcp_runtime::prelude::*;

/// Tells the JSON type of a value.
#[mcp_tool]
fn r#type(
    /// A parameter named with a keyword.
    r#ref: String,
) -> String {
    r#ref
}

fn main() {
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<r#type>()
        .build()
        .unwrap();
    assert_eq!(server.tool_names(), ["type"]);
}
