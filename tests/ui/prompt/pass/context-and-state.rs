use mcp_runtime::prelude::*;

struct Style {
    signature: String,
}

type Request = Context;

/// A congratulation, signed with the configured signature.
#[mcp_prompt]
fn congratulate(style: State<Style>, ctx: Context, name: String) -> String {
    format!(
        "Congratulate {name}; sign {} ({:?})",
        style.signature,
        ctx.request_id()
    )
}

/// A congratulation, later, taking the context through an alias.
#[mcp_prompt]
async fn congratulate_later(name: String, request: Request, style: State<Style>) -> String {
    format!(
        "Congratulate {name}; sign {} ({:?})",
        style.signature,
        request.revision()
    )
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .prompt::<congratulate>()
        .prompt::<congratulate_later>()
        .state(Style {
            signature: "The gift shop".to_owned(),
        })
        .build()
        .unwrap();
}
