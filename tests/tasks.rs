//! The tasks extension of revision 2026-07-28 (`io.modelcontextprotocol/tasks`): a call to a
//! tool with task support, from a client that declares the extension, is answered with a task
//! once the tool first waits; `tasks/get`, `tasks/update` and `tasks/cancel` follow it. Every
//! message is checked against the official 2026-07-28 schema (the extension's own types are
//! not in it: its results are checked as the `Result` every result is, and their fields here).

mod common;

use std::time::Duration;

use common::first_text;
use common::stateless::Client;
use mcp_runtime::prelude::*;
use mcp_runtime::tasks::TaskLimits;
use mcp_runtime::testing::TestClient;
use mcp_runtime::{CallToolResult, Caller, Elicitation, ErrorCode, RpcError, Server};
use serde_json::{Value, json};

/// Waits `ms` milliseconds, then answers: a task from a client that declares the extension.
#[mcp_tool(task_support = "optional")]
async fn wait(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("waited {ms} ms")
}

/// Answers at once: never waits, so never a task.
#[mcp_tool(task_support = "optional")]
fn instant() -> &'static str {
    "at once"
}

/// Only as a task; fails as a tool.
#[mcp_tool(task_support = "required")]
async fn doomed() -> CallToolResult {
    tokio::time::sleep(Duration::from_millis(10)).await;
    CallToolResult::error("doomed, as always")
}

/// Breaks once it is a task.
#[mcp_tool(task_support = "optional")]
async fn broken(ctx: Context) -> String {
    ctx.continue_as_task().await;
    panic!("broken on purpose")
}

#[derive(Deserialize, Serialize, JsonSchema)]
struct Name {
    name: String,
}

/// Asks two names at once, as a task.
#[mcp_tool(task_support = "optional")]
async fn two_names(ctx: Context) -> Result<String, String> {
    ctx.continue_as_task().await;
    let (asking_first, asking_second) = (ctx.question("first"), ctx.question("second"));
    let (first, second) = tokio::join!(
        asking_first.elicit::<Name>("First name?"),
        asking_second.elicit::<Name>("Second name?"),
    );
    let name = |answer: Elicitation<Name>| match answer {
        Elicitation::Accept(Name { name }) => name,
        _ => "nobody".to_owned(),
    };
    let (first, second) = (
        first.map_err(|e| e.to_string())?,
        second.map_err(|e| e.to_string())?,
    );
    Ok(format!("{} and {}", name(first), name(second)))
}

/// Asks a name through the input-required flow, then goes on as a task.
#[mcp_tool(task_support = "required")]
async fn ask_then_task(ctx: Context) -> Result<String, String> {
    let answer = ctx
        .question("user_name")
        .elicit::<Name>("Your name?")
        .await
        .map_err(|e| e.to_string())?;
    ctx.continue_as_task().await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    Ok(match answer {
        Elicitation::Accept(Name { name }) => format!("Hello, {name}!"),
        _ => "Hello!".to_owned(),
    })
}

/// Asks one more question each time it runs, without end.
#[mcp_tool(task_support = "optional")]
async fn ask_forever(ctx: Context) -> Result<String, String> {
    ctx.continue_as_task().await;
    let mut n = 0;
    loop {
        ctx.question(format!("q{n}"))
            .elicit::<Name>("Again?")
            .await
            .map_err(|e| e.to_string())?;
        n += 1;
    }
}

/// The `spin` calls whose work saw its context cancelled: `LABEL polled` for the blocking
/// loop, `LABEL awaited` for the spawned waiter.
static SPUN_DOWN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

/// As a task, polls `ctx.is_cancelled()` on a blocking thread and waits on `ctx.cancelled()`
/// in a task of its own, neither of which a stopped run takes down (the polling gives up
/// after 10 s, so that a test that fails ends).
#[mcp_tool(task_support = "optional")]
async fn spin(ctx: Context, label: String) -> String {
    ctx.continue_as_task().await;
    let (waiting, awaited) = (ctx.clone(), format!("{label} awaited"));
    tokio::spawn(async move {
        waiting.cancelled().await;
        SPUN_DOWN.lock().unwrap().push(awaited);
    });
    tokio::task::spawn_blocking(move || {
        let give_up = std::time::Instant::now() + Duration::from_secs(10);
        while !ctx.is_cancelled() && std::time::Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(1));
        }
        if ctx.is_cancelled() {
            SPUN_DOWN.lock().unwrap().push(format!("{label} polled"));
        }
    })
    .await
    .unwrap();
    "stopped".to_owned()
}

/// Waits `ms` milliseconds, as a task, for a caller with the scope `notes:write`.
#[mcp_tool(task_support = "optional", scopes = ["notes:write"])]
async fn guarded(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    format!("waited {ms} ms")
}

/// Echoes: no task support.
#[mcp_tool]
fn echo(text: String) -> String {
    text
}

fn builder() -> mcp_runtime::ServerBuilder {
    Server::builder(mcp_runtime::server_info!())
        .tool::<wait>()
        .tool::<instant>()
        .tool::<doomed>()
        .tool::<broken>()
        .tool::<two_names>()
        .tool::<ask_then_task>()
        .tool::<ask_forever>()
        .tool::<spin>()
        .tool::<echo>()
}

fn server() -> Server {
    builder().build().unwrap()
}

const EXTENSION: &str = "io.modelcontextprotocol/tasks";

fn with_tasks() -> Value {
    json!({"elicitation": {}, "extensions": {EXTENSION: {}}})
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

/// A request from a client that declares the extension.
async fn ask(client: &Client, method: &str, params: Value) -> Result<Value, RpcError> {
    client.request_with(method, params, with_tasks()).await
}

async fn call(client: &Client, name: &str, arguments: Value) -> Value {
    ask(
        client,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
    .await
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

async fn get(client: &Client, task: &str) -> Value {
    ask(client, "tasks/get", json!({"taskId": task}))
        .await
        .unwrap()
}

/// `tasks/get` until the task ends, or has `status`.
async fn until(client: &Client, task: &str, status: &str) -> Value {
    for _ in 0..500 {
        let got = get(client, task).await;
        let now = got["status"].as_str().unwrap().to_owned();
        if now == status || ["completed", "failed", "cancelled"].contains(&now.as_str()) {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("task {task} never reached {status}");
}

fn task_id(created: &Value) -> String {
    created["taskId"].as_str().expect("a taskId").to_owned()
}

fn is_rfc3339(value: &Value) -> bool {
    let text = value.as_str().unwrap_or_default();
    text.len() == 24 && text.ends_with('Z') && text.as_bytes()[10] == b'T'
}

/// The extension is declared under `capabilities.extensions` when a tool supports tasks, and
/// only then; never as a `tasks` capability.
#[tokio::test]
async fn discover_declares_the_extension_when_a_tool_supports_tasks() {
    let client = Client::new(&server());
    let result = client.request("server/discover", json!({})).await.unwrap();
    assert_eq!(result["capabilities"]["extensions"][EXTENSION], json!({}));
    assert!(result["capabilities"].get("tasks").is_none());

    let plain = Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .build()
        .unwrap();
    let client = Client::new(&plain);
    let result = client.request("server/discover", json!({})).await.unwrap();
    assert!(result["capabilities"].get("extensions").is_none());
    let error = ask(&client, "tasks/get", json!({"taskId": "x"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::MethodNotFound);
}

/// A call that waits becomes a task: a flat `CreateTaskResult` (no `result`, `error`,
/// `inputRequests` nor `requestState`), found by `tasks/get` at once, completed later with
/// the tool's result inlined.
#[tokio::test]
async fn a_waiting_call_becomes_a_task_whose_result_tasks_get_inlines() {
    let client = Client::new(&server());
    let created = call(&client, "wait", json!({"ms": 50})).await;
    assert_eq!(created["resultType"], "task");
    assert_eq!(created["status"], "working");
    assert!(is_rfc3339(&created["createdAt"]), "{created}");
    assert!(is_rfc3339(&created["lastUpdatedAt"]), "{created}");
    assert_eq!(created["ttlMs"], 600_000);
    assert!(created["pollIntervalMs"].as_u64().unwrap() > 0);
    for absent in [
        "task",
        "result",
        "error",
        "inputRequests",
        "requestState",
        "ttl",
    ] {
        assert!(created.get(absent).is_none(), "{absent} in {created}");
    }
    assert!(created["_meta"]["io.modelcontextprotocol/serverInfo"].is_object());
    let task = task_id(&created);

    let working = get(&client, &task).await;
    assert_eq!(working["resultType"], "complete");
    assert_eq!(working["taskId"], task.as_str());
    assert_eq!(working["status"], "working");
    assert!(working.get("result").is_none());

    let done = until(&client, &task, "completed").await;
    assert_eq!(done["status"], "completed");
    assert_eq!(first_text(&done["result"]), "waited 50 ms");
    assert!(done.get("requestState").is_none());
    assert!(done.get("error").is_none());
}

/// A tool that returns without waiting is answered with its result, task support or not.
#[tokio::test]
async fn a_call_that_never_waits_is_answered_at_once() {
    let client = Client::new(&server());
    let result = call(&client, "instant", json!({})).await;
    assert_eq!(result["resultType"], "complete");
    assert_eq!(first_text(&result), "at once");
    assert!(result.get("taskId").is_none());
}

/// Without the extension: an optional tool runs as an ordinary call, a required one is
/// -32021 naming the extension, and the task methods are -32021.
#[tokio::test]
async fn a_client_without_the_extension_gets_ordinary_calls_or_32021() {
    let client = Client::new(&server());
    let result = client
        .request(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 1}}),
        )
        .await
        .unwrap();
    assert_eq!(result["resultType"], "complete");
    assert_eq!(first_text(&result), "waited 1 ms");

    let error = client
        .request("tools/call", json!({"name": "doomed", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::MissingRequiredClientCapability);
    assert_eq!(
        error.data.unwrap()["requiredCapabilities"]["extensions"][EXTENSION],
        json!({})
    );
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let params = json!({"taskId": "any", "inputResponses": {}});
        let error = client.request(method, params).await.unwrap_err();
        assert_eq!(
            error.kind(),
            ErrorCode::MissingRequiredClientCapability,
            "{method}"
        );
    }
}

/// A tool error is a completed task whose result has `isError`; a panic is a failed task
/// carrying a JSON-RPC error and no result, its message also as `statusMessage` (tasks.md,
/// "Task Execution Errors": the `tasks/get` of a failed task SHOULD include one).
#[tokio::test]
async fn tool_errors_complete_and_panics_fail() {
    let client = Client::new(&server());
    let task = task_id(&call(&client, "doomed", json!({})).await);
    let done = until(&client, &task, "completed").await;
    assert_eq!(done["status"], "completed");
    assert_eq!(done["result"]["isError"], true);
    assert!(done.get("statusMessage").is_none(), "{done}");

    let task = task_id(&call(&client, "broken", json!({})).await);
    let failed = until(&client, &task, "failed").await;
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"]["code"], -32603);
    assert!(
        failed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("broken on purpose")
    );
    assert!(failed.get("result").is_none());
    assert_eq!(
        failed["statusMessage"], failed["error"]["message"],
        "{failed}"
    );
}

/// A task's questions park it in `input_required`; `tasks/update` may answer some (ignoring
/// keys never asked), and the task goes on once all are answered, with every answer.
#[tokio::test]
async fn questions_wait_for_tasks_update_one_answer_at_a_time() {
    let client = Client::new(&server());
    let task = task_id(&call(&client, "two_names", json!({})).await);
    let parked = until(&client, &task, "input_required").await;
    assert_eq!(parked["status"], "input_required");
    let asked = parked["inputRequests"].as_object().unwrap();
    assert_eq!(asked.len(), 2);
    assert_eq!(asked["first"]["method"], "elicitation/create");

    let ack = ask(
        &client,
        "tasks/update",
        json!({"taskId": task, "inputResponses": {
            "first": accept(json!({"name": "Ana"})),
            "never-asked": {"ignored": true},
        }}),
    )
    .await
    .unwrap();
    assert_eq!(ack["resultType"], "complete");
    for absent in ["taskId", "status", "result", "inputRequests"] {
        assert!(ack.get(absent).is_none(), "{absent} in {ack}");
    }
    let still = get(&client, &task).await;
    assert_eq!(still["status"], "input_required");
    let pending: Vec<&String> = still["inputRequests"].as_object().unwrap().keys().collect();
    assert_eq!(pending, ["second"]);

    ask(
        &client,
        "tasks/update",
        json!({"taskId": task, "inputResponses": {"second": accept(json!({"name": "Bo"}))}}),
    )
    .await
    .unwrap();
    let done = until(&client, &task, "completed").await;
    assert_eq!(first_text(&done["result"]), "Ana and Bo");
}

/// A task takes at most 16 rounds of questions, as a request does (RELIABILITY.md, "Both
/// transports"): the answers it gathers stay bounded, and a tool that asks without end
/// fails saying so.
#[tokio::test]
async fn a_task_that_asks_without_end_fails_after_16_rounds() {
    let client = Client::new(&server());
    let task = task_id(&call(&client, "ask_forever", json!({})).await);
    for n in 0..16 {
        let parked = until(&client, &task, "input_required").await;
        assert_eq!(parked["status"], "input_required", "round {n}: {parked}");
        let key = format!("q{n}");
        assert!(parked["inputRequests"].get(&key).is_some(), "{parked}");
        ask(
            &client,
            "tasks/update",
            json!({"taskId": task, "inputResponses": {key: accept(json!({"name": "again"}))}}),
        )
        .await
        .unwrap();
        // Wait until the answer is taken and the task runs again.
        for _ in 0..500 {
            let now = get(&client, &task).await;
            if now["inputRequests"].get(format!("q{n}")).is_none() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    let failed = until(&client, &task, "failed").await;
    assert_eq!(failed["status"], "failed", "{failed}");
    let message = failed["error"]["message"].as_str().unwrap();
    assert!(message.contains("at most 16 rounds"), "{message}");
}

/// A question before `continue_as_task` is an input-required result (no task yet); the retry
/// with the answer becomes a task whose result uses it.
#[tokio::test]
async fn input_gathered_first_then_a_task() {
    let client = Client::new(&server());
    let first = call(&client, "ask_then_task", json!({})).await;
    assert_eq!(first["resultType"], "input_required");
    assert!(first.get("taskId").is_none());
    let state = first["requestState"].clone();
    let created = ask(
        &client,
        "tools/call",
        json!({"name": "ask_then_task", "arguments": {},
               "inputResponses": {"user_name": accept(json!({"name": "Alice"}))},
               "requestState": state}),
    )
    .await
    .unwrap();
    assert_eq!(created["resultType"], "task");
    assert!(created.get("requestState").is_none());
    let done = until(&client, &task_id(&created), "completed").await;
    assert_eq!(first_text(&done["result"]), "Hello, Alice!");
}

/// Cancelling stops a running task (it stays `cancelled`); cancelling again, or a finished
/// task, is the same empty acknowledgement.
#[tokio::test]
async fn cancel_is_idempotent_and_final() {
    let client = Client::new(&server());
    let task = task_id(&call(&client, "wait", json!({"ms": 60_000})).await);
    for _ in 0..2 {
        let ack = ask(&client, "tasks/cancel", json!({"taskId": task}))
            .await
            .unwrap();
        assert_eq!(ack["resultType"], "complete");
        assert!(ack.get("status").is_none());
    }
    assert_eq!(get(&client, &task).await["status"], "cancelled");
    let ack = ask(
        &client,
        "tasks/update",
        json!({"taskId": task, "inputResponses": {"x": 1}}),
    )
    .await
    .unwrap();
    assert_eq!(ack["resultType"], "complete");
    assert_eq!(get(&client, &task).await["status"], "cancelled");
}

/// Waits up to 5 s until the `spin` work `labels` saw its context cancelled.
async fn spun_down(labels: &[&str]) {
    for _ in 0..500 {
        let done = SPUN_DOWN.lock().unwrap().clone();
        if labels.iter().all(|label| done.iter().any(|d| d == label)) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{labels:?} never saw the context cancelled");
}

/// `tasks/cancel` (tasks.md, "Task Cancellation"), and the end of a task's `ttl`, cancel the
/// context its tool runs with, as a cancelled request's: work on a blocking thread polling
/// `ctx.is_cancelled()`, and a task of the tool's own waiting on `ctx.cancelled()`, end, where
/// only the run was stopped and they went on for ever.
#[tokio::test]
async fn a_cancelled_or_expired_task_s_context_is_cancelled() {
    let server = builder()
        .task_limits(TaskLimits {
            ttl: Duration::from_millis(500),
            ..TaskLimits::default()
        })
        .build()
        .unwrap();
    let client = Client::new(&server);
    let cancelled = task_id(&call(&client, "spin", json!({"label": "cancelled"})).await);
    let expiring = task_id(&call(&client, "spin", json!({"label": "expired"})).await);
    ask(&client, "tasks/cancel", json!({"taskId": cancelled}))
        .await
        .unwrap();
    spun_down(&["cancelled polled", "cancelled awaited"]).await;

    tokio::time::sleep(Duration::from_millis(600)).await;
    // The lookup sweeps the expired tasks first.
    let error = ask(&client, "tasks/get", json!({"taskId": expiring}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::InvalidParams);
    spun_down(&["expired polled", "expired awaited"]).await;
}

/// Unknown ids, malformed params and the methods the extension removed.
#[tokio::test]
async fn hostile_task_requests_are_refused() {
    let client = Client::new(&server());
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let params = json!({"taskId": "no-such-task", "inputResponses": {}});
        let error = ask(&client, method, params).await.unwrap_err();
        assert_eq!(error.kind(), ErrorCode::InvalidParams, "{method}");
        assert!(error.message.contains("no task `no-such-task`"), "{error}");
    }
    let task = task_id(&call(&client, "wait", json!({"ms": 60_000})).await);
    for params in [
        json!({"taskId": task, "inputResponses": "yes"}),
        json!({"taskId": task}),
        json!({"taskId": 7, "inputResponses": {}}),
    ] {
        let error = ask(&client, "tasks/update", params.clone())
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorCode::InvalidParams, "{params}");
    }
    for method in ["tasks/result", "tasks/list"] {
        let error = ask(&client, method, json!({"taskId": task}))
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorCode::MethodNotFound, "{method}");
    }
    ask(&client, "tasks/cancel", json!({"taskId": task}))
        .await
        .unwrap();
}

/// A task is its creator's: another caller naming its id is told it does not exist.
#[tokio::test]
async fn another_caller_s_task_is_unknown() {
    let server = server();
    let alice = TestClient::as_caller(
        &server,
        Caller::new("alice", Vec::<String>::new(), Default::default()),
    );
    let mallory = TestClient::as_caller(
        &server,
        Caller::new("mallory", Vec::<String>::new(), Default::default()),
    );
    let created = alice
        .request_stateless(
            "tools/call",
            json!({"name": "wait", "arguments": {"ms": 60_000}}),
            with_tasks(),
        )
        .await
        .unwrap();
    let task = task_id(&created);
    for method in ["tasks/get", "tasks/cancel"] {
        let error = mallory
            .request_stateless(method, json!({"taskId": task}), with_tasks())
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorCode::InvalidParams, "{method}");
    }
    let mine = alice
        .request_stateless("tasks/get", json!({"taskId": task}), with_tasks())
        .await
        .unwrap();
    assert_eq!(mine["status"], "working");
}

/// A task request needs the scopes of the task's tool (tasks.md, "Security Considerations":
/// servers MUST authorize each task-related request): its creator (the same issuer and
/// subject) with a token that no longer carries them is refused `tasks/get`, `tasks/update`,
/// `tasks/cancel` and a listen naming the task, -32600 naming the scope as `tools/call` of the
/// tool says it, where only the owner was compared; with them it is served.
#[tokio::test]
async fn a_task_request_needs_the_scopes_of_its_tool() {
    let server = Server::builder(mcp_runtime::server_info!())
        .tool::<guarded>()
        .build()
        .unwrap();
    let ana = |scopes: &[&str]| {
        let caller = Caller::new("ana", scopes.to_vec(), Default::default());
        TestClient::as_caller(&server, caller)
    };
    let (with, without) = (ana(&["notes:write"]), ana(&["notes:read"]));
    let created = with
        .request_stateless(
            "tools/call",
            json!({"name": "guarded", "arguments": {"ms": 60_000}}),
            with_tasks(),
        )
        .await
        .unwrap();
    let task = task_id(&created);
    for (method, params) in [
        ("tasks/get", json!({"taskId": task})),
        (
            "tasks/update",
            json!({"taskId": task, "inputResponses": {}}),
        ),
        ("tasks/cancel", json!({"taskId": task})),
        (
            "subscriptions/listen",
            json!({"notifications": {"taskIds": [task]}}),
        ),
    ] {
        let error = without
            .request_stateless(method, params, with_tasks())
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorCode::InvalidRequest, "{method}");
        assert!(
            error
                .message
                .starts_with("tool `guarded` needs the scope `notes:write`"),
            "{method}: {error}"
        );
    }
    let read = with
        .request_stateless("tasks/get", json!({"taskId": task}), with_tasks())
        .await
        .unwrap();
    assert_eq!(read["status"], "working");
}

/// At most `max_live` tasks are held; one more call is refused with -32603 naming the limit,
/// and a task is forgotten (and stopped) once its `ttl` has passed.
#[tokio::test]
async fn tasks_are_held_within_their_limits() {
    let server = builder()
        .task_limits(TaskLimits {
            max_live: 1,
            ttl: Duration::from_millis(300),
            ..TaskLimits::default()
        })
        .build()
        .unwrap();
    let client = Client::new(&server);
    let created = call(&client, "wait", json!({"ms": 60_000})).await;
    assert_eq!(created["ttlMs"], 300);
    let task = task_id(&created);
    let error = ask(
        &client,
        "tools/call",
        json!({"name": "wait", "arguments": {"ms": 60_000}}),
    )
    .await
    .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::InternalError);
    assert!(error.message.contains("holds 1 tasks"), "{error}");

    tokio::time::sleep(Duration::from_millis(400)).await;
    let error = ask(&client, "tasks/get", json!({"taskId": task}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::InvalidParams);
    let again = call(&client, "wait", json!({"ms": 1})).await;
    assert_eq!(again["resultType"], "task");
}

/// A time to live of `Duration::MAX` ("no end") is a year: the task is held and `tasks/get`
/// reads it, where adding the time to live to its creation panicked.
#[tokio::test]
async fn an_endless_time_to_live_is_a_year() {
    let server = builder()
        .task_limits(TaskLimits {
            ttl: Duration::MAX,
            poll_interval: Duration::MAX,
            ..TaskLimits::default()
        })
        .build()
        .unwrap();
    let client = Client::new(&server);
    let created = call(&client, "wait", json!({"ms": 60_000})).await;
    assert_eq!(created["ttlMs"], 365 * 24 * 60 * 60 * 1000_u64);
    let task = task_id(&created);
    let read = ask(&client, "tasks/get", json!({"taskId": task}))
        .await
        .unwrap();
    assert_eq!(read["status"], "working", "{read}");
}

/// A raw `subscriptions/listen` following `tasks` (it is answered only when it ends).
fn listen_to_tasks(id: u64, tasks: Value, capabilities: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
           "params": {"notifications": {"taskIds": tasks}, "_meta": {
               "io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": capabilities}}})
    .to_string()
}

/// The extension's status notifications: a listen stream naming its caller's tasks in
/// `taskIds` is acknowledged with the ids it follows (not unknown ones), then gets
/// `notifications/tasks` for each new status, as `tasks/get` shows it, tagged with the
/// subscription (tasks.md, "Task Status Notifications"). A request naming `taskIds` without
/// the extension declared is refused with -32021 and the missing capability, not acknowledged
/// ("Protocol Errors": servers MUST return this error for non-declaring clients requesting
/// task notifications).
#[tokio::test]
async fn listen_streams_follow_task_statuses() {
    let client = Client::new(&server());
    let task = task_id(&call(&client, "two_names", json!({})).await);
    until(&client, &task, "input_required").await;
    let wait = Duration::from_secs(5);

    client
        .client
        .send_raw(&listen_to_tasks(5, json!([task, "not-a-task"]), json!({})));
    let refused = client.client.next_message(wait).await.unwrap();
    assert_eq!(refused["id"], 5, "{refused}");
    assert_eq!(refused["error"]["code"], -32021, "{refused}");
    assert_eq!(
        refused["error"]["data"],
        json!({"requiredCapabilities": {"extensions": {EXTENSION: {}}}})
    );

    client.client.send_raw(&listen_to_tasks(
        6,
        json!([task, "not-a-task"]),
        with_tasks(),
    ));
    let ack = client.client.next_message(wait).await.unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(ack["params"]["notifications"]["taskIds"], json!([task]));

    ask(
        &client,
        "tasks/update",
        json!({"taskId": task, "inputResponses": {
            "first": accept(json!({"name": "Ana"})),
            "second": accept(json!({"name": "Bo"})),
        }}),
    )
    .await
    .unwrap();
    let mut statuses = Vec::new();
    while statuses.last() != Some(&json!("completed")) {
        let note = client.client.next_message(wait).await.expect("a status");
        assert_eq!(note["method"], "notifications/tasks");
        assert_eq!(note["params"]["taskId"], task.as_str());
        assert_eq!(
            note["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
            6
        );
        if note["params"]["status"] == "completed" {
            assert_eq!(first_text(&note["params"]["result"]), "Ana and Bo");
        }
        statuses.push(note["params"]["status"].clone());
    }
    assert_eq!(statuses, [json!("working"), json!("completed")]);
    client.assert_valid();
}

/// A server that does not offer the extension (no tool supports tasks) honours no `taskIds`:
/// a listen request naming some, declaring the extension or not, is acknowledged without
/// them, not refused (tasks.md, "Capability Negotiation": the -32021 of "Task Status
/// Notifications" is asked of a server that declares the extension).
#[tokio::test]
async fn a_server_without_task_tools_acknowledges_no_task_ids() {
    let plain = Server::builder(mcp_runtime::server_info!())
        .tool::<echo>()
        .build()
        .unwrap();
    let client = Client::new(&plain);
    for (id, capabilities) in [(1, json!({})), (2, with_tasks())] {
        client.client.send_raw(&listen_to_tasks(
            id,
            json!(["0123456789abcdef"]),
            capabilities,
        ));
        let ack = client
            .client
            .next_message(Duration::from_secs(5))
            .await
            .unwrap();
        assert_eq!(
            ack["method"], "notifications/subscriptions/acknowledged",
            "{ack}"
        );
        assert!(
            ack["params"]["notifications"].get("taskIds").is_none(),
            "{ack}"
        );
    }
}

/// The session-based revisions have no tasks extension: there a tool with task support, even
/// a `"required"` one, runs as an ordinary call, and `tasks/get` does not exist.
#[tokio::test]
async fn a_session_calls_task_tools_as_ordinary_tools() {
    let client = common::Checked::connect(&server(), "2025-11-25").await;
    let result = client.call("doomed", json!({})).await;
    assert_eq!(result["isError"], true);
    assert_eq!(first_text(&result), "doomed, as always");
    let result = client.call("wait", json!({"ms": 1})).await;
    assert_eq!(first_text(&result), "waited 1 ms");
    let error = client
        .request("tasks/get", json!({"taskId": "any"}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::MethodNotFound);
    client.assert_valid();
}

/// A listen request names at most `max_subscriptions` tasks: one more is -32602.
#[tokio::test]
async fn a_listen_request_names_a_bounded_number_of_tasks() {
    let server = builder().max_subscriptions(2).build().unwrap();
    let client = Client::new(&server);
    let error = ask(
        &client,
        "subscriptions/listen",
        json!({"notifications": {"taskIds": ["a", "b", "c"]}}),
    )
    .await
    .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::InvalidParams);
    assert!(error.message.contains("`taskIds` names 3 tasks"), "{error}");
}

/// A tool built at run time opts in with `DynamicTool::task_support`.
#[tokio::test]
async fn a_dynamic_tool_may_support_tasks() {
    let tool = mcp_runtime::DynamicTool::new("nap", "Naps briefly.")
        .task_support(mcp_runtime::tasks::TaskSupport::Required)
        .handler(|_ctx, _arguments| async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            CallToolResult::text("rested")
        });
    let server = Server::builder(mcp_runtime::server_info!())
        .dynamic_tool(tool)
        .build()
        .unwrap();
    let client = Client::new(&server);
    let error = client
        .request("tools/call", json!({"name": "nap", "arguments": {}}))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorCode::MissingRequiredClientCapability);
    let task = task_id(&call(&client, "nap", json!({})).await);
    let done = until(&client, &task, "completed").await;
    assert_eq!(first_text(&done["result"]), "rested");
}
