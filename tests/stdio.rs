//! The stdio transport, end to end: the example servers run as child processes.

#[path = "common/examples.rs"]
mod examples;
#[path = "common/ports.rs"]
mod ports;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use examples::example;
use ports::free_port;
use serde_json::{Value, json};

struct Running {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Running {
    fn start(name: &str, envs: &[(&str, &str)]) -> Running {
        Running::start_with(name, &[], envs)
    }

    fn start_with(name: &str, args: &[&str], envs: &[(&str, &str)]) -> Running {
        let mut child = Command::new(example(name))
            .args(args)
            .envs(envs.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the example starts");
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let lines = lines_of(stdout);
        Running { child, lines }
    }

    fn send(&mut self, message: &str) {
        self.send_raw(format!("{message}\n").as_bytes());
    }

    /// Writes `bytes` as they are, in one write.
    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.child.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn initialize(&mut self) {
        self.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#);
        let reply = self.next();
        assert_eq!(reply["id"], 0, "{reply}");
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    }

    /// The next line of stdout, which must be one JSON-RPC message.
    fn next(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(10))
            .expect("a message on stdout within 10 s");
        let message: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a line that is not JSON ({e}): {line:?}"));
        assert_eq!(message["jsonrpc"], "2.0", "not a JSON-RPC message: {line}");
        message
    }

    /// Closes stdin and collects the rest: remaining stdout lines, stderr, success.
    fn finish(mut self) -> (Vec<String>, String, bool) {
        drop(self.child.stdin.take());
        let output = self.child.wait_with_output().expect("the server exits");
        // The server has exited, so its stdout has ended; the thread reading it may still be
        // passing the last lines on (on a loaded machine it can lag behind the exit).
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(10)) {
            rest.push(line);
        }
        (
            rest,
            String::from_utf8_lossy(&output.stderr).into_owned(),
            output.status.success(),
        )
    }
}

/// The lines `source` yields, read on a thread of their own.
fn lines_of(source: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(source).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

fn call(id: u32, tool: &str, arguments: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}).to_string()
}

#[test]
fn stdout_carries_only_protocol_messages_even_when_tools_print() {
    let mut server = Running::start("printing", &[]);
    server.initialize();
    server.send(&call(1, "shout", json!({"text": "hello"})));
    let reply = server.next();
    assert_eq!(reply["result"]["content"][0]["text"], "HELLO");
    let (rest, stderr, success) = server.finish();
    for line in &rest {
        let message: Value =
            serde_json::from_str(line).unwrap_or_else(|_| panic!("stray stdout line {line:?}"));
        assert_eq!(message["jsonrpc"], "2.0");
    }
    assert!(success, "the server failed: {stderr}");
    for printed in ["println: hello", "write_all: hello", "child process: hello"] {
        assert!(
            stderr.contains(printed),
            "{printed:?} should have gone to stderr: {stderr}"
        );
    }
}

/// What a tool prints after the first replies reaches stderr while the server goes on serving,
/// not only when it ends.
#[test]
fn stray_prints_reach_stderr_while_serving() {
    let mut server = Running::start("printing", &[]);
    let stderr_lines = lines_of(server.child.stderr.take().unwrap());
    server.initialize();
    server.send(&call(1, "wait", json!({"ms": 1})));
    assert_eq!(server.next()["id"], 1);

    server.send(&call(2, "shout", json!({"text": "late"})));
    assert_eq!(server.next()["result"]["content"][0]["text"], "LATE");
    let mut seen = Vec::new();
    while !["println: late", "write_all: late", "child process: late"]
        .iter()
        .all(|printed| seen.iter().any(|line: &String| line.contains(printed)))
    {
        let line = stderr_lines
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("the prints reach stderr while serving: {seen:?}"));
        seen.push(line);
    }
    let (rest, _, success) = server.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(success);
}

/// What a tool prints while the first chunk of input is handled (before the thread that moves
/// stray prints to stderr is started) still reaches stderr, and never stdout.
#[test]
fn prints_of_the_first_chunk_of_input_reach_stderr() {
    let mut server = Running::start("printing", &[]);
    let first_chunk = [
        r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#.to_owned(),
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned(),
        call(1, "shout", json!({"text": "early"})),
    ]
    .join("\n")
        + "\n";
    let stdin = server.child.stdin.as_mut().expect("stdin is open");
    stdin.write_all(first_chunk.as_bytes()).unwrap();
    stdin.flush().unwrap();
    assert_eq!(server.next()["id"], 0);
    let reply = server.next();
    assert_eq!(reply["result"]["content"][0]["text"], "EARLY", "{reply}");
    let (rest, stderr, success) = server.finish();
    assert!(rest.is_empty(), "{rest:?}");
    assert!(success, "the server failed: {stderr}");
    for printed in ["println: early", "write_all: early", "child process: early"] {
        assert!(
            stderr.contains(printed),
            "{printed:?} should have gone to stderr: {stderr}"
        );
    }
}

#[test]
fn end_of_input_stops_the_server_after_replies_in_flight_are_written() {
    let mut server = Running::start("printing", &[]);
    server.initialize();
    server.send(&call(7, "wait", json!({"ms": 300})));
    let (rest, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    let replies: Vec<Value> = rest
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(replies.len(), 1, "{rest:?}");
    assert_eq!(replies[0]["id"], 7);
    assert_eq!(replies[0]["result"]["content"][0]["text"], "waited 300 ms");
}

/// At the end of input the client may still read: an open `subscriptions/listen` (revision
/// 2026-07-28) is ended as the server ends one, with its complete result tagged with its
/// `subscriptionId` (basic/patterns/subscriptions, "Graceful Closure"), before the server
/// exits; before, it was dropped without a reply.
#[test]
fn at_the_end_of_input_an_open_listen_gets_its_closing_result() {
    let mut server = Running::start("printing", &[]);
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
    });
    server.send(
        &json!({"jsonrpc": "2.0", "id": 5, "method": "subscriptions/listen",
            "params": {"notifications": {"toolsListChanged": true}, "_meta": meta}})
        .to_string(),
    );
    let acknowledged = server.next();
    assert_eq!(
        acknowledged["method"], "notifications/subscriptions/acknowledged",
        "{acknowledged}"
    );
    let (rest, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    assert_eq!(rest.len(), 1, "{rest:?}");
    let closing: Value = serde_json::from_str(&rest[0]).unwrap();
    assert_eq!(closing["id"], 5, "{closing}");
    assert_eq!(closing["result"]["resultType"], "complete", "{closing}");
    assert_eq!(
        closing["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 5,
        "{closing}"
    );
}

/// Over stdio a request enters the in-flight map only when it waits: an id reused while a
/// request waits is still refused, a waiting request can still be cancelled, and the id of
/// a request that has finished (at once, or after waiting) can be used again.
#[test]
fn ids_in_flight_are_refused_and_cancels_reach_waiting_requests() {
    let mut server = Running::start("printing", &[]);
    server.initialize();
    server.send(&call(1, "shout", json!({"text": "a"})));
    assert_eq!(server.next()["result"]["content"][0]["text"], "A");
    server.send(&call(1, "shout", json!({"text": "b"})));
    let reply = server.next();
    assert_eq!(reply["id"], 1);
    assert_eq!(reply["result"]["content"][0]["text"], "B", "{reply}");
    server.send(&call(2, "wait", json!({"ms": 60_000})));
    server.send(&call(2, "shout", json!({"text": "c"})));
    let refused = server.next();
    assert_eq!(refused["id"], 2);
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("already in use")),
        "{refused}"
    );
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#);
    server.send(&call(2, "wait", json!({"ms": 10})));
    let reply = server.next();
    assert_eq!(reply["id"], 2);
    assert_eq!(
        reply["result"]["content"][0]["text"], "waited 10 ms",
        "{reply}"
    );
    server.send(&call(2, "shout", json!({"text": "d"})));
    assert_eq!(server.next()["result"]["content"][0]["text"], "D");
    let (rest, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    assert!(
        rest.is_empty(),
        "the cancelled request was answered: {rest:?}"
    );
}

/// The printing example's grace period is 2 s: a request that would run for a minute is
/// cancelled (no reply) and the server exits soon after stdin ends.
#[test]
fn at_the_end_of_input_a_request_that_outlasts_the_grace_period_is_cancelled() {
    let mut server = Running::start("printing", &[]);
    server.initialize();
    server.send(&call(8, "wait", json!({"ms": 60_000})));
    server.send(&call(9, "wait", json!({"ms": 100})));
    let started = std::time::Instant::now();
    let (rest, stderr, success) = server.finish();
    let took = started.elapsed();
    assert!(success, "{stderr}");
    assert!(
        took >= Duration::from_millis(1500) && took < Duration::from_secs(10),
        "the server took {took:?} to exit"
    );
    let ids: Vec<Value> = rest
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["id"].clone())
        .collect();
    assert_eq!(ids, [json!(9)], "{rest:?}");
}

#[test]
fn an_oversized_message_is_refused_and_the_server_goes_on() {
    let mut server = Running::start("printing", &[]);
    server.initialize();
    let huge = call(8, "shout", json!({"text": "x".repeat(200_000)}));
    server.send(&huge);
    server.send(r#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#);
    let refusal = server.next();
    assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
    let message = refusal["error"]["message"].as_str().unwrap();
    assert!(message.contains("65536 bytes"), "{message}");
    // Its id comes first, in the part the server kept: the refusal names the request.
    assert_eq!(refusal["id"], 8, "{refusal}");
    assert_eq!(
        server.next(),
        json!({"jsonrpc": "2.0", "id": 9, "result": {}})
    );
    let (_, stderr, success) = server.finish();
    assert!(success, "{stderr}");
}

/// The id of an oversized message is read from the part the server keeps, and only used when
/// it certainly names a request: a `method` and one complete id before the cut. Otherwise the
/// refusal names no request, as for any message whose id could not be read (2025-11-25:
/// "except in error cases where the ID could not be read due a malformed request", Base
/// Protocol > Messages > Error Responses).
#[test]
fn an_oversized_message_is_refused_with_its_id_only_when_certain() {
    let mut server = Running::start("printing", &[]);
    server.initialize();
    let padding = "x".repeat(200_000);
    let uncertain = [
        // The id comes after the cut.
        format!(
            r#"{{"jsonrpc":"2.0","method":"tools/call","params":{{"name":"shout","arguments":{{"text":"{padding}"}}}},"id":10}}"#
        ),
        // No method: it could be the answer to a request of the server's.
        format!(r#"{{"jsonrpc":"2.0","id":11,"result":{{"text":"{padding}"}}}}"#),
        // An id that is not one.
        format!(
            r#"{{"jsonrpc":"2.0","id":1.5,"method":"tools/call","params":{{"text":"{padding}"}}}}"#
        ),
    ];
    for message in &uncertain {
        server.send(message);
        let refusal = server.next();
        assert_eq!(refusal["error"]["code"], -32600, "{refusal}");
        assert!(refusal.get("id").is_none(), "{refusal}");
    }
    server.send(&format!(
        r#"{{"id":"s-12","method":"tools/call","jsonrpc":"2.0","params":{{"text":"{padding}"}}}}"#
    ));
    assert_eq!(server.next()["id"], "s-12");
    let (_, stderr, success) = server.finish();
    assert!(success, "{stderr}");
}

#[test]
fn mcp_trace_logs_every_message_with_direction_and_id_to_stderr() {
    let mut server = Running::start("printing", &[("MCP_TRACE", "1")]);
    server.initialize();
    server.send(r#"{"jsonrpc":"2.0","id":"p-1","method":"ping"}"#);
    assert_eq!(server.next()["id"], "p-1");
    let (_, stderr, success) = server.finish();
    assert!(success);
    assert!(stderr.contains(r#"[mcp <-] id=0 initialize {"#), "{stderr}");
    assert!(
        stderr.contains(r#"[mcp ->] id=0 {"jsonrpc":"2.0","id":0,"result""#),
        "{stderr}"
    );
    assert!(stderr.contains(r#"[mcp <-] id="p-1" ping"#), "{stderr}");
    assert!(
        stderr.contains(r#"[mcp <-] id=- notifications/initialized"#),
        "{stderr}"
    );
}

#[test]
fn the_gift_server_answers_over_stdio() {
    let mut server = Running::start("gifts", &[]);
    server.initialize();
    server.send(&call(
        1,
        "suggest_gifts",
        json!({"occasion": "birthday", "budget": 30}),
    ));
    let reply = server.next();
    let gifts = reply["result"]["structuredContent"]["gifts"]
        .as_array()
        .unwrap();
    assert!(!gifts.is_empty());
    assert!(
        gifts.iter().all(|g| g["price"].as_f64().unwrap() <= 30.0),
        "{reply}"
    );
    server.send(&call(
        2,
        "suggest_gifts",
        json!({"occasion": "wedding", "budget": 5}),
    ));
    let reply = server.next();
    assert_eq!(reply["result"]["isError"], true);
    let (_, stderr, success) = server.finish();
    assert!(success, "{stderr}");
}

#[test]
fn the_files_example_serves_its_folder_and_nothing_outside_it() {
    let base = std::env::temp_dir().join(format!("mcp-files-{}", std::process::id()));
    let served = base.join("served");
    std::fs::create_dir_all(served.join("notes")).unwrap();
    std::fs::write(served.join("notes/today.md"), "# Today").unwrap();
    std::fs::write(base.join("secret.txt"), "do not leak").unwrap();
    let mut server = Running::start_with("files", &[served.to_str().unwrap()], &[]);
    server.initialize();
    let read = |id: u32, uri: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": uri}})
            .to_string()
    };
    server.send(&read(1, "files:///notes/today.md"));
    let reply = server.next();
    assert_eq!(reply["result"]["contents"][0]["text"], "# Today");
    assert_eq!(reply["result"]["contents"][0]["mimeType"], "text/markdown");
    for (id, uri) in [
        (2, "files:///../secret.txt"),
        (3, "files:///notes/../../secret.txt"),
        (4, "files:////etc/passwd"),
    ] {
        server.send(&read(id, uri));
        let reply = server.next();
        assert_eq!(reply["error"]["code"], -32602, "{uri}: {reply}");
        assert!(!reply.to_string().contains("do not leak"));
    }
    server.send(&read(5, "files:///notes/missing.md"));
    assert_eq!(server.next()["error"]["code"], -32002);
    let complete = json!({"jsonrpc": "2.0", "id": 6, "method": "completion/complete", "params": {
        "ref": {"type": "ref/resource", "uri": "files:///{+path}"}, "argument": {"name": "path", "value": "no"}}});
    server.send(&complete.to_string());
    assert_eq!(
        server.next()["result"]["completion"]["values"],
        json!(["notes/today.md"])
    );
    let (_, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    std::fs::remove_dir_all(&base).ok();
}

#[test]
fn run_by_hand_in_a_terminal_the_server_says_what_it_is() {
    // `script` gives the server a pseudo-terminal as stdin, as a person at a shell would.
    let command = format!("{} < /dev/tty", example("gifts").display());
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("`script` (util-linux) runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("gift-server 0.1.0: a Model Context Protocol server"),
        "{text}"
    );
    assert!(text.contains("Press Ctrl-D to quit."), "{text}");

    // Through a pipe, as a client starts it, nothing is said.
    let mut server = Running::start("gifts", &[]);
    server.initialize();
    let (_, stderr, _) = server.finish();
    assert!(!stderr.contains("Ctrl-D"), "{stderr}");
}

/// Node.js clients (Claude Desktop, MCP Inspector, the TypeScript SDK) hand their servers a
/// socket pair for stdin and stdout, not pipes.
#[cfg(unix)]
#[test]
fn a_socket_pair_for_stdin_and_stdout_works_as_pipes_do() {
    let (child, client, mut writer, mut replies) = printing_on_a_socket(false);
    writeln!(writer, "{}", call(1, "wait", json!({"ms": 50}))).unwrap();
    writeln!(writer, "{}", call(2, "shout", json!({"text": "socket"}))).unwrap();
    let mut texts: Vec<(u64, String)> = (0..2)
        .map(|_| {
            let reply: Value = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
            let text = reply["result"]["content"][0]["text"].as_str().unwrap();
            (reply["id"].as_u64().unwrap(), text.to_owned())
        })
        .collect();
    texts.sort();
    assert_eq!(
        texts,
        [(1, "waited 50 ms".to_owned()), (2, "SOCKET".to_owned())]
    );
    ends_with_its_input(child, &client);
}

/// Stdin is read in turns (`transport/stdin_turns.rs`): by the runtime, and, after eight reads
/// in a row whose requests all finished at once, by a thread of its own (`mcp-stdin`) that
/// answers them where it reads; a request that waits hands the reading back to the runtime.
/// Across several turns each way every request is answered: at-once replies in order, a
/// request that does not wait answered while one that waits is waiting, and stdin ending while
/// the thread reads ends the server with nothing lost.
#[test]
fn stdin_read_in_turns_by_the_runtime_and_a_thread_loses_nothing() {
    let mut server = Running::start("printing", &[]);
    server.initialize();
    let mut id = 0;
    let shout_back = |server: &mut Running, id: &mut u32| {
        *id += 1;
        let text = format!("turn {id}");
        server.send(&call(*id, "shout", json!({ "text": text })));
        let reply = server.next();
        assert_eq!(reply["id"], *id, "{reply}");
        assert_eq!(
            reply["result"]["content"][0]["text"],
            text.to_uppercase(),
            "{reply}"
        );
    };
    for round in 0..3 {
        for _ in 0..12 {
            shout_back(&mut server, &mut id);
        }
        if round == 0 {
            let threads = thread_names(server.child.id());
            assert!(
                threads.iter().any(|name| name == "mcp-stdin"),
                "no thread reads stdin after a run of requests answered at once: {threads:?}"
            );
        }
        let waiting = 1000 + round;
        server.send(&call(waiting, "wait", json!({"ms": 500})));
        id += 1;
        server.send(&call(id, "shout", json!({"text": "meanwhile"})));
        let first = server.next();
        assert_eq!(first["id"], id, "{first}");
        assert_eq!(first["result"]["content"][0]["text"], "MEANWHILE");
        let second = server.next();
        assert_eq!(second["id"], waiting, "{second}");
        assert_eq!(second["result"]["content"][0]["text"], "waited 500 ms");
    }
    for _ in 0..12 {
        shout_back(&mut server, &mut id);
    }
    let (rest, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    assert!(rest.is_empty(), "{rest:?}");
}

/// `serve_stdio` called again in the same process (`examples/serving_again.rs`): each next
/// serving answers on the same stdout, and nothing the client sent as a serving ended is lost:
/// neither the start of a line the ended serving had read, nor the rest of it, which the
/// ended serving's stdin thread was blocked reading (`transport/stdin_leftover.rs`). Once with
/// the runtime reading stdin as the serving ends, once with the thread.
#[test]
fn serving_stdio_again_in_the_same_process_loses_nothing() {
    const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let (line_start, line_rest) = INITIALIZE.split_at(50);
    let mut server = Running::start("serving_again", &[]);
    server.send(INITIALIZE);
    let mut id = 0;
    for serving in 1..=3 {
        let reply = server.next();
        assert_eq!(reply["id"], 0, "{reply}");
        assert_eq!(reply["result"]["serverInfo"]["name"], "serving-again");
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        // Twelve requests answered at once: the stdin thread reads from the eighth on.
        let quick = if serving == 2 { 12 } else { 2 };
        for _ in 0..quick {
            id += 1;
            server.send(&call(id, "serving", json!({})));
            let reply = server.next();
            assert_eq!(reply["id"], id, "{reply}");
            assert_eq!(
                reply["result"]["structuredContent"]["result"], serving,
                "{reply}"
            );
        }
        if serving == 2 {
            let threads = thread_names(server.child.id());
            assert!(
                threads.iter().any(|name| name == "mcp-stdin"),
                "no thread reads stdin after a run of requests answered at once: {threads:?}"
            );
        }
        if serving == 3 {
            break;
        }
        // The request that ends this serving, and the start of the next line in the same
        // write; the rest once the next serving has begun.
        id += 1;
        let ending = format!("{}\n{line_start}", call(id, "serve_again", json!({})));
        server.send_raw(ending.as_bytes());
        let reply = server.next();
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["result"]["content"][0]["text"], "serving again");
        std::thread::sleep(Duration::from_millis(300));
        server.send(line_rest);
    }
    let (rest, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    assert!(rest.is_empty(), "{rest:?}");
}

/// A stdin its parent made non-blocking (a socket here, whose flag the server shares): the
/// reading thread's blocking `read` cannot wait on it, so it hands the reading back at its
/// first empty read and the runtime reads from then on; nothing is lost.
#[test]
fn a_non_blocking_stdin_is_read_by_the_runtime_alone() {
    let (child, client, mut writer, mut replies) = printing_on_a_socket(true);
    for id in 1..=40 {
        writeln!(
            writer,
            "{}",
            call(id, "shout", json!({"text": format!("n{id}")}))
        )
        .unwrap();
        let reply: Value = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
        assert_eq!(reply["id"], id, "{reply}");
        assert_eq!(reply["result"]["content"][0]["text"], format!("N{id}"));
    }
    ends_with_its_input(child, &client);
}

/// The printing example with one end of a socket pair for stdin and stdout (`non_blocking`:
/// made so before the server starts, a flag it shares), initialized: the server, the client's
/// end, a writer on it, and the replies it reads.
#[cfg(unix)]
fn printing_on_a_socket(
    non_blocking: bool,
) -> (
    Child,
    std::os::unix::net::UnixStream,
    std::os::unix::net::UnixStream,
    std::io::Lines<BufReader<std::os::unix::net::UnixStream>>,
) {
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;

    let (client, server_end) = UnixStream::pair().unwrap();
    server_end.set_nonblocking(non_blocking).unwrap();
    let server_in = OwnedFd::from(server_end.try_clone().unwrap());
    let child = Command::new(example("printing"))
        .stdin(Stdio::from(server_in))
        .stdout(Stdio::from(OwnedFd::from(server_end)))
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    client
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut writer = client.try_clone().unwrap();
    let mut replies = BufReader::new(client.try_clone().unwrap()).lines();
    writeln!(writer, r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"t","version":"0"}}}}}}"#).unwrap();
    let reply: Value = serde_json::from_str(&replies.next().unwrap().unwrap()).unwrap();
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25", "{reply}");
    (child, client, writer, replies)
}

/// Ends the input of a server started by [`printing_on_a_socket`]: it exits, successfully.
#[cfg(unix)]
fn ends_with_its_input(child: Child, client: &std::os::unix::net::UnixStream) {
    client.shutdown(std::net::Shutdown::Write).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The names of process `pid`'s threads.
fn thread_names(pid: u32) -> Vec<String> {
    std::fs::read_dir(format!("/proc/{pid}/task"))
        .unwrap()
        .filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("comm")).ok())
        .map(|name| name.trim_end().to_owned())
        .collect()
}

/// A client that writes all its requests before it reads a reply: the server keeps reading
/// while its output is full, holding the replies until the client reads them.
#[test]
fn a_client_that_writes_everything_before_reading_is_not_deadlocked() {
    let (mut child, stdin, stdout) = spawn_piped("gifts");
    const REQUESTS: u64 = 400;
    // Each request carries 2 KiB of padding: 800 KiB in, far more than a pipe holds, and the
    // replies (the tool list) are larger still.
    let padding = "x".repeat(2048);
    let requests = (1..=REQUESTS).map(|id| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": {"_meta": {"padding": padding}}}).to_string()
    });
    let done = write_in_background(stdin, requests.collect());
    let stdin = done
        .recv_timeout(Duration::from_secs(30))
        .expect("the server kept reading while its replies waited to be read");
    let mut ids = Vec::new();
    for line in BufReader::new(stdout).lines().take(REQUESTS as usize + 1) {
        let reply: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if reply["id"] != 0 {
            assert!(reply["result"]["tools"].as_array().is_some(), "{reply}");
        }
        ids.push(reply["id"].as_u64().unwrap());
    }
    assert_eq!(ids, (0..=REQUESTS).collect::<Vec<_>>());
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;

/// Runs `name` with `stdin` and returns its stdout lines once it exits; fails after 10 s.
fn serve_to_end(name: &str, stdin: Stdio) -> Vec<String> {
    let mut child = Command::new(example(name))
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    let stdout = child.stdout.take().unwrap();
    let (sender, lines) = mpsc::channel();
    std::thread::spawn(move || {
        let read: Vec<String> = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect();
        let _ = sender.send(read);
    });
    let Ok(lines) = lines.recv_timeout(Duration::from_secs(10)) else {
        let _ = child.kill();
        panic!("the server did not answer and end within 10 s");
    };
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    lines
}

/// `mkfifo f; echo '<initialize>' > f & server < f`: by the time the server opens its stdin
/// again, the writer has written and gone.
#[cfg(unix)]
#[test]
fn a_named_fifo_whose_writer_has_gone_is_served() {
    let dir = std::env::temp_dir().join(format!("mcp-stdio-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("f");
    let _ = std::fs::remove_file(&fifo);
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let path = fifo.clone();
    let writer = std::thread::spawn(move || std::fs::write(path, format!("{INITIALIZE}\n")));
    let stdin = std::fs::File::open(&fifo).unwrap();
    writer.join().unwrap().unwrap();
    let lines = serve_to_end("printing", Stdio::from(stdin));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    let reply: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(reply["result"]["protocolVersion"], "2025-11-25", "{reply}");
}

/// A regular file is no pipe: the reader thread reads it, and the same loop serves it.
#[test]
fn a_file_for_stdin_is_served_by_the_reader_thread() {
    let dir = std::env::temp_dir().join(format!("mcp-stdio-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("requests");
    let requests = [
        INITIALIZE.to_owned(),
        call(1, "wait", json!({"ms": 50})),
        call(2, "shout", json!({"text": "file"})),
    ];
    std::fs::write(&path, requests.join("\n")).unwrap();
    let lines = serve_to_end("printing", Stdio::from(std::fs::File::open(&path).unwrap()));
    std::fs::remove_dir_all(&dir).unwrap();
    let mut ids: Vec<u64> = lines
        .iter()
        .map(|line| {
            serde_json::from_str::<Value>(line).unwrap()["id"]
                .as_u64()
                .unwrap()
        })
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, [0, 1, 2], "{lines:?}");
}

/// A stdin read faster than it is served is not read into memory whole (RELIABILITY.md,
/// "stdio"): with a 64 MiB file for stdin and a stdout nobody reads, the serving stops at its
/// output backlog and the reader thread at its queue (16 MiB), so the server's peak memory
/// stays far below the file's size. (Before the queue was bounded it read the whole file.)
#[cfg(target_os = "linux")]
#[test]
fn a_file_for_stdin_is_read_ahead_only_as_far_as_the_reader_s_queue() {
    use std::io::Write as _;
    let dir = std::env::temp_dir().join(format!("mcp-stdio-big-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("requests");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(file, "{INITIALIZE}").unwrap();
    // Each error reply repeats the 60 KB method name: the output backlog fills at once.
    let method = "x".repeat(60_000);
    for id in 1..=1100 {
        writeln!(
            file,
            "{}",
            json!({"jsonrpc": "2.0", "id": id, "method": method})
        )
        .unwrap();
    }
    drop(file);
    let mut child = Command::new(example("printing"))
        .stdin(Stdio::from(std::fs::File::open(&path).unwrap()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the example starts");
    // Long enough for a reader that does not wait to read the whole file many times over.
    std::thread::sleep(Duration::from_millis(1500));
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status");
    let _ = child.kill();
    let _ = child.wait();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        peak_kib < 40 * 1024,
        "the server held {peak_kib} KiB: it read its 64 MiB stdin ahead of serving it"
    );
}

/// A client that closes the server's stdout (and keeps stdin open) ends the server, even with
/// a request in flight.
#[test]
fn a_closed_stdout_ends_the_server() {
    let mut child = Command::new(example("printing"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{INITIALIZE}").unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains("protocolVersion"), "{line}");
    writeln!(stdin, "{}", call(1, "wait", json!({"ms": 60_000}))).unwrap();
    drop(stdout);
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("the server went on for 10 s with its stdout closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The printing example lets 256 KiB of output wait: a client that sends requests and reads
/// nothing finds the server no longer reading once that much is unread, and everything
/// arrives once it reads.
#[test]
fn a_client_that_does_not_read_is_not_read_past_the_output_backlog() {
    let (mut child, stdin, stdout) = spawn_piped("printing");
    const REQUESTS: usize = 200;
    // Each error reply repeats the 60 KB method name: 12 MB of replies in all.
    let method = "x".repeat(60_000);
    let requests =
        (1..=REQUESTS).map(|id| json!({"jsonrpc": "2.0", "id": id, "method": method}).to_string());
    let done = write_in_background(stdin, requests.collect());
    assert!(
        done.recv_timeout(Duration::from_secs(2)).is_err(),
        "the server read every request although none of its replies was read"
    );
    let replies = BufReader::new(stdout).lines().take(REQUESTS + 1).count();
    assert_eq!(replies, REQUESTS + 1);
    let stdin = done
        .recv_timeout(Duration::from_secs(10))
        .expect("the server read the rest once its replies were read");
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// Starts example `name` with piped stdin and stdout (stderr dropped).
fn spawn_piped(name: &str) -> (Child, ChildStdin, ChildStdout) {
    let mut child = Command::new(example(name))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the example starts");
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    (child, stdin, stdout)
}

/// Writes `initialize` and then `requests` on a thread; stdin comes back once all is written.
fn write_in_background(mut stdin: ChildStdin, requests: Vec<String>) -> mpsc::Receiver<ChildStdin> {
    let (written, done) = mpsc::channel();
    std::thread::spawn(move || {
        writeln!(stdin, "{INITIALIZE}").unwrap();
        for request in requests {
            writeln!(stdin, "{request}").unwrap();
        }
        stdin.flush().unwrap();
        written.send(stdin).unwrap();
    });
    done
}

/// `run()`'s command line (the gift server calls it): `--help` prints the usage on stdout and
/// exits 0 without speaking the protocol.
#[test]
fn run_prints_the_usage_for_help() {
    for help in ["--help", "-h"] {
        let output = Command::new(example("gifts"))
            .arg(help)
            .stdin(Stdio::null())
            .output()
            .expect("the example starts");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{help}: {output:?}");
        assert!(
            stdout.starts_with("An MCP (Model Context Protocol) server.")
                && stdout.contains("Usage: gifts [--http ADDRESS]"),
            "{help}: {stdout}"
        );
    }
}

/// `run()` refuses an option it does not know, by name, with a non-zero exit, instead of
/// serving stdio.
#[test]
fn run_refuses_an_unknown_option_by_name() {
    let (output, stderr) = gifts_failing_with(&["--htp", "127.0.0.1:8000"]);
    assert!(
        stderr.contains("unknown option `--htp`; did you mean `--http`?"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "{output:?}");
}

/// The gift server run with `args` and no stdin, which must fail: its output and stderr.
fn gifts_failing_with(args: &[&str]) -> (std::process::Output, String) {
    let output = Command::new(example("gifts"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the example starts");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{output:?}");
    (output, stderr)
}

/// `run()` told to listen where another program does: the message names the address and
/// what to do (it said "the MCP transport failed: Address already in use").
#[test]
fn run_names_the_address_it_cannot_listen_on() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap();
    let (_, stderr) = gifts_failing_with(&["--http", &addr.to_string()]);
    assert!(
        stderr.contains(&format!("cannot listen on {addr}"))
            && stderr.contains("another program listens there"),
        "{stderr}"
    );
    assert!(!stderr.contains("transport"), "{stderr}");
}

/// `run()` resolves a host name given to `--http` (`localhost` serves on 127.0.0.1).
#[test]
fn run_serves_http_at_a_host_name() {
    let port = free_port();
    let (mut server, listening) = gifts_over_http("localhost", port);
    if listening {
        // A request for a host the server does not know is refused, and said on stderr.
        let mut connection = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            connection,
            "GET /mcp HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = std::io::Read::read_to_string(&mut connection, &mut answer);
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        std::thread::sleep(Duration::from_millis(300));
    }
    let _ = server.kill();
    let output = server.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        listening,
        "--http localhost:{port} did not listen on 127.0.0.1:{port}: {stderr}"
    );
    assert!(
        stderr
            .contains("refused a request (403 Forbidden): the Host `evil.example` is not allowed"),
        "{stderr}"
    );
}

/// The gifts example started with `--http HOST:PORT`, and whether it listens on
/// 127.0.0.1:`port` within ten seconds (false if it ended).
fn gifts_over_http(host: &str, port: u16) -> (Child, bool) {
    let mut server = Command::new(example("gifts"))
        .args(["--http", &format!("{host}:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    let listening = listens(&mut server, port);
    (server, listening)
}

/// Whether `server` listens on 127.0.0.1:`port` within ten seconds (false if it ended).
fn listens(server: &mut Child, port: u16) -> bool {
    let started = std::time::Instant::now();
    loop {
        if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return true;
        }
        if started.elapsed() > Duration::from_secs(10) || server.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `run_with` serves `--http` with the options it was given: the gifts example's 64 KiB body
/// limit refuses a larger request with 413 naming it (the default is 4 MiB).
#[test]
fn run_with_serves_http_with_its_options() {
    let port = free_port();
    let (mut server, listening) = gifts_over_http("127.0.0.1", port);
    let mut answer = String::new();
    if listening {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"_":"{}"}}}}"#,
            "x".repeat(100 * 1024)
        );
        let mut connection = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            connection,
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let _ = std::io::Read::read_to_string(&mut connection, &mut answer);
    }
    let _ = server.kill();
    let output = server.wait_with_output().unwrap();
    assert!(
        listening,
        "--http 127.0.0.1:{port} did not listen: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(
        answer.contains(
            "larger than the server's limit of 65536 bytes (HttpOptions::max_body_bytes)"
        ),
        "{answer}"
    );
}

/// The files example against a hostile folder: links out of it (to a folder and to a file),
/// two link loops, a link to itself and a FIFO. Completion lists only the files inside and
/// ends; reading the FIFO (or a link to it) is refused at once and the server keeps answering.
#[cfg(unix)]
#[test]
fn the_files_example_follows_no_link_out_ends_on_loops_and_refuses_a_fifo() {
    use std::os::unix::fs::symlink;
    let base = std::env::temp_dir().join(format!("mcp-files-hostile-{}", std::process::id()));
    let served = base.join("served");
    std::fs::create_dir_all(served.join("docs/deep")).unwrap();
    std::fs::create_dir_all(base.join("outside")).unwrap();
    std::fs::write(base.join("outside/secret.txt"), "do not leak").unwrap();
    std::fs::write(served.join("docs/a.txt"), "a").unwrap();
    symlink(base.join("outside"), served.join("out-dir")).unwrap();
    symlink(base.join("outside/secret.txt"), served.join("out-file")).unwrap();
    symlink(&served, served.join("docs/loop")).unwrap();
    symlink(served.join("docs"), served.join("docs/deep/loop")).unwrap();
    symlink(served.join("self"), served.join("self")).unwrap();
    let made = Command::new("mkfifo").arg(served.join("pipe")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo (coreutils) runs");
    symlink(served.join("pipe"), served.join("docs/to-pipe")).unwrap();

    let mut server = Running::start_with("files", &[served.to_str().unwrap()], &[]);
    server.initialize();
    let complete = json!({"jsonrpc": "2.0", "id": 1, "method": "completion/complete", "params": {
        "ref": {"type": "ref/resource", "uri": "files:///{+path}"}, "argument": {"name": "path", "value": ""}}});
    server.send(&complete.to_string());
    assert_eq!(
        server.next()["result"]["completion"]["values"],
        json!(["docs/a.txt"])
    );
    let read = |id: u32, uri: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "resources/read", "params": {"uri": uri}})
            .to_string()
    };
    for (id, uri) in [
        (2, "files:///pipe"),
        (3, "files:///docs/to-pipe"),
        (4, "files:///out-file"),
        (5, "files:///out-dir/secret.txt"),
        (6, "files:///docs/loop/docs/a.txt/x"),
        (7, "files:///self"),
        (8, "files:///docs"),
    ] {
        server.send(&read(id, uri));
        let reply = server.next();
        assert!(reply["error"]["code"].is_i64(), "{uri}: {reply}");
        assert!(!reply.to_string().contains("do not leak"), "{uri}: {reply}");
    }
    // Inside the folder, a link that stays inside is fine.
    server.send(&read(9, "files:///docs/loop/docs/a.txt"));
    assert_eq!(server.next()["result"]["contents"][0]["text"], "a");
    let (_, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    std::fs::remove_dir_all(&base).ok();
}

/// Logs never block the protocol. With `MCP_TRACE=1` every message is logged to stderr, here a
/// pipe nobody reads: once its buffer is full, a plain write to it would wait for ever, and the
/// server with it. The runtime's stderr lines go through a bounded backlog instead (1 MiB),
/// written by a thread of its own; what does not fit is dropped and counted. Stray prints
/// (the `shout` tool's, moved off stdout) take the same way. 2,000 traced requests of 1 KiB
/// each log more than the pipe and the backlog hold, and every one is answered.
#[test]
fn a_stderr_nobody_reads_never_blocks_the_server() {
    let mut server = Running::start("printing", &[("MCP_TRACE", "1")]);
    server.initialize();
    let mut stdin = server.child.stdin.take().unwrap();
    let padding = "x".repeat(1000);
    let count = 2000;
    let writer = std::thread::spawn(move || {
        for id in 0..count {
            let request = if id % 100 == 0 {
                call(id, "shout", json!({"text": padding}))
            } else {
                json!({"jsonrpc": "2.0", "id": id, "method": "ping", "params": {"_meta": {"pad": padding}}})
                    .to_string()
            };
            if writeln!(stdin, "{request}").is_err() {
                return;
            }
        }
        // Closing stdin ends the server once it has answered.
    });
    let mut answered = 0;
    while answered < count {
        let line = server
            .lines
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("only {answered} of {count} answered: the server is stuck"));
        let reply: Value = serde_json::from_str(&line).unwrap();
        assert!(reply.get("result").is_some(), "{reply}");
        answered += 1;
    }
    writer.join().unwrap();
    let (_, stderr, success) = server.finish();
    assert!(success, "{stderr}");
    assert!(stderr.contains("bytes of log dropped"), "no drop reported");
}

/// A request of revision 2026-07-28 on stdio: `params._meta` names the revision and the
/// client's capabilities.
fn stateless(id: u32, method: &str, mut params: Value, capabilities: Value) -> String {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
    });
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

/// The client capabilities of a client that answers elicitations.
fn elicitation() -> Value {
    json!({"elicitation": {}})
}

/// The params of a call of `companion`'s `confirm_action`, which asks the client.
fn confirm_action() -> Value {
    json!({"name": "confirm_action", "arguments": {"action": "water the plants"}})
}

/// A `companion` process and its input-required result to a 2026-07-28 `confirm_action`,
/// whose `requestState` its random key sealed.
fn asked_by_a_companion() -> (Running, Value) {
    let mut sealer = Running::start("companion", &[]);
    sealer.send(&stateless(1, "tools/call", confirm_action(), elicitation()));
    let first = sealer.next();
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    assert!(first["result"]["requestState"].is_string(), "{first}");
    (sealer, first)
}

/// Two companion processes hold different random keys: a `requestState` one sealed is refused
/// by the other with -32602, and the other says on stderr why such refusals happen (instances
/// that serve one client must share their keys), which the client's error alone does not
/// tell an operator.
#[test]
fn a_state_sealed_by_another_process_is_refused_and_said_on_stderr() {
    let (elicitation, confirm) = (elicitation(), confirm_action());
    let (sealer, first) = asked_by_a_companion();
    let key = first["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let mut retry = confirm;
    retry["inputResponses"] = json!({ key: {"action": "accept", "content": {"confirmed": true}} });
    retry["requestState"] = first["result"]["requestState"].clone();
    let mut other = Running::start("companion", &[]);
    other.send(&stateless(2, "tools/call", retry, elicitation));
    let refused = other.next();
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let (_, stderr, success) = other.finish();
    assert!(success, "{stderr}");
    assert!(
        stderr.contains("refused a requestState sealed with a key this server does not hold")
            && stderr.contains("--state-keys FILE"),
        "{stderr}"
    );
    let (_, _, success) = sealer.finish();
    assert!(success);
}

/// A server none of whose handlers can ask the client (`printing`: tools alone, none taking a
/// `Context`) is built without the sealing code (`tests/linked_code.rs`) and answers every
/// `requestState` as a server with it answers a state it did not seal (basic/patterns/mrtr:
/// the server validates the state it receives): -32602 with the same words and reason, for a
/// state another process sealed and for one malformed. `--state-keys` given to it
/// is said on stderr to be unread (there is nothing to seal), and does not stop it.
#[test]
fn a_server_that_cannot_ask_refuses_request_states_as_one_that_can() {
    let (elicitation, confirm) = (elicitation(), confirm_action());
    let (sealer, first) = asked_by_a_companion();
    let sealed = first["result"]["requestState"].clone();
    let (_, _, success) = sealer.finish();
    assert!(success);
    let states = [sealed, json!("v1.not-a-state")];
    let refusals = |name: &str, args: &[&str], call: &Value| {
        let mut server = Running::start_with(name, args, &[]);
        for (id, state) in (1..).zip(&states) {
            let mut retry = call.clone();
            retry["requestState"] = state.clone();
            server.send(&stateless(id, "tools/call", retry, elicitation.clone()));
        }
        let mut replies: Vec<Value> = states.iter().map(|_| server.next()).collect();
        replies.sort_by_key(|reply| reply["id"].as_u64());
        let (_, stderr, success) = server.finish();
        assert!(success, "{stderr}");
        let errors: Vec<Value> = replies.iter().map(|reply| reply["error"].clone()).collect();
        (errors, stderr)
    };
    let (can_ask, _) = refusals("companion", &[], &confirm);
    let shout = json!({"name": "shout", "arguments": {"text": "hello"}});
    let unread = "/nonexistent/state-keys";
    let (cannot_ask, stderr) = refusals("printing", &["--state-keys", unread], &shout);
    assert_eq!(cannot_ask, can_ask);
    for (error, reason) in can_ask.iter().zip(["unknown_key", "malformed"]) {
        assert_eq!(error["code"], -32602, "{error}");
        assert_eq!(error["data"]["detail"], reason, "{error}");
    }
    assert!(
        stderr.contains(&format!(
            "`--state-keys {unread}` is not read: no handler of this server can ask the client"
        )),
        "{stderr}"
    );
}

/// One companion process serves both eras (basic/versioning "Backward Compatibility"):
/// `server/discover` and `confirm_action` through an input-required round for a 2026-07-28
/// request, and the same `confirm_action` asking with a real request in the 2025-11-25
/// session opened afterwards, its `ctx.elicit` unchanged.
#[test]
fn the_companion_serves_both_eras_from_one_process() {
    let mut server = Running::start("companion", &[]);
    let elicitation = json!({"elicitation": {}});
    server.send(&stateless(1, "server/discover", json!({}), json!({})));
    let discovered = server.next();
    assert_eq!(discovered["result"]["supportedVersions"][0], "2026-07-28");
    let confirm = json!({"name": "confirm_action", "arguments": {"action": "water the plants"}});
    server.send(&stateless(
        2,
        "tools/call",
        confirm.clone(),
        elicitation.clone(),
    ));
    let first = server.next();
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let (key, question) = first["result"]["inputRequests"]
        .as_object()
        .unwrap()
        .iter()
        .next()
        .map(|(k, v)| (k.clone(), v.clone()))
        .unwrap();
    assert_eq!(question["method"], "elicitation/create");
    let mut retry = confirm.clone();
    retry["inputResponses"] = json!({ key: {"action": "accept", "content": {"confirmed": true}} });
    retry["requestState"] = first["result"]["requestState"].clone();
    server.send(&stateless(3, "tools/call", retry, elicitation.clone()));
    let done = server.next();
    assert_eq!(
        done["result"]["content"][0]["text"], "confirmed: water the plants",
        "{done}"
    );

    server.send(r#"{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"t","version":"0"}}}"#);
    assert_eq!(server.next()["result"]["protocolVersion"], "2025-11-25");
    server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    server.send(&call(
        5,
        "confirm_action",
        json!({"action": "feed the cat"}),
    ));
    let asked = server.next();
    assert_eq!(asked["method"], "elicitation/create", "{asked}");
    let answer = json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "decline"}});
    server.send(&answer.to_string());
    let done = server.next();
    assert_eq!(done["id"], 5);
    assert_eq!(
        done["result"]["content"][0]["text"],
        "declined: the user does not want to feed the cat"
    );
    let (_, _, success) = server.finish();
    assert!(success);
}
