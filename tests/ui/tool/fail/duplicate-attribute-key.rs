use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool(name = "hello", name = "greet")]
fn hello() -> String {
    "hello".to_owned()
}

fn main() {}
