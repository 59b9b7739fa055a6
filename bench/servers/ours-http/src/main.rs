//! The benchmark server written with mcp-runtime (bench-ours' `tools.rs`), served over
//! Streamable HTTP at `http://ADDR/mcp`, stateless: `bench-ours-http --http 127.0.0.1:PORT`.
//! With `--issuer URL --resource URL` it is an OAuth resource server that checks each
//! request's JWT access token against that issuer's keys (`bench/run-http --protected`).

#[path = "../../ours/src/tools.rs"]
mod tools;

use std::net::SocketAddr;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (addr, protection) = arguments()?;
    let server = mcp_runtime::server!().build()?;
    let mut options = mcp_runtime::HttpOptions::new().stateless(true);
    if let Some((issuer, resource)) = protection {
        options = options.resource_server(mcp_runtime::auth::ResourceServer::jwt(&issuer, &resource)?);
    }
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(async {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            server.serve_http(listener, options).await
        })?;
    Ok(())
}

type Arguments = (SocketAddr, Option<(String, String)>);

fn arguments() -> Result<Arguments, Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: bench-ours-http --http ADDR [--issuer URL --resource URL]";
    match args.as_slice() {
        [http, addr] if http == "--http" => Ok((addr.parse()?, None)),
        [http, addr, issuer_flag, issuer, resource_flag, resource]
            if http == "--http" && issuer_flag == "--issuer" && resource_flag == "--resource" =>
        {
            Ok((addr.parse()?, Some((issuer.clone(), resource.clone()))))
        }
        _ => Err(usage.into()),
    }
}
