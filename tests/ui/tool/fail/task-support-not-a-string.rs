use mcp_runtime::prelude::*;

/// Runs for a long time.
#[mcp_tool(task_support = true)]
fn crunch() -> String {
    "done".to_owned()
}

fn main() {}
