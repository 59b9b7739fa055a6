//! The benchmark server written with rmcp (bench-rmcp's `tools.rs`), served over Streamable
//! HTTP at `http://ADDR/mcp` with `StreamableHttpService` nested in an axum router, the way
//! rmcp's examples do: `bench-rmcp-http --http 127.0.0.1:PORT`. Stateless
//! (`legacy_session_mode: false`, a `NeverSessionManager`) and `json_response: true`, so a
//! tools/call is answered `application/json` without a session, as ours is.

#[path = "../../rmcp/src/tools.rs"]
mod tools;

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = http_addr()?;
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true);
    let service = StreamableHttpService::new(
        || Ok(tools::Bench::new()),
        Arc::new(NeverSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("bench-rmcp-http: MCP over Streamable HTTP at http://{addr}/mcp");
    axum::serve(listener, app).await?;
    Ok(())
}

fn http_addr() -> Result<SocketAddr, Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(addr)) => Ok(addr.parse()?),
        _ => Err("usage: bench-rmcp-http --http ADDR".into()),
    }
}
