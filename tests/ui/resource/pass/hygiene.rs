//! Generated code names everything by absolute path: a module that shadows the prelude's
//! types, variants, traits and macros, and the crates the expansion uses, still compiles its
//! resources, without a warning.

#![deny(warnings)]

/// Types for the resources below, derived outside the shadowing (serde's and schemars'
/// derives have hygiene rules of their own).
pub mod types {
    use mcp_runtime::prelude::*;

    /// A gift.
    #[derive(Serialize)]
    pub struct Gift {
        /// Its name.
        pub name: &'static str,
    }

    /// A gift category.
    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Category {
        /// Books.
        Books,
        /// Games.
        Games,
    }
}

/// Resources written where the usual names mean something else.
pub mod shadowed {
    use ::mcp_runtime::prelude::*;

    use crate::types::{Category, Gift};

    #[allow(dead_code)]
    struct Result;
    #[allow(dead_code)]
    struct Option;
    #[allow(dead_code)]
    struct Some;
    #[allow(dead_code)]
    struct None;
    #[allow(dead_code)]
    struct Ok;
    #[allow(dead_code)]
    struct Err;
    #[allow(dead_code)]
    struct String;
    #[allow(dead_code)]
    struct Vec;
    #[allow(dead_code)]
    struct Box;
    #[allow(dead_code)]
    struct Cow;
    #[allow(dead_code)]
    struct Duration;
    #[allow(dead_code)]
    struct CacheScope;
    #[allow(dead_code)]
    trait Send {}
    #[allow(dead_code)]
    trait Sync {}
    #[allow(dead_code)]
    trait Sized {}
    #[allow(dead_code)]
    trait Future {}
    #[allow(dead_code)]
    trait Default {}
    #[allow(dead_code)]
    trait Display {}
    #[allow(dead_code)]
    trait Into {}
    mod core {}
    mod std {}
    mod alloc {}
    mod mcp_runtime {}
    mod inventory {}
    mod serde {}
    mod schemars {}
    mod serde_json {}
    #[allow(unused_macros)]
    macro_rules! unreachable {
        ($($tt:tt)*) => {
            ::core::compile_error!("the shadowing `unreachable!` was used")
        };
    }
    #[allow(unused_macros)]
    macro_rules! concat {
        ($($tt:tt)*) => {
            ::core::compile_error!("the shadowing `concat!` was used")
        };
    }
    #[allow(unused_macros)]
    macro_rules! vec {
        ($($tt:tt)*) => {
            ::core::compile_error!("the shadowing `vec!` was used")
        };
    }
    #[allow(unused_macros)]
    macro_rules! format {
        ($($tt:tt)*) => {
            ::core::compile_error!("the shadowing `format!` was used")
        };
    }

    fn categories(_prefix: &str) -> [&'static str; 2] {
        ["books", "games"]
    }

    /// The featured gift of a category, if there is one.
    #[mcp_resource(
        uri = "gifts://featured/{category}{?lang}",
        mime_type = "application/json",
        audience = "user, assistant",
        priority = 0.5,
        cache_ttl_ms = 60_000,
        cache_scope = "public"
    )]
    pub fn featured(
        /// The category.
        #[complete(categories)]
        category: Category,
        /// The language of the answer.
        lang: ::core::option::Option<::std::string::String>,
    ) -> ::core::result::Result<Gift, HandlerError> {
        let _ = lang;
        match category {
            Category::Books => ::core::result::Result::Ok(Gift { name: "atlas" }),
            Category::Games => ::core::result::Result::Err(HandlerError::not_found("none")),
        }
    }

    /// The catalog's cover, later.
    #[doc = ::core::concat!("A computed line, from `", ::core::file!(), "`.")]
    #[mcp_resource(uri = "gifts://cover")]
    pub async fn cover(ctx: Context) -> ::std::vec::Vec<u8> {
        let _ = ctx.request_id();
        ::std::vec::Vec::new()
    }

    /// The catalog's notes.
    #[mcp_resource(uri = "gifts://notes")]
    pub fn notes() -> &'static str {
        "notes"
    }
}

fn main() {
    ::mcp_runtime::Server::builder(::mcp_runtime::server_info!())
        .resource::<shadowed::featured>()
        .resource::<shadowed::cover>()
        .resource::<shadowed::notes>()
        .build()
        .unwrap();
}
