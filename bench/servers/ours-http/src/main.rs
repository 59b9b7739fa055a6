//! The benchmark server written with mcp-runtime (bench-ours' `tools.rs`), served over
//! Streamable HTTP at `http://ADDR/mcp`, stateless: `bench-ours-http --http 127.0.0.1:PORT`.

#[path = "../../ours/src/tools.rs"]
mod tools;

use std::net::SocketAddr;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = http_addr()?;
    let server = mcp_runtime::server!().build()?;
    let options = mcp_runtime::HttpOptions::new().stateless(true);
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            server.serve_http(listener, options).await
        })?;
    Ok(())
}

fn http_addr() -> Result<SocketAddr, Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(addr)) => Ok(addr.parse()?),
        _ => Err("usage: bench-ours-http --http ADDR".into()),
    }
}
