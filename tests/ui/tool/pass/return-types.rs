use mcp_runtime::prelude::*;

/// A point on the plane.
#[derive(Serialize, JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Debug)]
struct NotFound;

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not found")
    }
}

/// Returns an owned string.
#[mcp_tool]
fn owned_string() -> String {
    "text".to_owned()
}

/// Returns a static string.
#[mcp_tool]
fn static_str() -> &'static str {
    "text"
}

/// Returns one content block.
#[mcp_tool]
fn one_content() -> Content {
    Content::text("text")
}

/// Returns several content blocks.
#[mcp_tool]
fn many_contents() -> Vec<Content> {
    vec![Content::text("a"), Content::text("b")]
}

/// Returns a whole result.
#[mcp_tool]
fn whole_result() -> CallToolResult {
    CallToolResult::text("text")
}

/// Returns nothing.
#[mcp_tool]
fn nothing() {}

/// Returns the unit type, spelled out.
#[mcp_tool]
fn unit() -> () {}

/// Returns structured output.
#[mcp_tool]
fn structured() -> Point {
    Point { x: 1.0, y: 2.0 }
}

/// Returns structured output or an error message.
#[mcp_tool]
fn structured_or_message(found: bool) -> Result<Point, String> {
    if found {
        Ok(Point { x: 1.0, y: 2.0 })
    } else {
        Err("no point".to_owned())
    }
}

/// Returns text or a custom error.
#[mcp_tool]
fn text_or_custom_error(found: bool) -> Result<String, NotFound> {
    if found {
        Ok("found".to_owned())
    } else {
        Err(NotFound)
    }
}

/// Returns text, later, or a custom error.
#[mcp_tool]
async fn async_text_or_custom_error(found: bool) -> Result<String, NotFound> {
    text_or_custom_error(found)
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<owned_string>()
        .tool::<static_str>()
        .tool::<one_content>()
        .tool::<many_contents>()
        .tool::<whole_result>()
        .tool::<nothing>()
        .tool::<unit>()
        .tool::<structured>()
        .tool::<structured_or_message>()
        .tool::<text_or_custom_error>()
        .tool::<async_text_or_custom_error>()
        .build()
        .unwrap();
}
