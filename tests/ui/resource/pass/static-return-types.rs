use mcp_runtime::prelude::*;

/// A gift as the catalog shows it.
#[derive(Serialize)]
struct Gift {
    name: String,
    price: f64,
}

/// The catalog as plain text.
#[mcp_resource(uri = "gifts://catalog.txt")]
fn text() -> String {
    "books, games".to_owned()
}

/// The catalog as static text.
#[mcp_resource(uri = "gifts://catalog.md", mime_type = "text/markdown")]
fn static_text() -> &'static str {
    "# Gifts"
}

/// The catalog's cover, as bytes.
#[mcp_resource(uri = "gifts://cover.png", mime_type = "image/png")]
fn bytes() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

/// The featured gift, as JSON.
#[mcp_resource(uri = "gifts://featured")]
fn json() -> Gift {
    Gift {
        name: "Chess set".to_owned(),
        price: 40.0,
    }
}

/// The featured gift, or a not-found error.
#[mcp_resource(uri = "gifts://featured-or-not")]
fn json_or_handler_error() -> Result<Gift, HandlerError> {
    Err(HandlerError::not_found("gifts://featured-or-not"))
}

/// The catalog, read from disk.
#[mcp_resource(uri = "file:///srv/gifts/catalog.json", mime_type = "application/json")]
fn text_or_io_error() -> Result<String, std::io::Error> {
    std::fs::read_to_string("/srv/gifts/catalog.json")
}

/// One contents entry, built by hand.
#[mcp_resource(uri = "gifts://one")]
fn one_contents() -> ResourceContents {
    ResourceContents::Text {
        uri: "gifts://one".to_owned(),
        mime_type: None,
        text: "one".to_owned(),
    }
}

/// The catalog in two parts.
#[mcp_resource(uri = "gifts://catalog/parts")]
fn several_contents() -> Vec<ResourceContents> {
    ["books", "games"]
        .into_iter()
        .map(|part| ResourceContents::Text {
            uri: format!("gifts://catalog/parts#{part}"),
            mime_type: Some("text/plain".to_owned()),
            text: part.to_owned(),
        })
        .collect()
}

/// The catalog, later.
#[mcp_resource(uri = "gifts://catalog-later")]
async fn later() -> Result<Vec<u8>, String> {
    Ok(Vec::new())
}

fn main() {
    // The functions stay callable as written.
    assert_eq!(text(), "books, games");
    assert_eq!(json().name, "Chess set");

    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .resource::<text>()
        .resource::<static_text>()
        .resource::<bytes>()
        .resource::<json>()
        .resource::<json_or_handler_error>()
        .resource::<text_or_io_error>()
        .resource::<one_contents>()
        .resource::<several_contents>()
        .resource::<later>()
        .build()
        .unwrap();
}
