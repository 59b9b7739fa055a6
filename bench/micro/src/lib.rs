//! The benchmark tools (the same `add`, `echo` and `summarize` as `servers/ours`), a server
//! with them, and the messages the micro-benchmarks in `benches/hot_path.rs` feed it.

use mcp_runtime::prelude::*;
use mcp_runtime::{Server, server_info};

/// Adds two integers.
#[mcp_tool(read_only)]
pub fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> String {
    (a + b).to_string()
}

/// Returns the text it is given.
#[mcp_tool(read_only)]
pub fn echo(
    /// The text to send back.
    text: String,
) -> String {
    text
}

/// What kind of record it is.
#[derive(Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Alpha,
    Beta,
    Gamma,
}

/// A point on a grid.
#[derive(Deserialize, JsonSchema)]
pub struct Point {
    /// Column.
    pub x: i64,
    /// Row.
    pub y: i64,
}

/// A record of eight mixed fields.
#[derive(Deserialize, JsonSchema)]
pub struct Record {
    /// The record's name.
    pub name: String,
    /// How many there are.
    pub count: i64,
    /// A score per item.
    pub score: f64,
    /// Whether it is active.
    pub active: bool,
    /// Labels.
    pub tags: Vec<String>,
    /// A free-form note.
    pub note: Option<String>,
    /// The kind of record.
    pub kind: Kind,
    /// Where it is.
    pub origin: Point,
}

#[derive(Serialize)]
struct Summary<'a> {
    name: &'a str,
    kind: Kind,
    tags: usize,
    first_tag: Option<&'a str>,
    total: f64,
    active: bool,
    note_chars: usize,
    distance: i64,
}

/// The JSON summary `summarize` returns.
pub fn summary(record: &Record) -> String {
    let summary = Summary {
        name: &record.name,
        kind: record.kind,
        tags: record.tags.len(),
        first_tag: record.tags.first().map(String::as_str),
        total: record.count as f64 * record.score,
        active: record.active,
        note_chars: record.note.as_deref().map_or(0, |n| n.chars().count()),
        distance: record.origin.x.abs() + record.origin.y.abs(),
    };
    serde_json::to_string(&summary).expect("a summary serializes")
}

/// Summarizes a record as a JSON object.
#[mcp_tool(read_only)]
pub fn summarize(
    /// The record to summarize.
    record: Record,
) -> String {
    summary(&record)
}

/// A server with the three tools.
pub fn server() -> Server {
    Server::builder(server_info!())
        .tool::<add>()
        .tool::<echo>()
        .tool::<summarize>()
        .build()
        .expect("the benchmark server builds")
}

/// The `arguments` of the `summarize` call the benchmarks send.
pub const RECORD_ARGUMENTS: &str = r#"{"record":{"name":"record-12","count":16,"score":1.75,"active":true,"tags":["red","green","blue"],"note":"a note with ünïcode, number 12","kind":"beta","origin":{"x":2,"y":9}}}"#;

/// A `tools/call` request for `tool` with `arguments` (JSON text).
pub fn call(id: u64, tool: &str, arguments: &str) -> Vec<u8> {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
    )
    .into_bytes()
}

/// The handshake every benchmark's session does first.
pub const INITIALIZE: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}"#;
