//! Generated code names everything by absolute path: a module that shadows the prelude's
//! types, variants, traits and macros, and the crates the expansion uses, still compiles its
//! prompts, without a warning.

#![deny(warnings)]

/// Types for the prompts below, derived outside the shadowing (serde's and schemars' derives
/// have hygiene rules of their own).
pub mod types {
    use mcp_runtime::prelude::*;

    /// The tone of a message.
    #[derive(Deserialize, JsonSchema)]
    #[serde(rename_all = "lowercase")]
    pub enum Tone {
        /// Warm.
        Warm,
        /// Formal.
        Formal,
    }
}

/// Prompts written where the usual names mean something else.
pub mod shadowed {
    use ::mcp_runtime::prelude::*;

    use crate::types::Tone;

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

    fn names(_prefix: &str) -> [&'static str; 2] {
        ["Ada", "Grace"]
    }

    /// A congratulation, in a tone.
    #[mcp_prompt(title = "Congratulation")]
    pub fn congratulate(
        /// Who to congratulate.
        #[complete(names)]
        name: ::std::string::String,
        /// The tone, warm by default.
        tone: ::core::option::Option<Tone>,
    ) -> ::core::result::Result<::std::vec::Vec<PromptMessage>, ::std::string::String> {
        match tone {
            ::core::option::Option::Some(Tone::Formal) => {
                ::core::result::Result::Err(::std::string::String::from("no formal tone today"))
            }
            _ => ::core::result::Result::Ok(::std::vec::Vec::from([PromptMessage::user(
                ::std::format!("Congratulate {name}."),
            )])),
        }
    }

    /// A thanks, later.
    #[doc = ::core::concat!("A computed line, from `", ::core::file!(), "`.")]
    #[mcp_prompt]
    pub async fn thank(ctx: Context) -> GetPromptResult {
        let _ = ctx.request_id();
        GetPromptResult {
            description: ::core::option::Option::None,
            messages: ::std::vec::Vec::new(),
        }
    }

    /// An apology.
    #[mcp_prompt]
    pub fn apologize() -> &'static str {
        "Apologize."
    }
}

fn main() {
    ::mcp_runtime::Server::builder(::mcp_runtime::server_info!())
        .prompt::<shadowed::congratulate>()
        .prompt::<shadowed::thank>()
        .prompt::<shadowed::apologize>()
        .build()
        .unwrap();
}
