//! Several instances behind a load balancer, with real parts: a `redis-server` and an
//! `haproxy` running `deploy/haproxy.cfg` as it is, in front of two `everything` example
//! servers started as a deployment starts them (`--http`, `--redis`, `--state-keys`,
//! `--allow-host`), each on free ports, all killed when the test ends.
//!
//! Across instances: a listener (and a legacy session) on one instance hears a change made on
//! the other; an input-required round trip whose retry lands on the other instance completes;
//! a state sealed with other keys is refused; a legacy stream lost on one instance is resumed
//! on the other, which replays exactly what was missed and refuses foreign, forged and unknown
//! ids; on a protected server (two in-process instances, tokens from the real authorization
//! server of `common/auth_server.rs`) it resumes there for its caller only. A task of the
//! tasks extension created on one instance is read, answered (its questions one at a time),
//! awaited and cancelled through the other, and a listener there hears its statuses; on a protected server it is its caller's only on
//! every instance; with Redis down, `tasks/*` and a task-creating call are refused at once,
//! saying so. Through the balancer: stateless requests
//! alternate, a legacy session sticks to its instance by `Mcp-Session-Id`, the public host
//! passes and another is refused. Faults: Redis restarted (the bus says so and recovers, no
//! instance fails); an instance killed (the survivor serves, opening the dead one's sealed
//! state). Without Redis or HAProxy: an unreachable Redis stops an instance at start-up,
//! SIGTERM shuts one down gracefully, a rotated key file takes effect without a restart.
//!
//! `redis-server` and `haproxy` come from `scripts/install-test-tools` (Debian packages), as
//! does the authorization server. Without them the tests that need them pass with a line
//! saying they were skipped, unless the environment variable `CI` is set: then they fail,
//! saying what is missing.

#[path = "common/auth_server.rs"]
mod auth_server;
#[path = "common/examples.rs"]
mod examples;
#[path = "common/http.rs"]
mod http;
#[path = "common/ports.rs"]
mod ports;

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use auth_server::AuthServer;
use mcp_runtime::HttpOptions;
use mcp_runtime::auth::ResourceServer;
use mcp_runtime::prelude::*;
use ports::free_port;
use serde_json::{Value, json};

/// Two keys (32 bytes of 1s, of 2s) for the instances' key files.
const KEY_ONE: &str = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";
const KEY_TWO: &str = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI=";

/// The public host clients name, which the instances accept with `--allow-host`.
const PUBLIC_HOST: &str = "mcp.example.test";

const INSTALL_HINT: &str =
    "run `scripts/install-test-tools` (it apt-get installs redis-server and haproxy)";

/// Whether `redis-server` and `haproxy` run; when not, `false` and a line on stderr, or a
/// failure under CI.
fn tools_present() -> bool {
    let missing: Vec<&str> = ["redis-server", "haproxy"]
        .into_iter()
        .filter(|tool| {
            Command::new(tool)
                .arg("-v")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_err()
        })
        .collect();
    if missing.is_empty() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} not installed, and CI is set: {INSTALL_HINT}",
        missing.join(" and ")
    );
    eprintln!(
        "skipped: {} not installed ({INSTALL_HINT}; with CI set this fails)",
        missing.join(" and ")
    );
    false
}

/// A folder of this test's own, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "mcp-scale-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).expect("a scratch folder");
        Scratch(path)
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("a scratch file");
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process whose stderr goes to a file, killed when dropped.
struct Process {
    name: String,
    child: Child,
    log: PathBuf,
}

impl Process {
    fn start(name: &str, command: &mut Command, scratch: &Scratch) -> Process {
        let log = scratch.0.join(format!("{name}.log"));
        let stderr = std::fs::File::create(&log).expect("a log file");
        let child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|e| panic!("{name} does not start: {e}"));
        Process {
            name: name.to_owned(),
            child,
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the log holds `needle`.
    fn wait_for_log(&self, needle: &str, within: Duration) {
        let deadline = Instant::now() + within;
        while !self.log().contains(needle) {
            assert!(
                Instant::now() < deadline,
                "{} did not write {needle:?} within {within:?}; it wrote:\n{}",
                self.name,
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Still running: it did not fail.
    fn assert_alive(&mut self) {
        let status = self.child.try_wait().expect("the child's status");
        assert!(
            status.is_none(),
            "{} ended ({status:?}); it wrote:\n{}",
            self.name,
            self.log()
        );
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits until something accepts connections on `port`, `what` still running (a child that
/// could not bind its port has ended: that is said, rather than taking whatever else listens
/// there for it).
fn wait_for_port(port: u16, what: &mut Process) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        what.assert_alive();
        assert!(
            Instant::now() < deadline,
            "{} does not listen on {port} after 20 s; it wrote:\n{}",
            what.name,
            what.log()
        );
        std::thread::sleep(Duration::from_millis(25));
    }
    what.assert_alive();
}

fn start_redis(port: u16, scratch: &Scratch) -> Process {
    let mut redis = Process::start(
        "redis-server",
        Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&scratch.0),
        scratch,
    );
    wait_for_port(port, &mut redis);
    redis
}

/// An `everything` instance on `port`, as a deployment runs it; waits for `/health`.
async fn start_instance(
    name: &str,
    port: u16,
    redis: Option<u16>,
    keys: &Path,
    public_port: u16,
    scratch: &Scratch,
) -> Process {
    let mut command = Command::new(examples::example("everything"));
    command
        .args(["--http", &format!("127.0.0.1:{port}")])
        .arg("--state-keys")
        .arg(keys)
        .args(["--allow-host", &format!("{PUBLIC_HOST}:{public_port}")]);
    if let Some(redis) = redis {
        command.args(["--redis", &format!("redis://127.0.0.1:{redis}")]);
    }
    let mut instance = Process::start(name, &mut command, scratch);
    wait_for_port(port, &mut instance);
    let health = http::request_at(port, "GET", "/health", &[], "").await;
    assert_eq!(health.status, 200, "{name}'s /health");
    instance
}

/// Two instances sharing Redis and a key file, behind HAProxy.
struct Cluster {
    scratch: Scratch,
    redis: Process,
    redis_port: u16,
    a: Process,
    a_port: u16,
    b: Process,
    b_port: u16,
    _balancer: Process,
    public_port: u16,
}

impl Cluster {
    async fn start() -> Cluster {
        let scratch = Scratch::new();
        let keys = scratch.file("state-keys", &format!("{KEY_ONE}\n"));
        let (redis_port, a_port, b_port, public_port) =
            (free_port(), free_port(), free_port(), free_port());
        let redis = start_redis(redis_port, &scratch);
        let a = start_instance("a", a_port, Some(redis_port), &keys, public_port, &scratch).await;
        let b = start_instance("b", b_port, Some(redis_port), &keys, public_port, &scratch).await;
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/haproxy.cfg");
        let mut balancer = Process::start(
            "haproxy",
            Command::new("haproxy")
                .arg("-db")
                .arg("-f")
                .arg(&config)
                .env("MCP_PUBLIC_ADDR", format!("127.0.0.1:{public_port}"))
                .env("MCP_INSTANCE_A", format!("127.0.0.1:{a_port}"))
                .env("MCP_INSTANCE_B", format!("127.0.0.1:{b_port}")),
            &scratch,
        );
        wait_for_port(public_port, &mut balancer);
        Cluster {
            scratch,
            redis,
            redis_port,
            a,
            a_port,
            b,
            b_port,
            _balancer: balancer,
            public_port,
        }
    }

    fn public_host(&self) -> String {
        format!("{PUBLIC_HOST}:{}", self.public_port)
    }
}

const REVISION: &str = "2026-07-28";

/// A request of revision 2026-07-28 for `method` (the tool or prompt `name`), with the
/// headers the transport checks (and the `_meta` members `params` does not set).
fn stateless(id: u64, method: &str, mut params: Value) -> (String, Vec<(String, String)>) {
    let mut meta = params["_meta"].take();
    for (key, value) in [
        ("io.modelcontextprotocol/protocolVersion", json!(REVISION)),
        (
            "io.modelcontextprotocol/clientCapabilities",
            json!({"elicitation": {}}),
        ),
        (
            "io.modelcontextprotocol/clientInfo",
            json!({"name": "scale-test", "version": "0"}),
        ),
    ] {
        if meta.get(key).is_none() {
            meta[key] = value;
        }
    }
    params["_meta"] = meta;
    let mut headers = vec![
        (
            "accept".to_owned(),
            "application/json, text/event-stream".to_owned(),
        ),
        ("mcp-protocol-version".to_owned(), REVISION.to_owned()),
        ("mcp-method".to_owned(), method.to_owned()),
    ];
    // The tool's or prompt's name, or a task's id (the tasks extension's methods).
    let named = params.get("name").or_else(|| params.get("taskId"));
    if let Some(name) = named.and_then(Value::as_str) {
        headers.push(("mcp-name".to_owned(), name.to_owned()));
    }
    let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    (body.to_string(), headers)
}

/// Posts a stateless request to `port` with `Host: host`.
async fn post(port: u16, host: &str, id: u64, method: &str, params: Value) -> http::Response {
    let (body, mut headers) = stateless(id, method, params);
    headers.push(("host".to_owned(), host.to_owned()));
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    http::request(port, "POST", &headers, &body).await
}

fn served_by(response: &http::Response) -> String {
    response
        .header("x-served-by")
        .expect("HAProxy names the instance that answered")
        .to_owned()
}

/// A listen stream for tool-list changes, its acknowledgement read.
async fn listen(port: u16, host: &str) -> http::Response {
    let mut stream = post(
        port,
        host,
        1,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    )
    .await;
    assert_eq!(stream.status, 200);
    let (_, ack) = stream.next_event().await.expect("the acknowledgement");
    assert!(
        ack.contains("notifications/subscriptions/acknowledged"),
        "{ack}"
    );
    stream
}

/// The next event of `stream` within 10 s: the tool-list change.
async fn expect_tools_changed(stream: &mut http::Response) {
    let (_, event) = tokio::time::timeout(Duration::from_secs(10), stream.next_event())
        .await
        .expect("the change within 10 s")
        .expect("an event");
    let event: Value = serde_json::from_str(&event).unwrap();
    assert_eq!(event["method"], "notifications/tools/list_changed");
    assert_eq!(
        event["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        1
    );
}

async fn trigger_tool_change(port: u16, host: &str) -> http::Response {
    post(
        port,
        host,
        2,
        "tools/call",
        json!({"name": "test_trigger_tool_change", "arguments": {}}),
    )
    .await
}

const ACCEPT: (&str, &str) = ("accept", "application/json, text/event-stream");

/// A session of revision 2025-11-25 started at `port` with `Host: host` (initialized): its id,
/// and the instance HAProxy says answered, if it was HAProxy.
async fn start_session(port: u16, host: &str) -> (String, Option<String>) {
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "scale-test", "version": "0"}}});
    let response = http::request(
        port,
        "POST",
        &[("host", host), ACCEPT],
        &initialize.to_string(),
    )
    .await;
    assert_eq!(response.status, 200);
    let session = response
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let answered = response.header("x-served-by").map(str::to_owned);
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let response =
        http::request(port, "POST", &session_headers(host, &session), &initialized).await;
    assert_eq!(response.status, 202);
    assert_eq!(response.header("x-served-by").map(str::to_owned), answered);
    (session, answered)
}

/// The headers of a request in session `session`.
fn session_headers<'a>(host: &'a str, session: &'a str) -> [(&'static str, &'a str); 4] {
    [
        ("host", host),
        ACCEPT,
        ("mcp-session-id", session),
        ("mcp-protocol-version", "2025-11-25"),
    ]
}

/// A listener on one instance hears the tool-list change made on the other, both reached
/// through the balancer.
#[tokio::test]
async fn a_change_on_one_instance_reaches_a_listener_on_the_other() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let host = cluster.public_host();
    let mut stream = listen(cluster.public_port, &host).await;
    let listener_on = served_by(&stream);
    let trigger = trigger_tool_change(cluster.public_port, &host).await;
    let changed_on = served_by(&trigger);
    assert_ne!(listener_on, changed_on, "round-robin alternates");
    assert_eq!(trigger.status, 200);
    let reply = trigger.json().await;
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    expect_tools_changed(&mut stream).await;
}

/// The input-required round trip: the question comes from one instance, the retry with the
/// answer and the sealed state completes on the other (they share the key file).
#[tokio::test]
async fn an_input_required_retry_completes_on_the_other_instance() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let host = cluster.public_host();
    let call = json!({"name": "test_input_required_result_elicitation", "arguments": {}});
    let first = post(cluster.public_port, &host, 1, "tools/call", call.clone()).await;
    let asked_on = served_by(&first);
    let first = first.json().await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert!(first["result"]["inputRequests"]["user_name"].is_object());
    let state = first["result"]["requestState"].as_str().expect("a state");
    let mut retry = call;
    retry["requestState"] = json!(state);
    retry["inputResponses"] =
        json!({"user_name": {"action": "accept", "content": {"name": "Alice"}}});
    let done = post(cluster.public_port, &host, 2, "tools/call", retry).await;
    assert_ne!(
        served_by(&done),
        asked_on,
        "the retry reached the other instance"
    );
    let done = done.json().await;
    assert_eq!(done["result"]["resultType"], "complete", "{done}");
    assert_eq!(done["result"]["content"][0]["text"], "Hello, Alice!");
}

/// A state sealed by an instance is refused (-32602, the handler never runs) by one whose key
/// file holds other keys.
#[tokio::test]
async fn a_state_sealed_with_other_keys_is_refused() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let other_keys = cluster
        .scratch
        .file("other-state-keys", &format!("{KEY_TWO}\n"));
    let other_port = free_port();
    let _other = start_instance(
        "other",
        other_port,
        None,
        &other_keys,
        cluster.public_port,
        &cluster.scratch,
    )
    .await;
    let local = |port: u16| format!("127.0.0.1:{port}");
    let call = json!({"name": "test_input_required_result_elicitation", "arguments": {}});
    let first = post(
        cluster.a_port,
        &local(cluster.a_port),
        1,
        "tools/call",
        call.clone(),
    )
    .await
    .json()
    .await;
    let mut retry = call;
    retry["requestState"] = first["result"]["requestState"].clone();
    retry["inputResponses"] =
        json!({"user_name": {"action": "accept", "content": {"name": "Eve"}}});
    let refused = post(
        other_port,
        &local(other_port),
        2,
        "tools/call",
        retry.clone(),
    )
    .await
    .json()
    .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("requestState")),
        "{refused}"
    );
    // The instance sharing the keys takes it.
    let done = post(
        cluster.b_port,
        &local(cluster.b_port),
        3,
        "tools/call",
        retry,
    )
    .await
    .json()
    .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Eve!",
        "{done}"
    );
}

/// Through the balancer: stateless requests alternate between the instances; a legacy session
/// stays on the instance that issued its `Mcp-Session-Id` (the stick table, no cookie).
#[tokio::test]
async fn stateless_requests_alternate_and_a_legacy_session_sticks() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let host = cluster.public_host();
    let mut seen = Vec::new();
    for id in 0..4 {
        let response = post(cluster.public_port, &host, id, "tools/list", json!({})).await;
        assert_eq!(response.status, 200);
        seen.push(served_by(&response));
    }
    assert_ne!(seen[0], seen[1], "{seen:?}");
    assert_eq!(seen[0], seen[2], "{seen:?}");
    assert_eq!(seen[1], seen[3], "{seen:?}");

    let (session, home) = start_session(cluster.public_port, &host).await;
    let home = home.expect("HAProxy names the instance");
    let headers = session_headers(&host, &session);
    for id in 2..6 {
        let list = json!({"jsonrpc": "2.0", "id": id, "method": "tools/list"}).to_string();
        let response = http::request(cluster.public_port, "POST", &headers, &list).await;
        assert_eq!(
            served_by(&response),
            home,
            "request {id} left the session's instance"
        );
        assert_eq!(response.status, 200);
        let reply = response.json().await;
        assert!(reply["result"]["tools"].is_array(), "{reply}");
    }
}

/// Behind the balancer the instances accept the public host (`--allow-host`) and still refuse
/// any other (DNS rebinding); the probes answer.
#[tokio::test]
async fn the_public_host_is_accepted_and_another_refused() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let public = cluster.public_host();
    let evil = format!("evil.example:{}", cluster.public_port);
    for _ in 0..2 {
        // Twice: each instance once.
        let ok = post(cluster.public_port, &public, 1, "tools/list", json!({})).await;
        assert_eq!(ok.status, 200, "{public} is refused by {}", served_by(&ok));
        let refused = post(cluster.public_port, &evil, 1, "tools/list", json!({})).await;
        assert_eq!(
            refused.status,
            403,
            "{evil} is accepted by {}",
            served_by(&refused)
        );
    }
    for path in ["/health", "/ready"] {
        let probe = http::request_at(cluster.a_port, "GET", path, &[], "").await;
        assert_eq!(probe.status, 200, "{path}");
    }
}

/// Redis goes away and comes back: both instances say so, keep serving meanwhile, and a
/// listener opened before hears a change made on the other instance afterwards (which
/// publishes it on a new connection, its earlier one having died with Redis).
#[tokio::test]
async fn the_bus_recovers_when_redis_restarts() {
    if !tools_present() {
        return;
    }
    let mut cluster = Cluster::start().await;
    let a_host = format!("127.0.0.1:{}", cluster.a_port);
    let b_host = format!("127.0.0.1:{}", cluster.b_port);
    let mut stream = listen(cluster.a_port, &a_host).await;
    // B publishes once before: its connection for publishing is then one Redis drops.
    let response = trigger_tool_change(cluster.b_port, &b_host).await;
    assert_eq!(response.status, 200);
    expect_tools_changed(&mut stream).await;

    cluster.redis.kill();
    for instance in [&cluster.a, &cluster.b] {
        instance.wait_for_log("lost the connection to Redis", Duration::from_secs(10));
    }
    // Still serving: a change made now reaches this instance's own listeners.
    let response = trigger_tool_change(cluster.a_port, &a_host).await;
    assert_eq!(response.status, 200);
    expect_tools_changed(&mut stream).await;
    let ready = http::request_at(cluster.b_port, "GET", "/ready", &[], "").await;
    assert_eq!(ready.status, 200);
    assert!(ready.text().await.contains("reconnecting"));

    cluster.redis = start_redis(cluster.redis_port, &cluster.scratch);
    for instance in [&cluster.a, &cluster.b] {
        instance.wait_for_log("reconnected to Redis", Duration::from_secs(20));
    }
    let response = trigger_tool_change(cluster.b_port, &b_host).await;
    assert_eq!(response.status, 200);
    expect_tools_changed(&mut stream).await;
    cluster.a.assert_alive();
    cluster.b.assert_alive();
}

/// A session of a 2025 revision on one instance hears, on its GET stream, the tool-list
/// change made on the other.
#[tokio::test]
async fn a_legacy_session_hears_a_change_made_on_the_other_instance() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let a_host = format!("127.0.0.1:{}", cluster.a_port);
    let (session, _) = start_session(cluster.a_port, &a_host).await;
    let headers = session_headers(&a_host, &session);
    let mut stream = http::request(cluster.a_port, "GET", &headers, "").await;
    assert_eq!(stream.status, 200);
    let b_host = format!("127.0.0.1:{}", cluster.b_port);
    let response = trigger_tool_change(cluster.b_port, &b_host).await;
    assert_eq!(response.status, 200);
    let change = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let (_, data) = stream.next_event().await.expect("an event");
            // The priming event has no data.
            if !data.is_empty() {
                return data;
            }
        }
    })
    .await
    .expect("the change within 10 s");
    let change: Value = serde_json::from_str(&change).unwrap();
    assert_eq!(change["method"], "notifications/tools/list_changed");
}

/// A legacy session's `tools/call` with progress on `port`, answered as a stream: its
/// priming event and first progress notification read, the rest left unread.
async fn call_with_progress(port: u16, session: &str, id: u64) -> (http::Response, Vec<String>) {
    let host = format!("127.0.0.1:{port}");
    let call = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
        "name": "test_tool_with_progress", "arguments": {}, "_meta": {"progressToken": "p"}}});
    let mut stream = http::request(
        port,
        "POST",
        &session_headers(&host, session),
        &call.to_string(),
    )
    .await;
    assert_eq!(stream.header("content-type"), Some("text/event-stream"));
    let mut ids = Vec::new();
    for _ in 0..2 {
        let (id, _) = stream.next_event().await.expect("an event");
        ids.push(id.expect("an event id"));
    }
    (stream, ids)
}

/// A GET on `port` resuming `session`'s stream after `last`.
async fn resume(port: u16, session: &str, last: &str) -> http::Response {
    let host = format!("127.0.0.1:{port}");
    let [host, _, session, version] = session_headers(&host, session);
    let headers = [
        host,
        ("accept", "text/event-stream"),
        session,
        version,
        ("last-event-id", last),
    ];
    http::request(port, "GET", &headers, "").await
}

/// Every event of `stream` to its end, within 10 s: ids and messages.
async fn all_events(stream: &mut http::Response) -> Vec<(String, Value)> {
    tokio::time::timeout(Duration::from_secs(10), async {
        let mut events = Vec::new();
        while let Some((id, data)) = stream.next_event().await {
            let message = serde_json::from_str(&data).expect("a message");
            events.push((id.expect("an event id"), message));
        }
        events
    })
    .await
    .expect("the stream ends within 10 s")
}

/// A legacy stream opened on instance A loses its connection; the events it missed are
/// replayed, exactly and in order, by a resume on instance B (the shared event store in
/// Redis), as they are by a resume on A itself, and still once A is killed. A lost GET stream
/// is replayed on B too, ending with a `retry` hint.
#[tokio::test]
async fn a_legacy_stream_resumed_on_the_other_instance_replays_what_was_missed() {
    if !tools_present() {
        return;
    }
    let mut cluster = Cluster::start().await;
    let a_host = format!("127.0.0.1:{}", cluster.a_port);
    let (session, _) = start_session(cluster.a_port, &a_host).await;
    let (lost, seen) = call_with_progress(cluster.a_port, &session, 7).await;
    drop(lost); // the connection is lost after the first progress notification
    // The tool goes on (about 100 ms): two more notifications and its reply, all missed. B
    // replays what A has stored so far: asked again until the reply is among it.
    let deadline = Instant::now() + Duration::from_secs(10);
    let replayed = loop {
        let mut on_b = resume(cluster.b_port, &session, &seen[1]).await;
        assert_eq!(on_b.status, 200);
        assert_eq!(on_b.header("content-type"), Some("text/event-stream"));
        let replayed = all_events(&mut on_b).await;
        if replayed.len() >= 3 || Instant::now() > deadline {
            break replayed;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let (stream, first) = seen[1].rsplit_once('-').expect("TAG.STREAM-SEQ");
    let first: u64 = first.parse().unwrap();
    let ids: Vec<&str> = replayed.iter().map(|(id, _)| id.as_str()).collect();
    let expected: Vec<String> = (first + 1..=first + 3)
        .map(|seq| format!("{stream}-{seq}"))
        .collect();
    assert_eq!(ids, expected, "{replayed:?}");
    let progress: Vec<f64> = replayed[..2]
        .iter()
        .map(|(_, m)| {
            assert_eq!(m["method"], "notifications/progress", "{m}");
            m["params"]["progress"].as_f64().unwrap()
        })
        .collect();
    assert_eq!(progress, [50.0, 100.0]);
    let reply = &replayed[2].1;
    assert_eq!(reply["id"], 7, "{reply}");
    assert_eq!(
        reply["result"]["content"][0]["text"],
        "Tool with progress executed successfully"
    );

    // The instance holding the session replays the same.
    let mut on_a = resume(cluster.a_port, &session, &seen[1]).await;
    assert_eq!(on_a.status, 200);
    assert_eq!(all_events(&mut on_a).await, replayed);

    // Resumed from its priming event on B: everything the stream carried.
    let mut from_start = resume(cluster.b_port, &session, &seen[0]).await;
    let everything = all_events(&mut from_start).await;
    assert_eq!(everything.len(), 4, "{everything:?}");
    assert_eq!(everything[1..], replayed[..]);

    // The session's GET stream, opened on A and lost; a change made meanwhile reaches the
    // session on A, and a resume on B replays it, then ends with a `retry` hint: the live
    // events are A's to send.
    let headers = session_headers(&a_host, &session);
    let mut get = http::request(cluster.a_port, "GET", &headers, "").await;
    assert_eq!(get.status, 200);
    let (primed, _) = get.next_event().await.expect("the priming event");
    let primed = primed.expect("its id");
    drop(get);
    let b_host = format!("127.0.0.1:{}", cluster.b_port);
    assert_eq!(
        trigger_tool_change(cluster.b_port, &b_host).await.status,
        200
    );
    let mut text = String::new();
    for _ in 0..40 {
        // Until the change has come through the bus to A, and from A to Redis.
        text = resume(cluster.b_port, &session, &primed).await.text().await;
        if text.contains("list_changed") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        text.contains("notifications/tools/list_changed"),
        "{text:?}"
    );
    assert!(text.ends_with("retry: 1000\n\n"), "{text:?}");

    // A dies: B still replays what was missed.
    cluster.a.kill();
    let mut after_death = resume(cluster.b_port, &session, &seen[1]).await;
    assert_eq!(after_death.status, 200);
    assert_eq!(all_events(&mut after_death).await, replayed);
}

/// The JSON-RPC error of a refused resume: not a stream, nothing replayed.
async fn refusal(response: http::Response, status: u16) -> String {
    assert_eq!(response.status, status);
    assert_eq!(response.header("content-type"), Some("application/json"));
    let body = response.json().await;
    body["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("an error: {body}"))
        .to_owned()
}

/// Hostile resumes on the instance that does not hold the session: an event id of another
/// session (400, on either instance), a made-up one (400), a session id Redis does not know
/// (404, the spec's answer for an unknown session); none replays anything. With Redis gone, a
/// resume is refused at once with 503 and a line on stderr, not left hanging.
#[tokio::test]
async fn a_resume_on_the_other_instance_refuses_foreign_forged_and_unknown_ids() {
    if !tools_present() {
        return;
    }
    let mut cluster = Cluster::start().await;
    let a_host = format!("127.0.0.1:{}", cluster.a_port);
    let (mine, _) = start_session(cluster.a_port, &a_host).await;
    let (theirs, _) = start_session(cluster.a_port, &a_host).await;
    let (mut stream, seen) = call_with_progress(cluster.a_port, &theirs, 3).await;
    all_events(&mut stream).await;
    let their_event = &seen[0];
    // A stores its events in Redis behind the stream: the genuine pair resumes on B once they
    // are all there (the priming event, two progress notifications and the reply after it).
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut genuine = resume(cluster.b_port, &theirs, their_event).await;
        if genuine.status == 200 && all_events(&mut genuine).await.len() == 4 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "B never replayed their whole stream"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Their event id with my session: on B, and on A which holds both.
    for port in [cluster.b_port, cluster.a_port] {
        let message = refusal(resume(port, &mine, their_event).await, 400).await;
        assert!(message.contains("another session"), "{message}");
    }
    // Made up: a tag no session has, and not an event id at all.
    for forged in ["0123456789abcdef.1-0", "1-0", "garbage"] {
        let message = refusal(resume(cluster.b_port, &mine, forged).await, 400).await;
        assert!(message.contains("Last-Event-ID"), "{forged}: {message}");
    }
    // A session id Redis does not know, with a genuine event id.
    let unknown = "0".repeat(32);
    let message = refusal(resume(cluster.b_port, &unknown, their_event).await, 404).await;
    assert!(message.contains("session not found"), "{message}");
    cluster.redis.kill();
    let started = Instant::now();
    let response = resume(cluster.b_port, &theirs, their_event).await;
    assert!(
        started.elapsed() < Duration::from_secs(12),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(response.header("retry-after"), Some("1"));
    let message = refusal(response, 503).await;
    assert!(message.contains("Redis"), "{message}");
    cluster.b.wait_for_log(
        "reading the Redis event store failed",
        Duration::from_secs(5),
    );
    cluster.b.assert_alive();
}

/// Says who is calling: the protected instances' tool.
#[mcp_tool(read_only)]
fn whoami(caller: Caller) -> String {
    caller.subject().to_owned()
}

/// An instance of a protected server (`whoami`, and `nap` as a task) sharing the Redis on `redis_port`, accepting the tokens
/// `issuer` gives for `resource`, serving in the background: its port.
async fn protected_instance(redis_port: u16, issuer: &str, resource: &str) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let protection = ResourceServer::jwt(issuer, resource).unwrap();
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<whoami>()
        .tool::<nap>()
        .redis(format!("redis://127.0.0.1:{redis_port}"))
        .build()
        .unwrap();
    let options = HttpOptions::new().resource_server(protection);
    tokio::spawn(async move { server.serve_http(listener, options).await });
    port
}

/// Two instances of a protected server sharing a Redis, the authorization server that
/// issues their tokens, and the tokens of two callers, `writer` and `reader`.
struct ProtectedPair {
    _scratch: Scratch,
    _redis: Process,
    auth: AuthServer,
    resource: String,
    a: u16,
    b: u16,
    writer: String,
    reader: String,
}

impl ProtectedPair {
    /// `None` (the test skips, saying why) without the tools.
    async fn start() -> Option<ProtectedPair> {
        if !tools_present() {
            return None;
        }
        let auth = AuthServer::start()?;
        let scratch = Scratch::new();
        let redis_port = free_port();
        let redis = start_redis(redis_port, &scratch);
        let resource = format!("https://{PUBLIC_HOST}/mcp");
        let a = protected_instance(redis_port, &auth.keys.issuer, &resource).await;
        let b = protected_instance(redis_port, &auth.keys.issuer, &resource).await;
        let writer = auth.token("writer", &resource, None).await;
        let reader = auth.token("reader", &resource, None).await;
        Some(ProtectedPair {
            _scratch: scratch,
            _redis: redis,
            auth,
            resource,
            a,
            b,
            writer,
            reader,
        })
    }
}

/// A request at `port` in `session` (if any) with `token`, and `last_event_id` (if any).
async fn as_caller(
    port: u16,
    token: &str,
    method: &str,
    session: Option<&str>,
    last_event_id: Option<&str>,
    body: &str,
) -> http::Response {
    let authorization = format!("Bearer {token}");
    let mut headers = vec![ACCEPT, ("authorization", authorization.as_str())];
    if !body.is_empty() {
        headers.push(("content-type", "application/json"));
    }
    if let Some(session) = session {
        headers.extend([
            ("mcp-session-id", session),
            ("mcp-protocol-version", "2025-11-25"),
        ]);
    }
    if let Some(last) = last_event_id {
        headers.push(("last-event-id", last));
    }
    http::request(port, method, &headers, body).await
}

/// On a protected server, a legacy stream opened on instance A by one caller is resumed on
/// instance B by that caller (tokens from a real authorization server), and by no one else:
/// another caller's token, with the session id and a genuine event id, gets 404 on B as if
/// the session did not exist, and nothing replayed (the owner the session's record in Redis
/// names); the owner can still resume after that.
#[tokio::test(flavor = "multi_thread")]
async fn a_legacy_stream_on_a_protected_server_is_resumed_elsewhere_by_its_caller_only() {
    let Some(pair) = ProtectedPair::start().await else {
        return;
    };
    let (a_port, b_port) = (pair.a, pair.b);
    let (writer, reader) = (pair.writer.clone(), pair.reader.clone());

    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "scale-test", "version": "0"}}});
    let response = as_caller(a_port, &writer, "POST", None, None, &initialize.to_string()).await;
    assert_eq!(response.status, 200);
    let session = response
        .header("mcp-session-id")
        .expect("a session id")
        .to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = as_caller(
        a_port,
        &writer,
        "POST",
        Some(&session),
        None,
        &initialized.to_string(),
    )
    .await;
    assert_eq!(response.status, 202);
    // The session's GET stream, opened on A and lost after its priming event.
    let mut get = as_caller(a_port, &writer, "GET", Some(&session), None, "").await;
    assert_eq!(get.status, 200);
    let (primed, _) = get.next_event().await.expect("the priming event");
    let primed = primed.expect("its id");
    drop(get);

    let resume_on_b = |token: String| {
        let (session, primed) = (session.clone(), primed.clone());
        async move { as_caller(b_port, &token, "GET", Some(&session), Some(&primed), "").await }
    };
    // Its caller resumes it on B: nothing was missed, so the stream ends with a retry hint.
    let response = resume_on_b(writer.clone()).await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("content-type"), Some("text/event-stream"));
    let text = response.text().await;
    assert!(text.ends_with("retry: 1000\n\n"), "{text:?}");

    // Another caller, with the session id and the genuine event id: as if no such session.
    let refused = resume_on_b(reader).await;
    let message = refusal(refused, 404).await;
    assert!(message.contains("session not found"), "{message}");

    // The owner, with a fresh token of the same subject, is not harmed by the refusal.
    let again = pair.auth.token("writer", &pair.resource, None).await;
    let response = resume_on_b(again).await;
    assert_eq!(response.status, 200);
    assert!(response.text().await.ends_with("retry: 1000\n\n"));
}

/// An instance told to use a Redis that does not answer stops at start-up, naming it, within
/// seconds (no hang, no server without its bus). Needs no Redis.
#[test]
fn an_unreachable_redis_stops_an_instance_at_start_up() {
    let (http_port, redis_port) = (free_port(), free_port());
    let started = Instant::now();
    let output = Command::new(examples::example("everything"))
        .args(["--http", &format!("127.0.0.1:{http_port}")])
        .args(["--redis", &format!("redis://127.0.0.1:{redis_port}")])
        .stdin(Stdio::null())
        .output()
        .expect("everything runs");
    assert!(!output.status.success());
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("cannot reach Redis at 127.0.0.1:{redis_port}")),
        "{stderr}"
    );
    assert!(TcpStream::connect(("127.0.0.1", http_port)).is_err());
}

/// SIGTERM: the instance stops accepting, answers the request in flight, ends its listen
/// stream (with the listen request's closing result, then a `retry` hint, so the client
/// listens again elsewhere) and exits, well within its shutdown grace. Needs neither Redis nor
/// HAProxy.
#[tokio::test]
async fn sigterm_finishes_the_request_in_flight_and_ends_listen_streams() {
    let scratch = Scratch::new();
    let keys = scratch.file("state-keys", &format!("{KEY_ONE}\n"));
    let port = free_port();
    let mut instance = start_instance("instance", port, None, &keys, port, &scratch).await;
    let host = format!("127.0.0.1:{port}");
    let mut listening = listen(port, &host).await;
    // Progress makes the answer a stream, open once the first notification is sent: the
    // request is in flight when the signal comes.
    let call = json!({"name": "test_tool_with_progress", "arguments": {},
                      "_meta": {"progressToken": "p"}});
    let mut in_flight = post(port, &host, 5, "tools/call", call).await;
    assert_eq!(in_flight.header("content-type"), Some("text/event-stream"));
    let started = Instant::now();
    let signalled = Command::new("kill")
        .args(["-TERM", &instance.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signalled.success());
    let mut reply = None;
    while let Some((_, data)) = in_flight.next_event().await {
        let message: Value = serde_json::from_str(&data).unwrap();
        if message.get("result").is_some() {
            reply = Some(message);
        }
    }
    let reply = reply.expect("the request in flight is answered");
    assert_eq!(reply["id"], 5);
    assert_eq!(reply["result"]["resultType"], "complete", "{reply}");
    let closing = tokio::time::timeout(Duration::from_secs(5), listening.next_event()).await;
    let Ok(Some((_, closing))) = closing else {
        panic!("the listen stream gets its closing result: {closing:?}");
    };
    let closing: Value = serde_json::from_str(&closing).unwrap();
    assert_eq!(closing["id"], 1, "{closing}");
    assert_eq!(closing["result"]["resultType"], "complete", "{closing}");
    let ended = tokio::time::timeout(Duration::from_secs(5), listening.next_event()).await;
    assert!(
        matches!(ended, Ok(None)),
        "the listen stream ends: {ended:?}"
    );
    let status = loop {
        if let Some(status) = instance.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "still running {:?} after SIGTERM; it wrote:\n{}",
            started.elapsed(),
            instance.log()
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    };
    assert!(
        status.success(),
        "{status:?}; it wrote:\n{}",
        instance.log()
    );
    assert!(
        instance.log().contains("shutting down gracefully"),
        "{}",
        instance.log()
    );
    assert!(TcpStream::connect(("127.0.0.1", port)).is_err());
}

/// An instance killed mid-run: the next requests through the balancer succeed on the
/// survivor, and a state sealed by the dead instance is accepted there (shared keys).
#[tokio::test]
async fn a_killed_instance_leaves_the_survivor_serving_its_sealed_state() {
    if !tools_present() {
        return;
    }
    let mut cluster = Cluster::start().await;
    let host = cluster.public_host();
    let call = json!({"name": "test_input_required_result_elicitation", "arguments": {}});
    let first = post(cluster.public_port, &host, 1, "tools/call", call.clone()).await;
    let asked_on = served_by(&first);
    let first = first.json().await;
    let mut retry = call;
    retry["requestState"] = first["result"]["requestState"].clone();
    retry["inputResponses"] =
        json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
    let (dead, survivor) = if asked_on == "a" {
        (&mut cluster.a, "b")
    } else {
        (&mut cluster.b, "a")
    };
    dead.kill();
    // Each request is answered, by the survivor: HAProxy retries a refused connection on
    // another server, before its health check has marked the dead one down.
    for id in 2..6 {
        let response = post(cluster.public_port, &host, id, "tools/call", retry.clone()).await;
        assert_eq!(response.status, 200, "request {id}");
        assert_eq!(served_by(&response), survivor, "request {id}");
        let done = response.json().await;
        assert_eq!(
            done["result"]["content"][0]["text"], "Hello, Ada!",
            "{done}"
        );
    }
}

/// `--state-keys` rotation without a restart: a new first line seals from then on (an
/// instance holding only the new key opens it), and a state sealed before with the old key,
/// now second, still opens. Needs neither Redis nor HAProxy.
#[tokio::test]
async fn a_rotated_key_file_takes_effect_without_a_restart() {
    let scratch = Scratch::new();
    let keys = scratch.file("state-keys", &format!("{KEY_ONE}\n"));
    let new_only = scratch.file("new-state-keys", &format!("{KEY_TWO}\n"));
    let (port, new_port) = (free_port(), free_port());
    let _instance = start_instance("instance", port, None, &keys, port, &scratch).await;
    let _new = start_instance("new", new_port, None, &new_only, new_port, &scratch).await;
    let local = |port: u16| format!("127.0.0.1:{port}");
    let call = json!({"name": "test_input_required_result_elicitation", "arguments": {}});
    let answered = |state: &Value| {
        let mut retry = call.clone();
        retry["requestState"] = state.clone();
        retry["inputResponses"] =
            json!({"user_name": {"action": "accept", "content": {"name": "Rot"}}});
        retry
    };
    let sealed = |port: u16| {
        let call = call.clone();
        async move {
            let first = post(port, &local(port), 1, "tools/call", call)
                .await
                .json()
                .await;
            first["result"]["requestState"].clone()
        }
    };
    let before = sealed(port).await;
    let refused = post(
        new_port,
        &local(new_port),
        2,
        "tools/call",
        answered(&before),
    )
    .await
    .json()
    .await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");

    // The new key first, the old one second: a file written in place, as an operator would.
    std::fs::write(&keys, format!("{KEY_TWO}\n{KEY_ONE}\n")).unwrap();
    // The file is looked at once a second, and read once it has settled (2 s).
    tokio::time::sleep(Duration::from_millis(3200)).await;
    let after = sealed(port).await;
    let done = post(
        new_port,
        &local(new_port),
        3,
        "tools/call",
        answered(&after),
    )
    .await
    .json()
    .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Rot!",
        "{done}"
    );
    let done = post(port, &local(port), 4, "tools/call", answered(&before))
        .await
        .json()
        .await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Rot!",
        "{done}"
    );
}

// ===== Tasks (io.modelcontextprotocol/tasks) across instances =====

/// The `_meta` of a request that declares the tasks extension.
fn with_tasks(mut params: Value) -> Value {
    params["_meta"] = json!({"io.modelcontextprotocol/clientCapabilities": {
        "elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}});
    params
}

/// `method` with `params` at `port`, declaring the tasks extension: the JSON-RPC reply.
async fn task_request(port: u16, id: u64, method: &str, params: Value) -> Value {
    let host = format!("127.0.0.1:{port}");
    post(port, &host, id, method, with_tasks(params))
        .await
        .json()
        .await
}

/// Starts the `everything` tool `name` as a task on `port`: its id.
async fn start_task(port: u16, name: &str, arguments: Value) -> String {
    let created = task_request(
        port,
        1,
        "tools/call",
        json!({"name": name, "arguments": arguments}),
    )
    .await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    created["result"]["taskId"]
        .as_str()
        .expect("a task id")
        .to_owned()
}

/// `tasks/get` at `port` until the task's status is `status` (within 10 s): the task.
async fn until_status(port: u16, task: &str, status: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let got = task_request(port, 2, "tasks/get", json!({"taskId": task})).await;
        if got["result"]["status"] == status {
            return got["result"].clone();
        }
        assert!(Instant::now() < deadline, "never {status}: {got}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A task created on instance A is followed on instance B (its record is in Redis): B reads
/// it while it works and once it completed, with its result; B answers its question, and the
/// task, running on A, goes on and completes; B cancels another, which ends cancelled on both.
#[tokio::test]
async fn a_task_created_on_one_instance_is_read_answered_and_cancelled_on_the_other() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let (a, b) = (cluster.a_port, cluster.b_port);

    let task = start_task(a, "slow_compute", json!({"seconds": 1, "label": "shared"})).await;
    let working = task_request(b, 2, "tasks/get", json!({"taskId": task})).await;
    assert_eq!(working["result"]["taskId"], task.as_str(), "{working}");
    assert_eq!(working["result"]["status"], "working", "{working}");
    assert!(
        working["result"]["ttlMs"].as_u64().unwrap() > 0,
        "{working}"
    );
    let done = until_status(b, &task, "completed").await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Computed `shared` in 1s",
        "{done}"
    );

    // Two questions at once: answered one at a time on B, each answer taken at once.
    let task = start_task(a, "multi_input", json!({})).await;
    let asked = until_status(b, &task, "input_required").await;
    let mut keys: Vec<String> = asked["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys.len(), 2, "{asked}");
    let answer = json!({"action": "accept", "content": {"confirm": true}});
    let second = keys.pop().unwrap();
    let update = json!({"taskId": task, "inputResponses": {&keys[0]: answer}});
    let ack = task_request(b, 3, "tasks/update", update).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let got = task_request(b, 4, "tasks/get", json!({"taskId": task})).await;
    assert_eq!(got["result"]["status"], "input_required", "{got}");
    let pending: Vec<&String> = got["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(pending, [&second], "{got}");
    let update = json!({"taskId": task, "inputResponses": {&second: answer}});
    task_request(b, 5, "tasks/update", update).await;
    let done = until_status(b, &task, "completed").await;
    let text = done["result"]["content"][0]["text"].as_str().unwrap();
    assert_eq!(text.matches("action=accept").count(), 2, "{done}");
    until_status(a, &task, "completed").await;

    // Cancelled on B: at once on B, and on A, which stops the run.
    let task = start_task(a, "slow_compute", json!({"seconds": 60})).await;
    let ack = task_request(b, 6, "tasks/cancel", json!({"taskId": task})).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    assert!(ack["result"].get("status").is_none(), "{ack}");
    let got = task_request(b, 7, "tasks/get", json!({"taskId": task})).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
    until_status(a, &task, "cancelled").await;
    // Cancelling again, anywhere, changes nothing.
    let ack = task_request(a, 8, "tasks/cancel", json!({"taskId": task})).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    until_status(b, &task, "cancelled").await;

    // An id no instance made is unknown on each.
    for port in [a, b] {
        let unknown =
            task_request(port, 9, "tasks/get", json!({"taskId": "0123456789abcdef"})).await;
        assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    }
}

/// A listen stream on instance B follows a task instance A runs: acknowledged with its id
/// (not an unknown one), it gets `notifications/tasks` for each new status, once, read from
/// the record in Redis, up to the result once B's answer made A finish it. B writes `working`
/// as it takes the answer, and A announces `working` when it resumes: the stream tells it once
/// (a late announcement of the earlier `input_required` once read `working` again here).
#[tokio::test]
async fn a_listener_on_one_instance_follows_a_task_the_other_runs() {
    if !tools_present() {
        return;
    }
    let cluster = Cluster::start().await;
    let (a, b) = (cluster.a_port, cluster.b_port);
    let task = start_task(a, "confirm_delete", json!({"filename": "f.txt"})).await;
    let asked = until_status(b, &task, "input_required").await;
    let key = asked["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();

    let listen = with_tasks(json!({"notifications": {"taskIds": [task, "0123456789abcdef"]}}));
    let host = format!("127.0.0.1:{b}");
    let mut stream = post(b, &host, 1, "subscriptions/listen", listen).await;
    assert_eq!(stream.status, 200);
    let (_, ack) = stream.next_event().await.expect("the acknowledgement");
    let ack: Value = serde_json::from_str(&ack).unwrap();
    assert_eq!(
        ack["params"]["notifications"]["taskIds"],
        json!([task]),
        "{ack}"
    );

    let answer = json!({"action": "accept", "content": {"confirm": true}});
    let update = json!({"taskId": task, "inputResponses": {key: answer}});
    task_request(b, 2, "tasks/update", update).await;
    let mut statuses = Vec::new();
    while statuses.last() != Some(&json!("completed")) {
        let (_, note) = tokio::time::timeout(Duration::from_secs(10), stream.next_event())
            .await
            .expect("a status within 10 s")
            .expect("an event");
        let note: Value = serde_json::from_str(&note).unwrap();
        assert_eq!(note["method"], "notifications/tasks", "{note}");
        assert_eq!(note["params"]["taskId"], task.as_str(), "{note}");
        if note["params"]["status"] == "completed" {
            assert_eq!(
                note["params"]["result"]["content"][0]["text"],
                "Deleted f.txt"
            );
        }
        statuses.push(note["params"]["status"].clone());
    }
    // A notification shows the task as its record stands when it is read: the `working` one
    // may already read `completed`.
    assert!(
        statuses == [json!("working"), json!("completed")] || statuses == [json!("completed")],
        "{statuses:?}"
    );
}

/// Works a while as a task: the protected instances' task.
#[mcp_tool(task_support = "optional")]
async fn nap(ctx: Context) -> String {
    ctx.continue_as_task().await;
    tokio::time::sleep(Duration::from_secs(30)).await;
    "rested".to_owned()
}

/// A request of revision 2026-07-28 declaring the tasks extension, at `port` with `token`: the
/// JSON-RPC reply.
async fn task_request_as(port: u16, token: &str, method: &str, params: Value) -> Value {
    let (body, mut headers) = stateless(1, method, with_tasks(params));
    headers.push(("authorization".to_owned(), format!("Bearer {token}")));
    headers.push(("content-type".to_owned(), "application/json".to_owned()));
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    http::request(port, "POST", &headers, &body)
        .await
        .json()
        .await
}

/// On a protected server, a task created on instance A by one caller is theirs on instance B
/// too (the owner its record in Redis names): another caller's `tasks/get`, `tasks/update`
/// and `tasks/cancel` there are told the id is unknown, and the task goes on.
#[tokio::test(flavor = "multi_thread")]
async fn a_task_on_a_protected_server_is_its_caller_s_only_on_every_instance() {
    let Some(pair) = ProtectedPair::start().await else {
        return;
    };
    let (a, b, writer, reader) = (pair.a, pair.b, &pair.writer, &pair.reader);

    let created = task_request_as(
        a,
        writer,
        "tools/call",
        json!({"name": "nap", "arguments": {}}),
    )
    .await;
    assert_eq!(created["result"]["resultType"], "task", "{created}");
    let task = created["result"]["taskId"].as_str().unwrap().to_owned();
    for (method, params) in [
        ("tasks/get", json!({"taskId": task})),
        (
            "tasks/update",
            json!({"taskId": task, "inputResponses": {}}),
        ),
        ("tasks/cancel", json!({"taskId": task})),
    ] {
        let refused = task_request_as(b, reader, method, params).await;
        assert_eq!(refused["error"]["code"], -32602, "{method}: {refused}");
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains("not yours"),
            "{refused}"
        );
    }
    let got = task_request_as(b, writer, "tasks/get", json!({"taskId": task})).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    let ack = task_request_as(b, writer, "tasks/cancel", json!({"taskId": task})).await;
    assert_eq!(ack["result"]["resultType"], "complete", "{ack}");
    let got = task_request_as(a, writer, "tasks/get", json!({"taskId": task})).await;
    assert_eq!(got["result"]["status"], "cancelled", "{got}");
}

/// Redis gone: a task another instance runs cannot be read, and a new task cannot be shared;
/// each request is refused at once with an error that says so (no hang), and the instances
/// keep serving.
#[tokio::test]
async fn tasks_say_so_when_redis_is_down() {
    if !tools_present() {
        return;
    }
    let mut cluster = Cluster::start().await;
    let (a, b) = (cluster.a_port, cluster.b_port);
    let task = start_task(a, "slow_compute", json!({"seconds": 60})).await;
    cluster.redis.kill();

    let started = Instant::now();
    let refused = task_request(b, 2, "tasks/get", json!({"taskId": task})).await;
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("could not be used"), "{message}");
    let call = json!({"name": "slow_compute", "arguments": {"seconds": 60}});
    let refused = task_request(a, 3, "tools/call", call).await;
    assert_eq!(refused["error"]["code"], -32603, "{refused}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    cluster
        .b
        .wait_for_log("the Redis task store failed", Duration::from_secs(5));
    // The instance that runs the task still answers about it from its memory.
    let got = task_request(a, 4, "tasks/get", json!({"taskId": task})).await;
    assert_eq!(got["result"]["status"], "working", "{got}");
    cluster.a.assert_alive();
    cluster.b.assert_alive();
}
