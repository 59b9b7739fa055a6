use mcp_runtime::prelude::*;

/// Deletes a file (this doc comment is replaced by `description`).
#[mcp_tool(
    name = "files.delete-one_v2",
    title = "Delete a file",
    description = "Deletes one file by path.",
    read_only = false,
    destructive,
    idempotent = true,
    open_world = false,
    task_support = "optional",
    crate = ::mcp_runtime,
)]
fn delete_file(path: String) -> String {
    format!("deleted {path}")
}

/// Reads a file.
#[mcp_tool(read_only, destructive = false, idempotent, open_world)]
fn read_file(path: String) -> String {
    format!("read {path}")
}

/// Only ever a task.
#[mcp_tool(task_support = "required")]
async fn crunch() -> String {
    "crunched".to_owned()
}

/// Described by its attribute only.
#[mcp_tool(description = "Lists files.")]
fn list_files() -> Vec<String> {
    Vec::new()
}

fn main() {
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<delete_file>()
        .tool::<read_file>()
        .tool::<list_files>()
        .tool::<crunch>()
        .build()
        .unwrap();
    assert_eq!(
        server.tool_names(),
        ["crunch", "files.delete-one_v2", "list_files", "read_file"]
    );
}
