use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool(
    name = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
)]
fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
