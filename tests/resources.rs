//! Resources, URI templates, subscriptions and completion through the real protocol, every
//! message checked against the official schema of its revision.

mod common;

use std::time::Duration;

use common::Checked;
use mcp_runtime::prelude::*;
use mcp_runtime::{CompletionContext, Server};
use serde_json::{Value, json};

/// The shop's opening hours.
#[mcp_resource(
    uri = "shop://info/hours",
    title = "Opening hours",
    audience = "user, assistant",
    priority = 0.5,
    size = 22
)]
fn hours() -> &'static str {
    "Mon-Fri 9:00 to 18:00."
}

#[derive(Serialize)]
struct Stock {
    items: u32,
}

/// The stock, as JSON.
#[mcp_resource(uri = "shop://info/stock")]
fn stock() -> Stock {
    Stock { items: 12 }
}

/// A tiny picture.
#[mcp_resource(uri = "shop://info/logo.png", mime_type = "image/png")]
fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
enum Shelf {
    Top,
    Bottom,
}

fn product_ids(prefix: &str, context: &CompletionContext) -> Vec<String> {
    let shelf = context.argument("shelf").unwrap_or("top");
    (1..=150)
        .map(|n| format!("{shelf}-{n}"))
        .filter(|id| id.starts_with(prefix) || prefix.is_empty())
        .collect()
}

/// One product on a shelf.
#[mcp_resource(
    uri = "shop://shelves/{shelf}/products/{id}",
    mime_type = "application/json"
)]
fn product(
    /// Which shelf.
    shelf: Shelf,
    /// The product number.
    #[complete(product_ids)]
    id: u32,
) -> Result<Value, HandlerError> {
    if id > 100 {
        return Err(HandlerError::not_found(format!(
            "shop://shelves/{shelf:?}/products/{id}"
        )));
    }
    Ok(json!({"shelf": shelf, "id": id}))
}

/// A file under the docs folder (any depth).
#[mcp_resource(uri = "shop://docs/{+path}")]
fn doc(path: String) -> String {
    format!("doc at {path}")
}

/// The readme, a more specific match than the docs template.
#[mcp_resource(uri = "shop://docs/README")]
fn readme() -> String {
    "the readme".to_owned()
}

/// Searches, with optional query parameters.
#[mcp_resource(uri = "shop://search{?q,limit}")]
fn search(q: Option<String>, limit: Option<u32>) -> String {
    format!("q={q:?} limit={limit:?}")
}

/// Fails with an I/O error.
#[mcp_resource(uri = "shop://broken/{name}")]
fn broken(name: String) -> std::io::Result<String> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        format!("{name} is gone"),
    ))
}

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .resource::<hours>()
        .resource::<stock>()
        .resource::<logo>()
        .resource::<product>()
        .resource::<doc>()
        .resource::<readme>()
        .resource::<search>()
        .resource::<broken>()
        .build()
        .unwrap()
}

async fn read(client: &Checked, uri: &str) -> Value {
    client
        .request("resources/read", json!({"uri": uri}))
        .await
        .unwrap_or_else(|e| panic!("reading {uri}: {e}"))
}

#[tokio::test]
async fn static_resources_are_listed_with_their_metadata() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let list = client.request("resources/list", json!({})).await.unwrap();
    let uris: Vec<&str> = list["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        uris,
        [
            "shop://docs/README",
            "shop://info/hours",
            "shop://info/logo.png",
            "shop://info/stock"
        ]
    );
    assert_eq!(
        list["resources"][1],
        json!({
            "uri": "shop://info/hours",
            "name": "hours",
            "title": "Opening hours",
            "description": "The shop's opening hours.",
            "size": 22,
            "annotations": {"audience": ["user", "assistant"], "priority": 0.5},
        })
    );
}

#[tokio::test]
async fn templates_are_listed_separately() {
    let client = Checked::connect(&server(), "2025-06-18").await;
    let list = client
        .request("resources/templates/list", json!({}))
        .await
        .unwrap();
    let templates: Vec<&str> = list["resourceTemplates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["uriTemplate"].as_str().unwrap())
        .collect();
    assert_eq!(
        templates,
        [
            "shop://broken/{name}",
            "shop://docs/{+path}",
            "shop://search{?q,limit}",
            "shop://shelves/{shelf}/products/{id}"
        ]
    );
}

#[tokio::test]
async fn reads_return_text_json_and_blobs() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    assert_eq!(
        read(&client, "shop://info/hours").await,
        json!({"contents": [{"uri": "shop://info/hours", "mimeType": "text/plain", "text": "Mon-Fri 9:00 to 18:00."}]})
    );
    assert_eq!(
        read(&client, "shop://info/stock").await["contents"][0],
        json!({"uri": "shop://info/stock", "mimeType": "application/json", "text": "{\"items\":12}"})
    );
    assert_eq!(
        read(&client, "shop://info/logo.png").await["contents"][0],
        json!({"uri": "shop://info/logo.png", "mimeType": "image/png", "blob": "iVBORw=="})
    );
}

/// Bytes as `include_bytes!` gives them.
#[mcp_resource(uri = "shop://info/icon.png", mime_type = "image/png")]
fn icon() -> &'static [u8; 4] {
    &[0x89, b'P', b'N', b'G']
}

static MOTTO: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| "Gifts, fast.".to_owned());

/// Text held in a static.
#[mcp_resource(uri = "shop://info/motto")]
fn motto() -> &'static String {
    &MOTTO
}

/// A note, if there is one by that number.
#[mcp_resource(uri = "shop://notes/{id}")]
fn note(id: u32) -> Option<std::borrow::Cow<'static, str>> {
    (id == 1).then_some(std::borrow::Cow::Borrowed("the first note"))
}

/// Bytes of other types (`include_bytes!`'s array) go out as a blob, text of other types as
/// text (not as a JSON string), and an `Option`'s `None` is "resource not found" (-32002 in
/// a session, -32602 in 2026-07-28, basic "Error Codes"): each would otherwise have been
/// serialized as JSON.
#[tokio::test]
async fn bytes_text_and_options_of_other_types_are_read_as_such() {
    let server = Server::builder(mcp_runtime::server_info!())
        .resource::<icon>()
        .resource::<motto>()
        .resource::<note>()
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    assert_eq!(
        read(&client, "shop://info/icon.png").await["contents"][0],
        json!({"uri": "shop://info/icon.png", "mimeType": "image/png", "blob": "iVBORw=="})
    );
    assert_eq!(
        read(&client, "shop://info/motto").await["contents"][0],
        json!({"uri": "shop://info/motto", "mimeType": "text/plain", "text": "Gifts, fast."})
    );
    assert_eq!(
        read(&client, "shop://notes/1").await["contents"][0],
        json!({"uri": "shop://notes/1", "mimeType": "text/plain", "text": "the first note"})
    );
    let error = client
        .request("resources/read", json!({"uri": "shop://notes/2"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32002);
    assert_eq!(error.data.as_ref().unwrap()["uri"], "shop://notes/2");
}

/// A stored card: any `Serialize` type is JSON text.
#[derive(Serialize)]
struct Card {
    id: u32,
    to: &'static str,
}

/// A card, if there is one by that number.
#[mcp_resource(uri = "shop://cards/{id}")]
fn card(id: u32) -> Option<Card> {
    (id == 1).then_some(Card { id, to: "Ada" })
}

/// A card read from a store that may fail.
#[mcp_resource(uri = "shop://stored-cards/{id}")]
fn stored_card(id: u32) -> Result<Option<Card>, String> {
    match id {
        0 => Err("the card store is closed".to_owned()),
        1 => Ok(Some(Card { id, to: "Ada" })),
        _ => Ok(None),
    }
}

/// An `Option` of a serialized type is "resource not found" when `None`, as one of text is,
/// alone or as a `Result`'s `Ok`: not the JSON text `null`.
#[tokio::test]
async fn options_of_serialized_types_are_not_found_when_none() {
    let server = Server::builder(mcp_runtime::server_info!())
        .resource::<card>()
        .resource::<stored_card>()
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    for kind in ["cards", "stored-cards"] {
        assert_eq!(
            read(&client, &format!("shop://{kind}/1")).await["contents"][0],
            json!({"uri": format!("shop://{kind}/1"), "mimeType": "application/json",
                   "text": r#"{"id":1,"to":"Ada"}"#}),
            "{kind}"
        );
        let uri = format!("shop://{kind}/2");
        let error = client
            .request("resources/read", json!({"uri": uri}))
            .await
            .unwrap_err();
        assert_eq!(error.code, -32002, "{kind}");
        assert_eq!(error.data.as_ref().unwrap()["uri"], uri.as_str());
    }
    let error = client
        .request("resources/read", json!({"uri": "shop://stored-cards/0"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32603);
    assert!(
        error.message.contains("the card store is closed"),
        "{error:?}"
    );
}

#[tokio::test]
async fn template_variables_are_parsed_into_their_types() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let product = read(&client, "shop://shelves/top/products/7").await;
    assert_eq!(product["contents"][0]["text"], r#"{"shelf":"top","id":7}"#);
    let error = client
        .request(
            "resources/read",
            json!({"uri": "shop://shelves/top/products/seven"}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(
        error
            .message
            .contains("id: expected an integer, got \"seven\""),
        "{}",
        error.message
    );
    let error = client
        .request(
            "resources/read",
            json!({"uri": "shop://shelves/middle/products/1"}),
        )
        .await
        .unwrap_err();
    assert!(
        error
            .message
            .contains("shelf: expected one of \"top\", \"bottom\""),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn reserved_and_query_expansions_match_and_the_most_specific_template_wins() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    assert_eq!(
        read(&client, "shop://docs/guides/a/b.md").await["contents"][0]["text"],
        "doc at guides/a/b.md"
    );
    assert_eq!(
        read(&client, "shop://docs/README").await["contents"][0]["text"],
        "the readme"
    );
    assert_eq!(
        read(&client, "shop://search?limit=5&q=red%20shoes").await["contents"][0]["text"],
        "q=Some(\"red shoes\") limit=Some(5)"
    );
    assert_eq!(
        read(&client, "shop://search").await["contents"][0]["text"],
        "q=None limit=None"
    );
}

#[tokio::test]
async fn an_unknown_uri_is_resource_not_found_with_the_uri() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    for uri in [
        "shop://nowhere",
        "shop://shelves/top/products/101",
        "shop://broken/x",
    ] {
        let error = client
            .request("resources/read", json!({"uri": uri}))
            .await
            .unwrap_err();
        assert_eq!(error.code, -32002, "{uri}");
        assert_eq!(error.message, "Resource not found");
        let named = error.data.as_ref().unwrap()["uri"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(named.starts_with("shop://"), "{uri}: data names {named}");
    }
    let error = client
        .request("resources/read", json!({}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
}

/// A URI over `max_uri_bytes` (8 KiB by default) is refused with -32602 naming the setting
/// before it is matched against any template (RELIABILITY.md, "Both transports"): matching
/// costs time and memory that grow with the URI, and `shop://docs/{+path}` would take it.
/// One within the limit is read as before.
#[tokio::test]
async fn a_uri_over_the_limit_is_refused_before_it_is_matched() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let within = format!(
        "shop://docs/{}",
        "a".repeat(8 * 1024 - "shop://docs/".len())
    );
    let read_within = read(&client, &within).await;
    assert!(
        read_within["contents"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("doc at aaa")
    );
    let over = format!("{within}a");
    let error = client
        .request("resources/read", json!({"uri": over}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(
        error.message.contains("max_uri_bytes") && error.message.contains("8192"),
        "{error}"
    );
    let error = client
        .request("resources/subscribe", json!({"uri": over}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(error.message.contains("max_uri_bytes"), "{error}");
}

#[tokio::test]
async fn subscribers_hear_of_updates_and_everyone_of_list_changes() {
    let server = server();
    let client = Checked::connect(&server, "2025-11-25").await;
    let other = Checked::connect(&server, "2025-11-25").await;
    assert_eq!(
        client
            .request("resources/subscribe", json!({"uri": "shop://info/stock"}))
            .await
            .unwrap(),
        json!({})
    );
    let handle = server.handle();
    handle.resource_updated("shop://info/stock");
    handle.resource_updated("shop://info/hours");
    assert_eq!(
        client.next_message().await,
        Some(
            json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "shop://info/stock"}})
        )
    );
    assert_eq!(
        client.client.next_message(Duration::from_millis(200)).await,
        None
    );
    assert_eq!(
        other.client.next_message(Duration::from_millis(200)).await,
        None
    );
    client
        .request("resources/unsubscribe", json!({"uri": "shop://info/stock"}))
        .await
        .unwrap();
    handle.resource_updated("shop://info/stock");
    assert_eq!(
        client.client.next_message(Duration::from_millis(200)).await,
        None
    );
    handle.resource_list_changed();
    for c in [&client, &other] {
        assert_eq!(
            c.next_message().await.unwrap()["method"],
            "notifications/resources/list_changed"
        );
    }
    let error = client
        .request("resources/subscribe", json!({"uri": "shop://nowhere"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32002);
}

#[tokio::test]
async fn template_variables_complete_with_context_capped_at_100() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let complete = |value: &str, context: Value| {
        json!({
            "ref": {"type": "ref/resource", "uri": "shop://shelves/{shelf}/products/{id}"},
            "argument": {"name": "id", "value": value},
            "context": context,
        })
    };
    let result = client
        .request(
            "completion/complete",
            complete("", json!({"arguments": {"shelf": "bottom"}})),
        )
        .await
        .unwrap();
    let completion = &result["completion"];
    assert_eq!(completion["values"].as_array().unwrap().len(), 100);
    assert_eq!(completion["values"][0], "bottom-1");
    assert_eq!(completion["total"], 150);
    assert_eq!(completion["hasMore"], true);
    let result = client
        .request("completion/complete", complete("top-14", json!({})))
        .await
        .unwrap();
    assert_eq!(
        result["completion"]["values"],
        json!([
            "top-14", "top-140", "top-141", "top-142", "top-143", "top-144", "top-145", "top-146",
            "top-147", "top-148", "top-149"
        ])
    );
    // An enum variable completes from its values with no completer.
    let result = client
        .request(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "shop://shelves/{shelf}/products/{id}"}, "argument": {"name": "shelf", "value": "b"}}),
        )
        .await
        .unwrap();
    assert_eq!(result["completion"]["values"], json!(["bottom"]));
}

#[tokio::test]
async fn capabilities_declare_resources_and_completions() {
    let client = Checked::connect_uninitialized(&server(), "2025-11-25");
    let result = client
        .request("initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}))
        .await
        .unwrap();
    assert_eq!(
        result["capabilities"]["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    assert_eq!(result["capabilities"]["completions"], json!({}));
    assert!(result["capabilities"].get("tools").is_none());
    assert!(result["capabilities"].get("prompts").is_none());
}

#[tokio::test]
async fn old_revisions_get_no_titles() {
    let client = Checked::connect(&server(), "2025-03-26").await;
    let list = client.request("resources/list", json!({})).await.unwrap();
    assert!(
        list["resources"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r.get("title").is_none())
    );
    read(&client, "shop://info/logo.png").await;
}

/// Resources built at run time (`DynamicResource`) are listed, read and removed as those of
/// `#[mcp_resource]` are: a plain one with its MIME type, a template whose reader gets the
/// variables, one added to a running server (clients hear the list changed); a malformed one
/// or a URI taken is refused, naming it.
#[tokio::test]
async fn resources_made_at_run_time_are_listed_and_read() {
    use mcp_runtime::DynamicResource;

    let today = DynamicResource::new("notes://today", "today")
        .title("Today")
        .description("Today's note.")
        .mime_type("text/markdown")
        .size(8)
        .reader(|_ctx, _uri, _variables| async { Ok::<_, HandlerError>("# Today\n") });
    let day = DynamicResource::template("notes://days/{day}", "day").reader(
        |_ctx, uri, variables| async move {
            match variables.get("day").map(String::as_str) {
                Some("monday") => Ok(format!("{uri}: gym")),
                _ => Err(HandlerError::not_found(uri)),
            }
        },
    );
    let server = Server::builder(mcp_runtime::server_info!())
        .resource::<hours>()
        .dynamic_resource(today)
        .dynamic_resource(day)
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    let list = client.request("resources/list", json!({})).await.unwrap();
    assert_eq!(
        list["resources"][0],
        json!({"uri": "notes://today", "name": "today", "title": "Today",
            "description": "Today's note.", "mimeType": "text/markdown", "size": 8})
    );
    let templates = client
        .request("resources/templates/list", json!({}))
        .await
        .unwrap();
    assert_eq!(
        templates["resourceTemplates"],
        json!([{"uriTemplate": "notes://days/{day}", "name": "day"}])
    );
    assert_eq!(
        read(&client, "notes://today").await["contents"][0],
        json!({"uri": "notes://today", "mimeType": "text/markdown", "text": "# Today\n"})
    );
    assert_eq!(
        read(&client, "notes://days/monday").await["contents"][0],
        json!({"uri": "notes://days/monday", "mimeType": "text/plain", "text": "notes://days/monday: gym"})
    );
    let error = client
        .request("resources/read", json!({"uri": "notes://days/sunday"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32002);

    // Added while serving: the list changed; a URI taken is refused and changes nothing.
    let handle = server.handle();
    let tomorrow = DynamicResource::new("notes://tomorrow", "tomorrow")
        .reader(|_ctx, _uri, _variables| async { Ok::<_, HandlerError>(vec![1_u8, 2]) });
    handle.add_dynamic_resource(tomorrow).unwrap();
    assert_eq!(
        client.next_message().await.unwrap()["method"],
        "notifications/resources/list_changed"
    );
    assert_eq!(
        read(&client, "notes://tomorrow").await["contents"][0],
        json!({"uri": "notes://tomorrow", "mimeType": "application/octet-stream", "blob": "AQI="})
    );
    let taken = handle
        .add_dynamic_resource(DynamicResource::new("notes://tomorrow", "again"))
        .unwrap_err()
        .to_string();
    assert!(
        taken.contains("two resources have the uri `notes://tomorrow`")
            && taken.contains("`DynamicResource::new`")
            && taken.contains("`ServerHandle::remove_resource`"),
        "{taken}"
    );
    assert!(handle.remove_resource("notes://tomorrow"));
    assert_eq!(
        client.next_message().await.unwrap()["method"],
        "notifications/resources/list_changed"
    );

    let error = Server::builder(mcp_runtime::server_info!())
        .dynamic_resource(DynamicResource::new("today", "today"))
        .dynamic_resource(DynamicResource::template("notes://{day", "day"))
        .dynamic_resource(DynamicResource::new("notes://x", ""))
        .build()
        .err()
        .expect("malformed resources are refused")
        .to_string();
    assert!(
        error.contains("3 problems")
            && error.contains("invalid resource `today`: its URI must be absolute")
            && error.contains("invalid resource `notes://{day`: its URI template:")
            && error.contains("invalid resource `notes://x`: its name is empty"),
        "{error}"
    );
}

/// The names kept in the server's state, for the async completer below.
struct Aisles(Vec<&'static str>);

/// Looks the aisles up as a database would: after a wait, in the server's state.
async fn aisle_names(_prefix: String, context: CompletionContext) -> Vec<&'static str> {
    tokio::time::sleep(Duration::from_millis(20)).await;
    let aisles = context.state::<Aisles>().expect("given with .state(..)");
    aisles.0.clone()
}

/// The aisles' names, found later.
async fn later(_prefix: String) -> [&'static str; 2] {
    tokio::task::yield_now().await;
    ["north", "south"]
}

/// One aisle of the shop.
#[mcp_resource(uri = "shop://aisles/{wing}/{aisle}")]
fn aisle(#[complete(later)] wing: String, #[complete(aisle_names)] aisle: String) -> String {
    format!("{wing} {aisle}")
}

/// A completer may be an `async fn` taking the prefix (and the context) by value: its values
/// are awaited, then filtered and capped as a plain function's.
#[tokio::test]
async fn async_completers_are_awaited() {
    let server = Server::builder(mcp_runtime::server_info!())
        .resource::<aisle>()
        .state(Aisles(vec!["toys", "tools", "food"]))
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    let complete = |name: &str, value: &str| {
        json!({
            "ref": {"type": "ref/resource", "uri": "shop://aisles/{wing}/{aisle}"},
            "argument": {"name": name, "value": value},
        })
    };
    let result = client
        .request("completion/complete", complete("aisle", "to"))
        .await
        .unwrap();
    assert_eq!(
        result["completion"],
        json!({"values": ["toys", "tools"], "total": 2})
    );
    let result = client
        .request("completion/complete", complete("wing", "s"))
        .await
        .unwrap();
    assert_eq!(result["completion"]["values"], json!(["south"]));
}
