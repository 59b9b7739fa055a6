use mcp_runtime::prelude::*;

/// Starts a job in a region.
#[mcp_tool]
fn start_job(
    /// Where to run, also sent as the `Mcp-Param-Region` header.
    #[header("Region")]
    region: String,
    /// How many workers, also sent as `Mcp-Param-Workers`.
    #[header("Workers")]
    workers: Option<u32>,
    /// Whether to only pretend, also sent as `Mcp-Param-Dry-Run`.
    #[header("Dry-Run")]
    dry_run: bool,
    /// Not mirrored.
    note: Option<String>,
) -> String {
    format!("{region} {workers:?} {dry_run} {note:?}")
}

fn main() {
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<start_job>()
        .build()
        .unwrap();
    let _ = server;
    let schema = {
        let mut specs = mcp_runtime::InputSchema::new();
        let definition = <start_job as mcp_runtime::Tool>::definition(&mut specs);
        serde_json::Value::Object(definition.input_schema)
    };
    assert_eq!(schema["properties"]["region"]["x-mcp-header"], "Region");
    assert_eq!(schema["properties"]["workers"]["x-mcp-header"], "Workers");
    assert_eq!(schema["properties"]["dry_run"]["x-mcp-header"], "Dry-Run");
    assert!(schema["properties"]["note"].get("x-mcp-header").is_none());
}
