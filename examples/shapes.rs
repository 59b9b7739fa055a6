//! A server with one tool per shape serde and schemars can give an argument: optional fields in
//! nested structs, enums of every tagging, lists, arrays, tuples, maps, nested enums with data
//! and recursive types. Each tool returns its argument, so its `outputSchema` is exercised too.
//!
//! The interop tests (`tests/interop.rs`) compile every `inputSchema` with the validators real
//! clients use (ajv as the TypeScript SDK and strict hosts set it up, Python `jsonschema`) and
//! check sample arguments (`tests/interop/shapes.json`) against them.
//!
//! ```text
//! cargo run --example shapes
//! ```

use std::collections::{BTreeMap, HashMap};

use mcp_runtime::prelude::*;

/// A sort order: an enum of unit variants.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Order {
    Newest,
    Oldest,
}

/// A nested struct with optional fields of every kind.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Query {
    /// Words to look for.
    text: String,
    /// The order, if any.
    order: Option<Order>,
    /// Tags to match.
    tags: Option<Vec<String>>,
    /// At most this many.
    limit: Option<u32>,
    /// A narrower query.
    inner: Option<Page>,
    /// Anything else, as JSON.
    extra: Option<serde_json::Value>,
    /// The page, flattened into the query.
    #[serde(flatten)]
    page: Option<Page>,
}

/// A page of results.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Page {
    /// The page number.
    number: u16,
    /// Its size, if not the default.
    size: Option<u8>,
}

/// Externally tagged (serde's default), with unit, newtype, tuple and struct variants.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
enum Shape {
    Point,
    Square(f64),
    Segment(f64, f64),
    Circle { radius: f64, label: Option<String> },
    Label(Option<String>),
}

/// Internally tagged.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Event {
    Click { x: i32, y: i32 },
    Key { key: String, order: Option<Order> },
    Scroll(Scroll),
    Idle,
}

/// A struct inside an internally tagged variant.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Scroll {
    /// How far.
    by: i32,
    /// Which way, if not down.
    up: Option<bool>,
}

/// Adjacently tagged.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "t", content = "c")]
enum Message {
    Text(String),
    Numbers(Vec<i64>),
    Pair(Option<u8>, bool),
    Ping,
}

/// Untagged, with a unit variant (which serde reads from `null`).
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Loose {
    Number(f64),
    Text(String),
    List(Vec<Option<String>>),
    Nothing,
}

/// Enums with data inside enums with data.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
enum Drawing {
    One(Shape),
    Many {
        shapes: Vec<Shape>,
        event: Option<Event>,
    },
}

/// A recursive enum: a filter made of filters.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Filter {
    Word(String),
    All(Vec<Filter>),
    Not(Box<Filter>),
}

/// A recursive struct: a comment and its replies.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Comment {
    /// What it says.
    text: String,
    /// The answers to it.
    replies: Vec<Comment>,
    /// The comment it quotes.
    quote: Option<Box<Comment>>,
}

/// Lists, arrays and tuples.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Sequences {
    /// Numbers, some missing.
    gaps: Vec<Option<u32>>,
    /// A colour.
    rgb: [u8; 3],
    /// A name and an age.
    pair: (String, u32),
    /// Optional lists of optional orders.
    orders: Option<Vec<Option<Order>>>,
}

/// Maps with string and integer keys.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Maps {
    /// An order per name, or none.
    by_name: BTreeMap<String, Option<Order>>,
    /// A label per number.
    by_number: HashMap<u32, String>,
}

/// Scalars whose schemas carry formats and bounds.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
struct Scalars {
    /// One character.
    letter: char,
    /// A large count.
    big: u128,
    /// A ratio.
    ratio: f32,
    /// Never zero.
    step: std::num::NonZeroU32,
    /// An address.
    ip: std::net::IpAddr,
    /// Distinct words.
    words: std::collections::BTreeSet<String>,
    /// A name and maybe a number, boxed.
    boxed: Box<(String, Option<i8>)>,
}

/// Searches with a nested query.
#[mcp_tool]
fn search(
    /// The query.
    query: Query,
    /// An optional order at the top level.
    order: Option<Order>,
) -> Query {
    let _ = order;
    query
}

/// Draws a shape (externally tagged enum).
#[mcp_tool]
fn draw(
    /// The shape.
    shape: Shape,
) -> Shape {
    shape
}

/// Handles an event (internally tagged enum).
#[mcp_tool]
fn handle(
    /// The event.
    event: Event,
) -> Event {
    event
}

/// Sends a message (adjacently tagged enum).
#[mcp_tool]
fn send(
    /// The message.
    message: Message,
) -> Message {
    message
}

/// Takes anything loose (untagged enum).
#[mcp_tool]
fn loose(
    /// The value.
    value: Loose,
    /// Another, optional.
    maybe: Option<Loose>,
) -> Loose {
    let _ = maybe;
    value
}

/// Draws a drawing (enums with data inside enums with data).
#[mcp_tool]
fn sketch(
    /// The drawing.
    drawing: Drawing,
) -> Drawing {
    drawing
}

/// Applies a filter (a recursive enum).
#[mcp_tool]
fn filter(
    /// The filter.
    filter: Filter,
) -> Filter {
    filter
}

/// Posts a comment (a recursive struct).
#[mcp_tool]
fn comment(
    /// The comment.
    comment: Comment,
) -> Comment {
    comment
}

/// Takes lists, arrays and tuples.
#[mcp_tool]
fn sequences(
    /// The sequences.
    sequences: Sequences,
    /// A list at the top level.
    numbers: Option<Vec<Option<i64>>>,
) -> Sequences {
    let _ = numbers;
    sequences
}

/// Takes maps.
#[mcp_tool]
fn maps(
    /// The maps.
    maps: Maps,
) -> Maps {
    maps
}

/// Takes scalars with formats and bounds.
#[mcp_tool]
fn scalars(
    /// The scalars.
    scalars: Scalars,
) -> Scalars {
    scalars
}

fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::server!().run()
}
