use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool(read_only = "yes")]
fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
