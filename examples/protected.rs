//! A server only holders of an access token may call: an OAuth 2.1 resource server over
//! Streamable HTTP. Tokens are JWTs signed by the authorization server `--issuer` names, for
//! the resource `--audience` names (by default `http://ADDRESS/mcp`, where this serves).
//!
//! ```text
//! cargo run --release --example protected -- --http 127.0.0.1:8000 \
//!     --issuer https://auth.example.com --audience http://127.0.0.1:8000/mcp
//! ```
//!
//! `whoami` answers any valid token with its subject; `write_note` needs the scope
//! `notes:write` (a token without it gets `403` with `error="insufficient_scope"`). The
//! Protected Resource Metadata is at `/.well-known/oauth-protected-resource/mcp`.

use std::net::SocketAddr;
use std::sync::Mutex;

use mcp_runtime::HttpOptions;
use mcp_runtime::auth::ResourceServer;
use mcp_runtime::prelude::*;

/// Says who is calling: the subject of the access token.
#[mcp_tool(read_only)]
fn whoami(caller: Caller) -> String {
    caller.subject().to_owned()
}

/// Writes a note (kept in memory while the server runs); says how many notes there are.
#[mcp_tool(scopes = ["notes:write"])]
fn write_note(
    caller: Caller,
    notes: State<Notes>,
    /// What the note says.
    text: String,
) -> String {
    let mut notes = notes.written.lock().unwrap_or_else(|e| e.into_inner());
    notes.push((caller.subject().to_owned(), text));
    format!("note {} written by {}", notes.len(), caller.subject())
}

/// The notes written, with their authors.
#[derive(Default)]
struct Notes {
    written: Mutex<Vec<(String, String)>>,
}

/// What the command line asks for.
struct Options {
    http: SocketAddr,
    issuer: String,
    audience: String,
}

const USAGE: &str = "usage: protected --http ADDRESS --issuer ISSUER_URL [--audience RESOURCE_URL]";

impl Options {
    /// The options; `None` when `--help` asks for the usage.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Options>, String> {
        let (mut http, mut issuer, mut audience) = (None, None, None);
        while let Some(arg) = args.next() {
            let slot = match arg.as_str() {
                "--http" => &mut http,
                "--issuer" => &mut issuer,
                "--audience" => &mut audience,
                "--help" | "-h" => return Ok(None),
                other => return Err(format!("unknown argument `{other}`\n{USAGE}")),
            };
            let Some(value) = args.next() else {
                return Err(format!("`{arg}` needs a value\n{USAGE}"));
            };
            *slot = Some(value);
        }
        let Some(issuer) = issuer else {
            return Err(format!(
                "refusing to start without `--issuer`: a protected server accepts only the tokens \
                 of the authorization server it names (such as `--issuer https://auth.example.com`)\n{USAGE}"
            ));
        };
        let Some(http) = http else {
            return Err(format!(
                "`--http ADDRESS` is needed: authorization applies to Streamable HTTP (a stdio \
                 server takes its credentials from the environment)\n{USAGE}"
            ));
        };
        let http: SocketAddr = http.parse().map_err(|e| {
            format!("`--http {http}`: {e} (use an IP and a port, such as 127.0.0.1:8000)")
        })?;
        let audience = audience.unwrap_or_else(|| format!("http://{http}/mcp"));
        Ok(Some(Options {
            http,
            issuer,
            audience,
        }))
    }
}

#[tokio::main]
async fn main() -> Result<(), mcp_runtime::Error> {
    let Some(options) =
        Options::parse(std::env::args().skip(1)).map_err(mcp_runtime::Error::Usage)?
    else {
        // Asked for by a person, at a terminal: no client reads this server's stdout.
        println!("{USAGE}");
        return Ok(());
    };
    let protection =
        ResourceServer::jwt(&options.issuer, &options.audience)?.scopes_supported(["notes:write"]);
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .name("protected")
        .tool::<whoami>()
        .tool::<write_note>()
        .state(Notes::default())
        .build()?;
    let listener = tokio::net::TcpListener::bind(options.http)
        .await
        .map_err(|error| {
            std::io::Error::new(
                error.kind(),
                format!("cannot listen on {}: {error}", options.http),
            )
        })?;
    server
        .serve_http(listener, HttpOptions::new().resource_server(protection))
        .await
}
