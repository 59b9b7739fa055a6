use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool(name = "has space")]
fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
