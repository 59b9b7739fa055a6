//! The code `#[mcp_prompt]` adds raises no lint of its own, even with the strict lints a
//! library crate enables.

#![deny(warnings)]
#![deny(
    missing_docs,
    unreachable_pub,
    dead_code,
    non_camel_case_types,
    non_upper_case_globals,
    nonstandard_style,
    rust_2018_idioms,
    missing_debug_implementations,
    missing_copy_implementations,
    unused,
    unused_qualifications,
    unused_results,
    unused_lifetimes,
    single_use_lifetimes,
    trivial_casts,
    trivial_numeric_casts,
    unnameable_types,
    let_underscore_drop,
    redundant_lifetimes,
    unit_bindings,
    variant_size_differences
)]

use mcp_runtime::prelude::*;

/// Public prompts: everything generated for them is documented.
pub mod api {
    use mcp_runtime::prelude::*;

    fn names(_prefix: &str) -> Vec<String> {
        vec!["Ada".to_owned()]
    }

    /// A congratulation.
    #[mcp_prompt(title = "Congratulation")]
    pub fn congratulate(
        /// Who to congratulate.
        #[complete(names)]
        name: String,
    ) -> String {
        format!("Congratulate {name}.")
    }

    /// A thanks, later.
    #[mcp_prompt(name = "thank-later")]
    pub async fn thank_later(ctx: Context, name: Option<String>) -> Vec<PromptMessage> {
        let _ = ctx.request_id();
        vec![PromptMessage::user(name.unwrap_or_default())]
    }
}

mod private {
    use mcp_runtime::prelude::*;

    /// Visible in the crate only: the handle type is too.
    #[mcp_prompt]
    pub(crate) fn crate_visible() -> &'static str {
        "crate"
    }

    /// Private to its module, and never given to a server: registered all the same, so it is
    /// not dead code.
    #[mcp_prompt]
    fn never_served(count: u32) -> String {
        count.to_string()
    }
}

/// A prompt at the crate root that no server names: not dead code either.
#[mcp_prompt]
fn unused_prompt() -> PromptMessage {
    PromptMessage::user("unused")
}

/// A prompt its author deprecated, still served.
#[deprecated = "use `api::congratulate`"]
#[mcp_prompt]
pub fn old_congratulate(name: String) -> String {
    name
}

fn main() {
    let _server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .prompt::<api::congratulate>()
        .prompt::<api::thank_later>()
        .prompt::<private::crate_visible>()
        .build()
        .unwrap();
}
