use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool]
fn hello(_: Context) -> String {
    "hello".to_owned()
}

fn main() {}
