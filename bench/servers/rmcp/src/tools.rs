//! The three benchmark tools, as rmcp 3.11's documentation shows tools: a `#[tool_router]`
//! impl with `Parameters<T>` arguments, and `#[tool_handler] impl ServerHandler` (which, by
//! default, calls `Self::tool_router()`, so the router is not stored in a field).

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};

#[derive(Deserialize, schemars::JsonSchema)]
pub struct AddArgs {
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct EchoArgs {
    /// The text to send back.
    text: String,
}

/// What kind of record it is.
#[derive(Clone, Copy, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Alpha,
    Beta,
    Gamma,
}

/// A point on a grid.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Point {
    /// Column.
    x: i64,
    /// Row.
    y: i64,
}

/// A record of eight mixed fields.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Record {
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

#[derive(Deserialize, schemars::JsonSchema)]
pub struct SummarizeArgs {
    /// The record to summarize.
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

#[cfg(not(feature = "stored-router"))]
#[derive(Clone)]
pub struct Bench;

/// The other documented shape (rmcp's `Counter` example): the router built once and kept in a
/// field, and `#[tool_handler(router = self.tool_router)]`.
#[cfg(feature = "stored-router")]
#[derive(Clone)]
pub struct Bench {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[cfg(feature = "stored-router")]
impl Bench {
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }
}

#[cfg(not(feature = "stored-router"))]
impl Bench {
    pub fn new() -> Self {
        Self
    }
}

#[tool_router]
impl Bench {
    #[tool(description = "Adds two integers.", annotations(read_only_hint = true))]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }

    #[tool(
        description = "Returns the text it is given.",
        annotations(read_only_hint = true)
    )]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }

    #[tool(
        description = "Summarizes a record as a JSON object.",
        annotations(read_only_hint = true)
    )]
    fn summarize(&self, Parameters(SummarizeArgs { record }): Parameters<SummarizeArgs>) -> String {
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
}

#[cfg_attr(not(feature = "stored-router"), tool_handler)]
#[cfg_attr(feature = "stored-router", tool_handler(router = self.tool_router))]
impl ServerHandler for Bench {}
