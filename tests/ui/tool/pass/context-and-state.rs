use mcp_runtime::prelude::*;

struct Greeting(String);

type Request = Context;

/// Greets someone with the configured greeting.
#[mcp_tool]
fn greet(greeting: State<Greeting>, ctx: Context, name: String) -> String {
    format!("{}, {name}! ({:?})", greeting.0, ctx.request_id())
}

/// Greets someone, later, taking the context through an alias.
#[mcp_tool]
async fn greet_later(name: String, request: Request, greeting: State<Greeting>) -> String {
    format!("{}, {name}! ({:?})", greeting.0, request.revision())
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<greet>()
        .tool::<greet_later>()
        .state(Greeting("Hello".to_owned()))
        .build()
        .unwrap();
}
