use mcp_runtime::prelude::*;

/// Congratulates (this doc comment is replaced by `description`).
#[mcp_prompt(
    name = "congratulate-v2",
    title = "Congratulation",
    description = "A short birthday congratulation.",
    scopes = ["cards:write"],
    crate = ::mcp_runtime,
)]
fn congratulate(name: String) -> String {
    format!("Congratulate {name}.")
}

#[mcp_prompt(description = "Described by its attribute only.")]
fn thank() -> String {
    "Thank them.".to_owned()
}

/// Undescribed prompts are allowed: this one has a doc comment all the same.
#[mcp_prompt(title = "Apologize")]
fn apologize() -> String {
    "Apologize.".to_owned()
}

#[mcp_prompt]
fn undescribed() -> String {
    "A prompt needs no description.".to_owned()
}

fn main() {
    assert_eq!(<congratulate as mcp_runtime::Prompt>::SCOPES, ["cards:write"]);
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .prompt::<congratulate>()
        .prompt::<thank>()
        .prompt::<apologize>()
        .prompt::<undescribed>()
        .build()
        .unwrap();
}
