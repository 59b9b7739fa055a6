use mcp_runtime::prelude::*;

/// Starts a job.
#[mcp_tool]
fn start_job(#[header("Zone")] zone: String, #[header("zone")] backup_zone: String) -> String {
    format!("{zone} {backup_zone}")
}

fn main() {}
