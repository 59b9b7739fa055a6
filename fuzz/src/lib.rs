//! What the fuzz targets share: a server with tools, resources and prompts of every kind of
//! parameter, and a runtime to serve it on, both made once per fuzzing process.

use std::sync::LazyLock;
use std::time::Duration;

use mcp_runtime::Server;
use mcp_runtime::prelude::*;
use mcp_runtime::tasks::TaskLimits;
use mcp_runtime::testing::TestClient;

/// A unit enum: completes from its variants.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// Red.
    Red,
    /// Green.
    Green,
}

/// A nested struct with optional fields and an enum with data.
#[derive(Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
pub struct Order {
    /// How many.
    pub count: u32,
    /// An optional note.
    pub note: Option<String>,
    /// Where it goes.
    pub ship: Shipping,
    /// Tags.
    pub tags: Vec<String>,
}

/// An enum with data.
#[derive(Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Shipping {
    /// Picked up.
    Pickup,
    /// Sent to an address.
    Post {
        /// The address.
        address: String,
    },
}

/// Adds two numbers.
#[mcp_tool(read_only)]
fn add(a: i64, b: i64) -> String {
    a.saturating_add(b).to_string()
}

/// Echoes text back, optionally in a colour.
#[mcp_tool]
fn echo(text: String, colour: Option<Colour>) -> String {
    match colour {
        Some(Colour::Red) => format!("red {text}"),
        Some(Colour::Green) => format!("green {text}"),
        None => text,
    }
}

/// Takes a structured order and returns it.
#[mcp_tool]
fn place(order: Order) -> Result<Order, String> {
    if order.count == 0 {
        return Err("count: must be at least 1".to_owned());
    }
    Ok(order)
}

/// Reports progress and logs while it waits a little.
#[mcp_tool]
async fn slow(ctx: Context, steps: Option<u8>) -> String {
    let steps = steps.unwrap_or(2).min(4);
    for step in 0..steps {
        ctx.report_progress(f64::from(step), Some(f64::from(steps)), None);
        ctx.info(format!("step {step}"));
        tokio::task::yield_now().await;
    }
    "done".to_owned()
}

/// Asks the client a question (the fuzzed client never answers: the request must still end
/// when the session does).
#[mcp_tool]
async fn ask(ctx: Context) -> String {
    match ctx.list_roots().await {
        Ok(roots) => format!("{} roots", roots.len()),
        Err(error) => error.to_string(),
    }
}

/// Whom an answer names (a flat object, as elicitation asks).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Who {
    /// A name.
    pub name: String,
}

/// Goes on as a task, asks the client a name, and answers with it: a task that waits as
/// `input_required` for `tasks/update`, and that `tasks/cancel` and its ttl can end.
#[mcp_tool(task_support = "optional")]
async fn chore(ctx: Context) -> Result<String, String> {
    ctx.continue_as_task().await;
    let answer = ctx
        .question("who")
        .elicit::<Who>("Whose chore is it?")
        .await
        .map_err(|error| error.to_string())?;
    Ok(format!("{answer:?}"))
}

/// A static resource.
#[mcp_resource(uri = "memo://readme", mime_type = "text/plain")]
fn readme() -> String {
    "read me".to_owned()
}

/// A template with a path, a number and query parameters.
#[mcp_resource(uri = "items://{kind}/{id}{?q,lang}")]
fn item(kind: Colour, id: u32, q: Option<String>, lang: Option<String>) -> String {
    let kind = match kind {
        Colour::Red => "red",
        Colour::Green => "green",
    };
    format!("{kind} {id} {q:?} {lang:?}")
}

/// A reserved expansion that may span slashes.
#[mcp_resource(uri = "file:///{+path}")]
fn file(path: String) -> String {
    path
}

fn complete_topic(prefix: &str) -> Vec<String> {
    ["alpha", "beta", "gamma"]
        .into_iter()
        .filter(|t| t.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// A prompt with a completed argument and a number.
#[mcp_prompt]
fn brief(
    /// The topic.
    #[complete(complete_topic)]
    topic: String,
    /// How many words.
    words: Option<u32>,
    /// A colour.
    colour: Option<Colour>,
) -> String {
    let _ = colour;
    format!("Write {} words on {topic}", words.unwrap_or(50))
}

/// The fixture server.
pub static SERVER: LazyLock<Server> = LazyLock::new(|| {
    Server::builder(mcp_runtime::server_info!())
        .tool::<add>()
        .tool::<echo>()
        .tool::<place>()
        .tool::<slow>()
        .tool::<ask>()
        .tool::<chore>()
        .resource::<readme>()
        .resource::<item>()
        .resource::<file>()
        .prompt::<brief>()
        .request_timeout(Duration::from_millis(50))
        // Tasks outlive the input that made them: a short ttl keeps the fixture's store from
        // filling up across inputs (a full one would refuse every later task).
        .task_limits(TaskLimits {
            ttl: Duration::from_millis(200),
            ..TaskLimits::default()
        })
        .build()
        .expect("the fuzz fixture server builds")
});

/// One single-threaded runtime, as `run_stdio` uses.
pub static RUNTIME: LazyLock<tokio::runtime::Runtime> = LazyLock::new(|| {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a Tokio runtime")
});

/// Feeds each line of `data` to a fresh session as one message, then checks the session
/// still answers a `ping` and that closing it ends every request it started. When `data`
/// names `TASKID`, a task of `chore` is made first and each `TASKID` is its id, so that
/// `tasks/get`, `tasks/update`, `tasks/cancel` and `subscriptions/listen` meet a real task
/// (its ids are random, which the fuzzer could never guess).
pub fn dispatch_lines(data: &[u8]) {
    RUNTIME.block_on(async {
        let client = TestClient::new(&SERVER);
        let task = if data
            .windows(TASK_ID.len())
            .any(|window| window == TASK_ID.as_bytes())
        {
            made_task(&client).await
        } else {
            None
        };
        for line in data.split(|byte| *byte == b'\n').take(64) {
            let line = String::from_utf8_lossy(line);
            match &task {
                Some(id) => client.send_raw(&line.replace(TASK_ID, id)),
                None => client.send_raw(&line),
            }
        }
        // The liveness ping carries an id no fuzzed line is likely to reuse (a NUL inside),
        // so its reply cannot be mistaken for the reply to one of theirs.
        client.send_raw(r#"{"jsonrpc":"2.0","id":"\u0000liveness","method":"ping"}"#);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        loop {
            let wait = deadline.saturating_duration_since(tokio::time::Instant::now());
            let message = client
                .next_message(wait)
                .await
                .expect("the session stopped answering: no reply to ping within 5 s");
            if message.get("id").and_then(|id| id.as_str()) == Some("\u{0}liveness") {
                assert!(
                    message.get("result").is_some(),
                    "ping failed after the fuzzed messages: {message}"
                );
                break;
            }
        }
        tokio::time::timeout(Duration::from_secs(5), client.close())
            .await
            .expect("closing the session ends every request it started");
    });
}

/// What a fuzzed line writes where the id of the task made for it goes.
const TASK_ID: &str = "TASKID";

/// The `_meta` of a request of revision 2026-07-28 from a client declaring the tasks extension
/// and elicitation.
const META_WITH_TASKS: &str = concat!(
    r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","#,
    r#""io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"#,
    r#""extensions":{"io.modelcontextprotocol/tasks":{}}},"#,
    r#""io.modelcontextprotocol/clientInfo":{"name":"fuzz","version":"0"}}"#
);

/// Makes a task of `chore` (revision 2026-07-28, from a client declaring the tasks extension
/// and elicitation) and returns its id; none when the server refuses it.
async fn made_task(client: &TestClient) -> Option<String> {
    client.send_raw(&format!(
        r#"{{"jsonrpc":"2.0","id":"\u0000task","method":"tools/call","params":{{"name":"chore","_meta":{}}}}}"#,
        META_WITH_TASKS
    ));
    loop {
        let message = client.next_message(Duration::from_secs(5)).await?;
        if message.get("id").and_then(|id| id.as_str()) == Some("\u{0}task") {
            let id = message.get("result")?.get("taskId")?.as_str()?;
            return Some(id.to_owned());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The task a fuzzed line names by `TASKID` is a real one: `tasks/get` finds it waiting
    /// for its answer.
    #[test]
    fn a_line_naming_the_task_meets_a_real_task() {
        RUNTIME.block_on(async {
            let client = TestClient::new(&SERVER);
            let id = made_task(&client).await.expect("the fixture makes a task");
            client.send_raw(&format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{{"taskId":"{id}","_meta":{}}}}}"#,
                META_WITH_TASKS
            ));
            loop {
                let message = client.next_message(Duration::from_secs(5)).await.unwrap();
                if message.get("id") == Some(&serde_json::json!(1)) {
                    assert_eq!(message["result"]["taskId"], id.as_str(), "{message}");
                    let status = &message["result"]["status"];
                    assert!(status == "working" || status == "input_required", "{message}");
                    break;
                }
            }
            client.close().await;
        });
    }
}
