use mcp_runtime::prelude::*;

/// The catalog (this doc comment is replaced by `description`).
#[mcp_resource(
    uri = "gifts://catalog",
    name = "gift-catalog",
    title = "Gift catalog",
    description = "Every gift, by category.",
    mime_type = "application/json",
    size = 1024,
    audience = "user, assistant",
    priority = 0.8,
    scopes = ["gifts:read"],
    crate = ::mcp_runtime,
)]
fn catalog() -> Vec<u8> {
    b"{}".to_vec()
}

/// The catalog's notes, for the model only.
#[mcp_resource(uri = "gifts://notes", audience = "assistant", priority = 1)]
fn notes() -> String {
    String::new()
}

/// The catalog's cover, for the user, of the least priority.
#[mcp_resource(uri = "gifts://cover", audience = "user", priority = 0.0)]
fn cover() -> String {
    String::new()
}

/// Described by its attribute only.
#[mcp_resource(uri = "gifts://terms/{lang}", description = "The terms of sale.")]
fn terms(lang: String) -> String {
    lang
}

fn main() {
    assert_eq!(<catalog as mcp_runtime::Resource>::SCOPES, ["gifts:read"]);
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<catalog>()
        .resource::<notes>()
        .resource::<cover>()
        .resource::<terms>()
        .build()
        .unwrap();
}
