use mcp_runtime::prelude::*;

/// Adds two numbers.
#[mcp_tool]
fn add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

/// Adds two numbers, later.
#[mcp_tool]
async fn add_later(a: i64, b: i64) -> String {
    (a + b).to_string()
}

fn main() {
    // The functions stay callable as written.
    assert_eq!(add(1, 2), "3");
    let _future = add_later(1, 2);

    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<add>()
        .tool::<add_later>()
        .build()
        .unwrap();
    assert_eq!(server.tool_names(), ["add", "add_later"]);
}
