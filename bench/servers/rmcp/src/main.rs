//! The benchmark server written with rmcp: `#[tool_router]` tools in `tools.rs`, served over
//! stdio with `serve(stdio())`, or with `serve(stdio_pipes())` when given `--pipes`.

mod tools;

use rmcp::ServiceExt;
use rmcp::transport::{stdio, stdio_pipes};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = tools::Bench::new();
    let service = if std::env::args().any(|arg| arg == "--pipes") {
        server.serve(stdio_pipes()).await?
    } else {
        server.serve(stdio()).await?
    };
    service.waiting().await?;
    Ok(())
}
