//! The code `#[mcp_resource]` adds raises no lint of its own, even with the strict lints a
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

/// Public resources: everything generated for them is documented.
pub mod api {
    use mcp_runtime::prelude::*;

    fn categories(_prefix: &str) -> Vec<String> {
        vec!["books".to_owned()]
    }

    /// The catalog.
    #[mcp_resource(uri = "gifts://catalog", audience = "user", priority = 0.5, size = 2)]
    pub fn catalog() -> String {
        "{}".to_owned()
    }

    /// One category, later.
    #[mcp_resource(uri = "gifts://catalog/{category}")]
    pub async fn category(
        /// The category.
        #[complete(categories)]
        category: String,
        ctx: Context,
    ) -> Result<String, HandlerError> {
        let _ = ctx.request_id();
        Ok(category)
    }
}

mod private {
    use mcp_runtime::prelude::*;

    /// Visible in the crate only: the handle type is too.
    #[mcp_resource(uri = "gifts://crate")]
    pub(crate) fn crate_visible() -> Vec<u8> {
        Vec::new()
    }

    /// Private to its module, and never given to a server: registered all the same, so it is
    /// not dead code.
    #[mcp_resource(uri = "gifts://never-served/{id}")]
    fn never_served(id: u32) -> String {
        id.to_string()
    }
}

/// A resource at the crate root that no server names: not dead code either.
#[mcp_resource(uri = "gifts://unused")]
fn unused_resource() -> &'static str {
    "unused"
}

/// A resource its author deprecated, still served.
#[deprecated = "use `api::catalog`"]
#[mcp_resource(uri = "gifts://old-catalog")]
pub fn old_catalog() -> String {
    String::new()
}

fn main() {
    let _server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<api::catalog>()
        .resource::<api::category>()
        .resource::<private::crate_visible>()
        .build()
        .unwrap();
}
