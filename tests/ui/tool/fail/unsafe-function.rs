use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool]
unsafe fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
