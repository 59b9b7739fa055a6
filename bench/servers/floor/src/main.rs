//! The floor: an MCP server for the benchmark tools with no framework at all. One thread,
//! blocking reads of stdin, typed serde_json decoding straight from the line, replies written
//! into a buffer that is flushed whenever no more input is already waiting.
//!
//! A request of revision 2026-07-28 (its `_meta` names the revision) is served too, doing the
//! least that revision asks: the revision and the client's capabilities are read and checked,
//! and the result says it is complete and who answers.

mod tools;

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::os::fd::AsFd;

use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    method: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct InitializeParams<'a> {
    #[serde(borrow, rename = "protocolVersion")]
    protocol_version: Cow<'a, str>,
}

#[derive(Deserialize)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(borrow, default, rename = "_meta")]
    meta: Option<Meta<'a>>,
}

/// The `_meta` of a request of revision 2026-07-28.
#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(borrow, default, rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<&'a RawValue>,
}

impl Meta<'_> {
    /// Whether the request claims revision 2026-07-28; `Err` if the claim is malformed or
    /// names another revision.
    fn stateless(&self) -> Result<bool, (i64, String)> {
        match &self.protocol_version {
            None => Ok(false),
            Some(version) if version == "2026-07-28" => {
                match self.client_capabilities.map(|c| c.get().starts_with('{')) {
                    Some(true) => Ok(true),
                    _ => Err((-32602, "`_meta` lacks clientCapabilities".to_owned())),
                }
            }
            Some(_) => Err((-32022, "unsupported protocol version".to_owned())),
        }
    }
}

/// What a complete result of revision 2026-07-28 adds after its own fields.
const STATELESS_TAIL: &str = r#","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"bench-floor","version":"0.0.0"}}"#;

const REVISIONS: [&str; 3] = ["2025-11-25", "2025-06-18", "2025-03-26"];

fn main() -> io::Result<()> {
    let input = File::from(io::stdin().as_fd().try_clone_to_owned()?);
    let output = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    let mut input = BufReader::with_capacity(64 * 1024, input);
    let mut output = BufWriter::with_capacity(64 * 1024, output);
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        if let Some(reply) = handle(&line) {
            output.write_all(&reply)?;
            output.write_all(b"\n")?;
        }
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
    output.flush()
}

/// The reply to one line, if it needs one.
fn handle(line: &[u8]) -> Option<Vec<u8>> {
    let message: Message<'_> = match serde_json::from_slice(line) {
        Ok(message) => message,
        Err(error) => {
            return Some(error_reply(
                "null",
                -32700,
                &format!("invalid JSON: {error}"),
            ));
        }
    };
    let id = message.id?.get();
    let params = message.params.map_or("{}", RawValue::get);
    let result = match message.method.as_deref() {
        Some("tools/call") => return Some(call_tool(id, params)),
        Some("tools/list") => Ok(tools::LIST.to_owned()),
        Some("ping") => Ok("{}".to_owned()),
        Some("initialize") => initialize(params),
        Some(other) => Err((-32601, format!("Method not found: `{other}`"))),
        None => Err((-32600, "a request needs a `method`".to_owned())),
    };
    Some(match result {
        Ok(result) => result_reply(id, &result),
        Err((code, message)) => error_reply(id, code, &message),
    })
}

fn initialize(params: &str) -> Result<String, (i64, String)> {
    let params: InitializeParams<'_> =
        serde_json::from_str(params).map_err(|e| (-32602, format!("invalid params: {e}")))?;
    let revision = REVISIONS
        .iter()
        .find(|r| **r == params.protocol_version)
        .unwrap_or(&REVISIONS[0]);
    Ok(format!(
        r#"{{"protocolVersion":"{revision}","capabilities":{{"tools":{{}}}},"serverInfo":{{"name":"bench-floor","version":"0.0.0"}}}}"#
    ))
}

fn call_tool(id: &str, params: &str) -> Vec<u8> {
    let params: CallParams<'_> = match serde_json::from_str(params) {
        Ok(params) => params,
        Err(error) => return error_reply(id, -32602, &format!("invalid params: {error}")),
    };
    let stateless = match params.meta.as_ref().map_or(Ok(false), Meta::stateless) {
        Ok(stateless) => stateless,
        Err((code, message)) => return error_reply(id, code, &message),
    };
    let arguments = params.arguments.map_or("{}", RawValue::get);
    let outcome = match &*params.name {
        "add" => tools::add(arguments),
        "echo" => tools::echo(arguments),
        "summarize" => tools::summarize(arguments),
        other => return error_reply(id, -32602, &format!("Unknown tool: `{other}`")),
    };
    let (text, is_error) = match outcome {
        Ok(text) => (text, false),
        Err(error) => (format!("Invalid arguments: {error}"), true),
    };
    let mut out = Vec::with_capacity(96 + text.len());
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    out.extend_from_slice(id.as_bytes());
    out.extend_from_slice(br#","result":{"content":[{"type":"text","text":"#);
    serde_json::to_writer(&mut out, &text).expect("a string serializes");
    out.extend_from_slice(if is_error {
        br#"}],"isError":true"#
    } else {
        br#"}]"#
    });
    if stateless {
        out.extend_from_slice(STATELESS_TAIL.as_bytes());
    }
    out.extend_from_slice(b"}}");
    out
}

fn result_reply(id: &str, result: &str) -> Vec<u8> {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#).into_bytes()
}

fn error_reply(id: &str, code: i64, message: &str) -> Vec<u8> {
    let message = serde_json::to_string(message).expect("a string serializes");
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{message}}}}}"#)
        .into_bytes()
}
