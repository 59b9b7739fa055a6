use mcp_runtime::prelude::*;

/// One request's view of the catalog.
#[mcp_resource(uri = "gifts://catalog/{ctx}")]
fn catalog(ctx: Context) -> String {
    format!("{:?}", ctx.request_id())
}

fn main() {}
