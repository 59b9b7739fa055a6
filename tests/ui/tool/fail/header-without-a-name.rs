use mcp_runtime::prelude::*;

/// Starts a job.
#[mcp_tool]
fn start_job(#[header] priority: u8) -> String {
    priority.to_string()
}

fn main() {}
