use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool]
fn hello() -> impl std::fmt::Display {
    "hello"
}

fn main() {}
