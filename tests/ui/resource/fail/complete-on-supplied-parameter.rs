use mcp_runtime::prelude::*;

fn requests(_prefix: &str) -> Vec<String> {
    Vec::new()
}

/// The catalog.
#[mcp_resource(uri = "gifts://catalog")]
fn catalog(#[complete(requests)] ctx: Context) -> String {
    format!("{:?}", ctx.request_id())
}

fn main() {}
