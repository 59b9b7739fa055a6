//! `tools/list` and `tools/call` through the real protocol, every message checked against the
//! official schema of each session revision.

mod common;

use common::{Checked, SESSION_REVISIONS, first_text, validate_against};
use mcp_runtime::prelude::*;
use mcp_runtime::{BuildProblem, Server};
use serde_json::{Value, json};

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Debug)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
}

/// A point on the plane.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Point {
    /// Horizontal.
    x: i64,
    /// Vertical.
    y: i64,
}

/// Adds two integers.
#[mcp_tool(read_only, idempotent)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> String {
    (a + b).to_string()
}

/// Describes a color, optionally with a note.
#[mcp_tool(title = "Color describer")]
async fn describe(color: Color, note: Option<String>) -> String {
    match note {
        Some(note) => format!("{color:?} ({note})"),
        None => format!("{color:?}"),
    }
}

/// Mirrors a point through the origin.
#[mcp_tool]
fn mirror(point: Point) -> Point {
    Point {
        x: -point.x,
        y: -point.y,
    }
}

/// Counts up to n.
#[mcp_tool]
fn count(n: u32) -> Vec<u32> {
    (1..=n).collect()
}

/// Divides, failing on zero.
#[mcp_tool(name = "math.divide")]
fn divide(a: f64, b: f64) -> Result<Point, String> {
    if b == 0.0 {
        return Err("cannot divide by zero".to_owned());
    }
    Ok(Point {
        x: (a / b) as i64,
        y: 0,
    })
}

/// Always panics.
#[mcp_tool]
fn explode() -> String {
    panic!("boom")
}

/// Reports what the context knows.
#[mcp_tool]
fn whoami(ctx: Context) -> String {
    format!("{} {}", ctx.request_id(), ctx.revision())
}

struct Greeting(String);

/// Greets with the configured greeting.
#[mcp_tool]
fn greet(greeting: State<Greeting>, name: String) -> String {
    let Greeting(text) = &*greeting;
    format!("{text}, {name}!")
}

mod elsewhere {
    use mcp_runtime::prelude::*;

    /// Another tool that wants the name `add` (in another module, so only the server sees
    /// the clash).
    #[mcp_tool(name = "add")]
    pub(crate) fn add_again() -> String {
        String::new()
    }
}
use elsewhere::add_again;

fn server() -> Server {
    Server::builder(mcp_runtime::server_info!())
        .tool::<add>()
        .tool::<describe>()
        .tool::<mirror>()
        .tool::<count>()
        .tool::<divide>()
        .tool::<explode>()
        .tool::<whoami>()
        .tool::<greet>()
        .state(Greeting("Hello".to_owned()))
        .build()
        .unwrap()
}

fn by_name<'a>(tools: &'a [Value], name: &str) -> &'a Value {
    tools
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no tool {name}"))
}

#[tokio::test]
async fn tools_are_listed_in_name_order_with_their_schemas() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let tools = client.list_tools().await;
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "add",
            "count",
            "describe",
            "explode",
            "greet",
            "math.divide",
            "mirror",
            "whoami"
        ]
    );
    let add = by_name(&tools, "add");
    assert_eq!(add["description"], "Adds two integers.");
    assert_eq!(
        add["inputSchema"],
        json!({
            "type": "object",
            "properties": {
                "a": {"type": "integer", "description": "The first addend."},
                "b": {"type": "integer", "description": "The second addend."},
            },
            "required": ["a", "b"],
        })
    );
    assert_eq!(
        add["annotations"],
        json!({"readOnlyHint": true, "idempotentHint": true})
    );
    assert!(
        add.get("outputSchema").is_none(),
        "text tools have no outputSchema"
    );
}

#[tokio::test]
async fn optional_parameters_are_not_required_and_carry_no_null() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let tools = client.list_tools().await;
    let describe = by_name(&tools, "describe");
    assert_eq!(describe["title"], "Color describer");
    assert_eq!(describe["inputSchema"]["required"], json!(["color"]));
    assert_eq!(
        describe["inputSchema"]["properties"]["note"],
        json!({"type": "string"})
    );
    assert_eq!(
        describe["inputSchema"]["properties"]["color"],
        json!({"type": "string", "enum": ["red", "green"]})
    );
    let text = serde_json::to_string(&tools).unwrap();
    assert!(!text.contains("null"), "a schema mentions null: {text}");
    assert!(
        !text.contains("$ref"),
        "a schema is not self-contained: {text}"
    );
    assert_eq!(
        first_text(&client.call("describe", json!({"color": "red"})).await),
        "Red"
    );
    assert_eq!(
        first_text(
            &client
                .call("describe", json!({"color": "green", "note": "grass"}))
                .await
        ),
        "Green (grass)"
    );
}

#[tokio::test]
async fn context_and_state_parameters_stay_out_of_the_schema() {
    let client = Checked::connect(&server(), "2025-06-18").await;
    let tools = client.list_tools().await;
    assert_eq!(
        by_name(&tools, "whoami")["inputSchema"],
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        by_name(&tools, "greet")["inputSchema"]["required"],
        json!(["name"])
    );
    let reply = client.call("greet", json!({"name": "Ana"})).await;
    assert_eq!(first_text(&reply), "Hello, Ana!");
    let reply = client
        .request("tools/call", json!({"name": "whoami", "arguments": {}}))
        .await
        .unwrap();
    let text = first_text(&reply);
    assert!(text.ends_with(" 2025-06-18"), "{text}");
}

#[tokio::test]
async fn structured_results_match_their_output_schema() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let tools = client.list_tools().await;
    let mirror = by_name(&tools, "mirror");
    let result = client
        .call("mirror", json!({"point": {"x": 1, "y": -2}}))
        .await;
    assert_eq!(result["structuredContent"], json!({"x": -1, "y": 2}));
    let text: Value = serde_json::from_str(first_text(&result)).unwrap();
    assert_eq!(text, result["structuredContent"]);
    validate_against(&mirror["outputSchema"], &result["structuredContent"]).unwrap();
    assert_eq!(mirror["outputSchema"]["type"], "object");
}

/// Says hello, in text held otherwise than in a `String`.
#[mcp_tool]
fn hello_cow(name: String) -> std::borrow::Cow<'static, str> {
    if name.is_empty() {
        std::borrow::Cow::Borrowed("hello")
    } else {
        std::borrow::Cow::Owned(format!("hello, {name}"))
    }
}

/// A `Cow<str>` (like `&String`, `Box<str>`, `Arc<str>`) is text as a `String` is: no
/// `structuredContent`, no `outputSchema`.
#[tokio::test]
async fn text_of_other_string_types_is_text() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<hello_cow>()
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    let list = client.request("tools/list", json!({})).await.unwrap();
    assert!(list["tools"][0].get("outputSchema").is_none(), "{list}");
    let result = client
        .request(
            "tools/call",
            json!({"name": "hello_cow", "arguments": {"name": "Ana"}}),
        )
        .await
        .unwrap();
    assert_eq!(
        result,
        json!({"content": [{"type": "text", "text": "hello, Ana"}]})
    );
}

#[tokio::test]
async fn results_that_are_not_objects_are_wrapped() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let tools = client.list_tools().await;
    let count = by_name(&tools, "count");
    assert_eq!(count["outputSchema"]["required"], json!(["result"]));
    let result = client.call("count", json!({"n": 3})).await;
    assert_eq!(result["structuredContent"], json!({"result": [1, 2, 3]}));
    validate_against(&count["outputSchema"], &result["structuredContent"]).unwrap();
}

#[tokio::test]
async fn an_err_is_a_tool_error_result_not_a_protocol_error() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let result = client.call("math.divide", json!({"a": 1, "b": 0})).await;
    assert_eq!(result["isError"], true);
    assert_eq!(first_text(&result), "cannot divide by zero");
    assert!(result.get("structuredContent").is_none());
    let result = client.call("math.divide", json!({"a": 9, "b": 3})).await;
    assert!(result.get("isError").is_none());
    assert_eq!(result["structuredContent"], json!({"x": 3, "y": 0}));
}

#[tokio::test]
async fn bad_arguments_give_an_error_result_naming_each_field() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let result = client.call("add", json!({"a": "one"})).await;
    assert_eq!(result["isError"], true);
    assert_eq!(
        first_text(&result),
        "Invalid arguments for tool `add`: a: expected an integer, got \"one\"; b: missing required argument"
    );
    let result = client.call("describe", json!({"color": "blue"})).await;
    assert_eq!(result["isError"], true);
    let text = first_text(&result);
    assert!(
        text.contains("color: expected one of \"red\", \"green\", got \"blue\""),
        "{text}"
    );
    let result = client.call("mirror", json!({"point": {"x": 1}})).await;
    let text = first_text(&result);
    assert!(text.contains("point: missing field `y`"), "{text}");
}

#[tokio::test]
async fn a_call_with_misnamed_params_is_invalid_params_saying_what_was_expected() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let error = client
        .request(
            "tools/call",
            json!({"tool": "add", "args": {"a": 1, "b": 2}}),
        )
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(error.message.contains("\"name\""), "{}", error.message);
    assert!(error.message.contains("`tool`"), "{}", error.message);
    let error = client
        .request("tools/call", json!({"name": "add", "arguments": [1, 2]}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert!(
        error.message.contains("`arguments` must be an object"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn an_unknown_tool_is_invalid_params_naming_it() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let error = client
        .request("tools/call", json!({"name": "ad", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
    assert_eq!(error.message, "Unknown tool: `ad`; did you mean `add`?");
    assert_eq!(error.data, Some(json!({"tool": "ad"})));
}

/// `#[mcp_tool]` on a plain function gives what runs its calls at once, with no future; an
/// `async` one's calls are awaited. Either way a call gives the same result.
#[tokio::test]
async fn only_a_plain_function_runs_at_once() {
    assert!(<add as mcp_runtime::Tool>::CALL_AT_ONCE.is_some());
    assert!(<describe as mcp_runtime::Tool>::CALL_AT_ONCE.is_none());
    let client = Checked::connect(&server(), "2025-11-25").await;
    let result = client.call("add", json!({"a": 2, "b": 3})).await;
    assert_eq!(first_text(&result), "5");
    let result = client
        .call("describe", json!({"color": "red", "note": "n"}))
        .await;
    assert!(!first_text(&result).is_empty(), "{result}");
}

#[tokio::test]
async fn a_panicking_tool_gives_an_error_result_and_the_server_keeps_serving() {
    let client = Checked::connect(&server(), "2025-11-25").await;
    let result = client.call("explode", json!({})).await;
    assert_eq!(result["isError"], true);
    assert!(first_text(&result).contains("boom"));
    assert_eq!(
        first_text(&client.call("add", json!({"a": 1, "b": 2})).await),
        "3"
    );
}

#[tokio::test]
async fn every_session_revision_gets_schema_valid_messages() {
    for revision in SESSION_REVISIONS {
        let client = Checked::connect(&server(), revision).await;
        let tools = client.list_tools().await;
        assert_eq!(tools.len(), 8);
        client
            .call("mirror", json!({"point": {"x": 1, "y": 1}}))
            .await;
        client.call("add", json!({})).await;
        client.call("math.divide", json!({"a": 1, "b": 0})).await;
    }
}

#[tokio::test]
async fn revision_2025_03_26_gets_no_titles_or_structured_content() {
    let client = Checked::connect(&server(), "2025-03-26").await;
    let tools = client.list_tools().await;
    let describe = by_name(&tools, "describe");
    assert!(describe.get("title").is_none());
    assert_eq!(describe["annotations"]["title"], "Color describer");
    assert!(by_name(&tools, "mirror").get("outputSchema").is_none());
    let result = client
        .call("mirror", json!({"point": {"x": 1, "y": 1}}))
        .await;
    assert!(result.get("structuredContent").is_none());
    assert_eq!(first_text(&result), r#"{"x":-1,"y":-1}"#);
}

#[tokio::test]
async fn tools_list_pages_with_an_opaque_cursor() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<add>()
        .tool::<count>()
        .tool::<describe>()
        .tool::<mirror>()
        .tool::<whoami>()
        .page_size(2)
        .build()
        .unwrap();
    let client = Checked::connect(&server, "2025-11-25").await;
    let first = client.request("tools/list", json!({})).await.unwrap();
    assert_eq!(first["tools"].as_array().unwrap().len(), 2);
    let cursor = first["nextCursor"].clone();
    assert!(cursor.is_string());
    let second = client
        .request("tools/list", json!({"cursor": cursor}))
        .await
        .unwrap();
    assert_eq!(second["tools"][0]["name"], "describe");
    let names: Vec<String> = client
        .list_tools()
        .await
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["add", "count", "describe", "mirror", "whoami"]);
    let error = client
        .request("tools/list", json!({"cursor": "bogus"}))
        .await
        .unwrap_err();
    assert_eq!(error.code, -32602);
}

#[test]
fn two_tools_with_one_name_do_not_build() {
    let error = Server::builder(mcp_runtime::server_info!())
        .tool::<add>()
        .tool::<add_again>()
        .build()
        .err()
        .expect("a duplicate name is rejected");
    match error.problems() {
        [
            BuildProblem::Duplicate {
                kind,
                name,
                first,
                second,
            },
        ] => {
            assert_eq!(*kind, "tool");
            assert_eq!(name, "add");
            assert!(first.ends_with("::add") || second.ends_with("::add"));
            assert!(first.ends_with("add_again") || second.ends_with("add_again"));
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(error.to_string().contains("two tools have the name `add`"));
}

#[test]
fn adding_the_same_tool_twice_is_harmless() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<add>()
        .tool::<add>()
        .build()
        .unwrap();
    assert_eq!(server.tool_names(), ["add"]);
}

/// Two tools made at run time with one name are two definitions: the build refuses them, where
/// one was dropped without a word (both had the same "location"). Adding one whose name is
/// taken to a running server says how to replace it.
#[test]
fn two_tools_made_at_run_time_with_one_name_do_not_build() {
    let error = Server::builder(mcp_runtime::server_info!())
        .dynamic_tool(mcp_runtime::DynamicTool::new("lookup", "Looks up a word."))
        .dynamic_tool(mcp_runtime::DynamicTool::new("lookup", "Looks up a price."))
        .build()
        .err()
        .expect("two tools named lookup");
    assert!(
        error
            .to_string()
            .contains("two tools have the name `lookup`"),
        "{error}"
    );
    let server = Server::builder(mcp_runtime::server_info!())
        .dynamic_tool(mcp_runtime::DynamicTool::new("lookup", "Looks up a word."))
        .build()
        .unwrap();
    let error = server
        .handle()
        .add_dynamic_tool(mcp_runtime::DynamicTool::new("lookup", "Looks up a price."))
        .unwrap_err();
    assert!(
        error.to_string().contains("ServerHandle::remove_tool"),
        "{error}"
    );
}

/// `.state(Arc::new(value))` serves a `State<T>` parameter, sharing that `Arc`.
#[tokio::test]
async fn state_given_as_an_arc_serves_state_of_its_target() {
    let greeting = std::sync::Arc::new(Greeting("Hi".to_owned()));
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<greet>()
        .state(std::sync::Arc::clone(&greeting))
        .build()
        .expect("an Arc<Greeting> meets State<Greeting>");
    let client = Checked::connect(&server, "2025-11-25").await;
    let reply = client.call("greet", json!({"name": "Ana"})).await;
    assert_eq!(first_text(&reply), "Hi, Ana!", "{reply}");
}

#[test]
fn a_tool_reading_missing_state_does_not_build() {
    let error = Server::builder(mcp_runtime::server_info!())
        .tool::<greet>()
        .build()
        .err()
        .expect("missing state is rejected");
    let message = error.to_string();
    assert!(message.contains("tool `greet` takes `State<"), "{message}");
    assert!(message.contains("Greeting"), "{message}");
}

#[test]
fn every_problem_is_reported_at_once() {
    let error = Server::builder(mcp_runtime::server_info!())
        .tool::<add>()
        .tool::<add_again>()
        .tool::<greet>()
        .page_size(0)
        .build()
        .err()
        .expect("three problems are rejected");
    assert!(
        matches!(
            error.problems(),
            [
                BuildProblem::ZeroPageSize,
                BuildProblem::MissingState { .. },
                BuildProblem::Duplicate { kind: "tool", .. },
            ]
        ),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.starts_with("3 problems:\n  1. the page size"),
        "{message}"
    );
    assert!(
        message.contains("\n  2. tool `greet` takes `State<"),
        "{message}"
    );
    assert!(
        message.contains("\n  3. two tools have the name `add`"),
        "{message}"
    );
}

#[test]
fn registered_tools_are_found_without_a_list_and_the_crate_names_the_server() {
    let error = mcp_runtime::server!()
        .build()
        .err()
        .expect("this test binary registers two tools named add");
    // (`greet` is registered too, without its state: a second problem.)
    assert!(
        error
            .problems()
            .iter()
            .any(|problem| matches!(problem, BuildProblem::Duplicate { kind: "tool", .. })),
        "{error}"
    );
    let info = mcp_runtime::server_info!();
    assert_eq!(info.name, "mcp-examples");
    assert_eq!(info.version, env!("CARGO_PKG_VERSION"));
}

#[test]
fn the_annotated_functions_stay_callable() {
    assert_eq!(add(2, 3), "5");
    assert_eq!(count(2), [1, 2]);
    assert_eq!(divide(1.0, 0.0).err().unwrap(), "cannot divide by zero");
}
