use mcp_runtime::prelude::*;

/// Says hello.
#[mcp_tool]
fn hello() -> String
where
    String: Clone,
{
    "hello".to_owned()
}

fn main() {}
