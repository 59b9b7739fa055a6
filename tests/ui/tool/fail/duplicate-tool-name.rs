use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool(name = "same")]
fn hello() -> String {
    "hello".to_owned()
}

/// Says goodbye.
#[mcp_tool(name = "same")]
fn goodbye() -> String {
    "goodbye".to_owned()
}

fn main() {}
