//! Generated code names everything by absolute path: a module that shadows the prelude's
//! types, variants, traits and macros, and the crates the expansion uses, still compiles its
//! tools, without a warning.

#![deny(warnings)]

/// Types for the tools below, derived outside the shadowing (serde's and schemars' derives
/// have hygiene rules of their own).
pub mod types {
    use mcp_runtime::prelude::*;

    /// A point.
    #[derive(Serialize, Deserialize, JsonSchema)]
    pub struct Point {
        /// Across.
        pub x: f64,
        /// Up.
        pub y: f64,
    }
}

/// Tools written where the usual names mean something else.
pub mod shadowed {
    use ::mcp_runtime::prelude::*;

    use crate::types::Point;

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

    /// Doubles a point, if there is one.
    #[mcp_tool(title = "Double", read_only)]
    pub fn double(
        /// The point.
        point: ::core::option::Option<Point>,
        /// What to say when there is none.
        label: ::std::string::String,
    ) -> ::core::result::Result<Point, ::std::string::String> {
        match point {
            ::core::option::Option::Some(Point { x, y }) => ::core::result::Result::Ok(Point {
                x: 2.0 * x,
                y: 2.0 * y,
            }),
            ::core::option::Option::None => ::core::result::Result::Err(label),
        }
    }

    /// Counts up, later.
    #[doc = ::core::concat!("A computed line, from `", ::core::file!(), "`.")]
    #[mcp_tool]
    pub async fn count(to: u32, ctx: Context) -> ::std::vec::Vec<u32> {
        let _ = ctx.request_id();
        (0..to).collect()
    }

    /// Says hello.
    #[mcp_tool(scopes = ["greetings:write"])]
    pub fn hello() -> Content {
        Content::text("hello")
    }
}

fn main() {
    ::mcp_runtime::Server::builder(::mcp_runtime::server_info!())
        .tool::<shadowed::double>()
        .tool::<shadowed::count>()
        .tool::<shadowed::hello>()
        .build()
        .unwrap();
}
