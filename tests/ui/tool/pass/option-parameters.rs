use mcp_runtime::prelude::*;

/// Greets someone, by name if given.
#[mcp_tool]
fn greet(
    /// Who to greet.
    name: Option<String>,
    /// How many exclamation marks.
    emphasis: Option<u8>,
) -> String {
    let marks = "!".repeat(usize::from(emphasis.unwrap_or(1)));
    format!("Hello, {}{marks}", name.as_deref().unwrap_or("world"))
}

fn main() {
    assert_eq!(greet(None, None), "Hello, world!");
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<greet>()
        .build()
        .unwrap();
}
