//! The three benchmark tools, as a user of mcp-runtime writes them.

use mcp_runtime::prelude::*;

/// Adds two integers.
#[mcp_tool(read_only)]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> String {
    (a + b).to_string()
}

/// Returns the text it is given.
#[mcp_tool(read_only)]
fn echo(
    /// The text to send back.
    text: String,
) -> String {
    text
}

/// What kind of record it is.
#[derive(Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Kind {
    Alpha,
    Beta,
    Gamma,
}

/// A point on a grid.
#[derive(Deserialize, JsonSchema)]
struct Point {
    /// Column.
    x: i64,
    /// Row.
    y: i64,
}

/// A record of eight mixed fields.
#[derive(Deserialize, JsonSchema)]
struct Record {
    /// The record's name.
    name: String,
    /// How many there are.
    count: i64,
    /// A score per item.
    score: f64,
    /// Whether it is active.
    active: bool,
    /// Labels.
    tags: Vec<String>,
    /// A free-form note.
    note: Option<String>,
    /// The kind of record.
    kind: Kind,
    /// Where it is.
    origin: Point,
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

/// Summarizes a record as a JSON object.
#[mcp_tool(read_only)]
fn summarize(
    /// The record to summarize.
    record: Record,
) -> String {
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
