use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool(readonly)]
fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
