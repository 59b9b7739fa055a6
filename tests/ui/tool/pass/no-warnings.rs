//! The code `#[mcp_tool]` adds raises no lint of its own, even with the strict lints a
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

/// Public tools: everything generated for them is documented.
pub mod api {
    use mcp_runtime::prelude::*;

    /// Adds two numbers.
    #[mcp_tool]
    pub fn add(a: i64, b: i64) -> String {
        (a + b).to_string()
    }

    /// Adds two numbers, later.
    #[mcp_tool(name = "add-later")]
    pub async fn add_later(a: i64, b: i64) -> i64 {
        a + b
    }
}

mod private {
    use mcp_runtime::prelude::*;

    /// Visible in the crate only: the handle type is too.
    #[mcp_tool]
    pub(crate) fn crate_visible() -> &'static str {
        "crate"
    }

    /// Private to its module, and never given to a server: registered all the same, so it is
    /// not dead code.
    #[mcp_tool]
    fn never_served() {}
}

/// A tool at the crate root that no server names: not dead code either.
#[mcp_tool]
fn unused_tool(text: String) -> String {
    text
}

/// A tool its author deprecated, still served.
#[deprecated = "use `api::add`"]
#[mcp_tool]
pub fn old_add(a: i64, b: i64) -> String {
    (a + b).to_string()
}

fn main() {
    let _server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<api::add>()
        .tool::<api::add_later>()
        .tool::<private::crate_visible>()
        .build()
        .unwrap();
}
