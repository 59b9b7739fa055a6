use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool(name = 5)]
fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
