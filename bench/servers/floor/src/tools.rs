//! The three benchmark tools, hand-written: typed argument structs decoded with serde_json.

use serde::{Deserialize, Serialize};

/// The `tools/list` result, written out by hand (the same tool definitions, byte for byte,
/// as the mcp-runtime server lists).
pub const LIST: &str = include_str!("tools_list.json");

#[derive(Deserialize)]
struct AddArgs {
    a: i64,
    b: i64,
}

pub fn add(arguments: &str) -> Result<String, serde_json::Error> {
    let AddArgs { a, b } = serde_json::from_str(arguments)?;
    Ok((a + b).to_string())
}

#[derive(Deserialize)]
struct EchoArgs {
    text: String,
}

pub fn echo(arguments: &str) -> Result<String, serde_json::Error> {
    let EchoArgs { text } = serde_json::from_str(arguments)?;
    Ok(text)
}

#[derive(Clone, Copy, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Alpha,
    Beta,
    Gamma,
}

#[derive(Deserialize)]
struct Point {
    x: i64,
    y: i64,
}

#[derive(Deserialize)]
struct Record {
    name: String,
    count: i64,
    score: f64,
    active: bool,
    tags: Vec<String>,
    note: Option<String>,
    kind: Kind,
    origin: Point,
}

#[derive(Deserialize)]
struct SummarizeArgs {
    record: Record,
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

pub fn summarize(arguments: &str) -> Result<String, serde_json::Error> {
    let SummarizeArgs { record } = serde_json::from_str(arguments)?;
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
    serde_json::to_string(&summary)
}
