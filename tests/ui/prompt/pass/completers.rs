use mcp_runtime::CompletionContext;
use mcp_runtime::prelude::*;

fn names(_prefix: &str) -> Vec<String> {
    vec!["Ada".to_owned(), "Grace".to_owned()]
}

fn occasions(_prefix: &str, context: &CompletionContext) -> Vec<&'static str> {
    match context.argument("name") {
        Some("Ada") => vec!["birthday"],
        _ => vec!["birthday", "graduation"],
    }
}

mod completion {
    pub(crate) fn tones(_prefix: &str) -> [&'static str; 2] {
        ["warm", "formal"]
    }
}

/// A congratulation.
#[mcp_prompt]
fn congratulate(
    /// Who to congratulate.
    #[complete(names)]
    name: String,
    /// The occasion, completed from the name.
    #[complete(occasions)]
    occasion: String,
    /// The tone.
    #[complete(completion::tones)]
    tone: Option<String>,
) -> String {
    format!("{name}, {occasion}, {tone:?}")
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .prompt::<congratulate>()
        .build()
        .unwrap();
}
