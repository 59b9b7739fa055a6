use mcp_runtime::prelude::*;

#[mcp_tool]
fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
