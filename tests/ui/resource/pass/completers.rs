use mcp_runtime::CompletionContext;
use mcp_runtime::prelude::*;

fn categories(_prefix: &str) -> Vec<String> {
    vec!["books".to_owned(), "games".to_owned()]
}

fn gifts(_prefix: &str, context: &CompletionContext) -> Vec<&'static str> {
    match context.argument("category") {
        Some("books") => vec!["atlas", "novel"],
        _ => vec!["chess", "puzzle"],
    }
}

/// One gift of a category.
#[mcp_resource(uri = "gifts://catalog/{category}/{gift}")]
fn gift(
    /// The category.
    #[complete(categories)]
    category: String,
    #[complete(self::gifts)]
    /// The gift, completed from the category.
    gift: String,
) -> String {
    format!("{category}/{gift}")
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<gift>()
        .build()
        .unwrap();
}
