use mcp_runtime::prelude::*;

/// Starts a job.
#[mcp_tool]
fn start_job(#[header("Region Name")] region: String) -> String {
    region
}

fn main() {}
