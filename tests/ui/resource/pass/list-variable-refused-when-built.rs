//! A URI template variable (or a prompt argument) of a type a string cannot express, such as
//! `Vec<String>`, compiles: whether a type is a list or an object is known from its JSON
//! schema only, at run time. The server refuses it when it is built, naming the parameter.

use mcp_runtime::prelude::*;

/// Gifts with every tag given.
#[mcp_resource(uri = "gifts://tagged/{tags}")]
fn tagged(tags: Vec<String>) -> String {
    tags.join(", ")
}

/// A congratulation naming everyone.
#[mcp_prompt]
fn congratulate_all(names: Vec<String>) -> String {
    format!("Congratulate {}.", names.join(" and "))
}

fn main() {
    let error = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<tagged>()
        .build()
        .err()
        .expect("a list variable is refused");
    assert_eq!(
        error.to_string(),
        "resource template `gifts://tagged/{tags}`: argument `tags` has type `alloc::vec::Vec<alloc::string::String>`, which cannot be written as a string; use a string, a number, a boolean or an enum of unit variants"
    );

    let error = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .prompt::<congratulate_all>()
        .build()
        .err()
        .expect("a list argument is refused");
    assert!(
        error
            .to_string()
            .starts_with("prompt `congratulate_all`: argument `names`")
    );
}
