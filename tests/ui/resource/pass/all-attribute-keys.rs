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
    cache_ttl_ms = 60_000,
    cache_scope = "public",
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

/// The catalog's cover, for the user, of the least priority, never to be reused.
#[mcp_resource(
    uri = "gifts://cover",
    audience = "user",
    priority = 0.0,
    cache_ttl_ms = 0,
    cache_scope = "private"
)]
fn cover() -> String {
    String::new()
}

/// Described by its attribute only.
#[mcp_resource(uri = "gifts://terms/{lang}", description = "The terms of sale.")]
fn terms(lang: String) -> String {
    lang
}

fn main() {
    use mcp_runtime::{CacheScope, Resource};
    use std::time::Duration;
    assert_eq!(<catalog as Resource>::SCOPES, ["gifts:read"]);
    assert_eq!(
        <catalog as Resource>::CACHE_TTL,
        Some(Duration::from_secs(60))
    );
    assert_eq!(<catalog as Resource>::CACHE_SCOPE, Some(CacheScope::Public));
    assert_eq!(<cover as Resource>::CACHE_TTL, Some(Duration::ZERO));
    assert_eq!(<cover as Resource>::CACHE_SCOPE, Some(CacheScope::Private));
    assert_eq!(<notes as Resource>::CACHE_TTL, None);
    assert_eq!(<notes as Resource>::CACHE_SCOPE, None);
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<catalog>()
        .resource::<notes>()
        .resource::<cover>()
        .resource::<terms>()
        .build()
        .unwrap();
}
