//! Driving one server process: the handshake, then scenarios of `tools/call` (or
//! `tools/list`) with a fixed number of requests in flight, every reply checked.

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::procfs;
use crate::workload::{Expect, Variant, write_request};

/// The revision the client asks for: one every server here speaks.
const REVISION: &str = "2025-06-18";

/// What one scenario measured.
pub struct Measured {
    pub requests: usize,
    pub seconds: f64,
    pub latencies_ns: Vec<u64>,
    pub server_cpu_seconds: f64,
}

impl Measured {
    pub fn per_second(&self) -> f64 {
        self.requests as f64 / self.seconds
    }

    /// The `q` quantile (0..=1) of the latencies, in microseconds.
    pub fn latency_us(&mut self, q: f64) -> f64 {
        self.latencies_ns.sort_unstable();
        let n = self.latencies_ns.len();
        if n == 0 {
            return f64::NAN;
        }
        let at = ((n as f64 * q).ceil() as usize).clamp(1, n) - 1;
        self.latencies_ns[at] as f64 / 1000.0
    }

    pub fn cpu_us_per_request(&self) -> f64 {
        self.server_cpu_seconds * 1e6 / self.requests as f64
    }
}

/// A running server and the client's ends of its pipes.
pub struct Connection {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: u64,
    /// Bumped on every reply, for the watchdog.
    progress: Arc<AtomicU64>,
    out: Vec<u8>,
    line: Vec<u8>,
}

#[derive(Deserialize)]
struct Reply<'a> {
    #[serde(default)]
    id: Option<u64>,
    #[serde(borrow, default)]
    result: Option<ReplyResult<'a>>,
    #[serde(borrow, default)]
    error: Option<&'a serde_json::value::RawValue>,
}

#[derive(Deserialize)]
struct ReplyResult<'a> {
    #[serde(borrow, default)]
    content: Option<Vec<ContentItem<'a>>>,
    #[serde(default, rename = "isError")]
    is_error: bool,
    #[serde(default)]
    tools: Option<Vec<IgnoredAny>>,
}

#[derive(Deserialize)]
struct ContentItem<'a> {
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
}

impl Connection {
    /// Starts `command` with piped stdin/stdout (stderr discarded); with `watch`, a watchdog
    /// kills it if it stops answering.
    pub fn spawn(command: &[String], watch: bool) -> Result<Connection, String> {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", command[0]))?;
        let input = child.stdin.take().expect("piped stdin");
        let output =
            BufReader::with_capacity(64 * 1024, child.stdout.take().expect("piped stdout"));
        let progress = Arc::new(AtomicU64::new(0));
        if watch {
            watchdog(child.id(), Arc::clone(&progress));
        }
        Ok(Connection {
            child,
            input,
            output,
            next_id: 1,
            progress,
            out: Vec::with_capacity(64 * 1024),
            line: Vec::with_capacity(64 * 1024),
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `initialize`, then `notifications/initialized`.
    pub fn handshake(&mut self) -> Result<(), String> {
        let id = self.take_id();
        let message = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{REVISION}","capabilities":{{}},"clientInfo":{{"name":"loadgen","version":"0"}}}}}}"#
        );
        self.send_line(message.as_bytes())?;
        let line = self.read_line()?;
        let reply: serde_json::Value = serde_json::from_slice(&line)
            .map_err(|e| format!("initialize reply is not JSON ({e})"))?;
        if reply["id"] != id || reply["result"]["protocolVersion"].is_null() {
            return Err(format!("unexpected initialize reply: {reply}"));
        }
        self.send_line(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
    }

    fn take_id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    fn send_line(&mut self, line: &[u8]) -> Result<(), String> {
        self.input
            .write_all(line)
            .and_then(|()| self.input.write_all(b"\n"))
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("writing to the server: {e}"))
    }

    fn read_line(&mut self) -> Result<Vec<u8>, String> {
        let mut line = Vec::new();
        match self.output.read_until(b'\n', &mut line) {
            Ok(0) => Err("the server closed its stdout".to_owned()),
            Ok(_) => Ok(line),
            Err(e) => Err(format!("reading from the server: {e}")),
        }
    }

    /// Sends `count` requests cycling through `variants`, keeping `inflight` of them
    /// outstanding, and checks every reply.
    pub fn run(
        &mut self,
        variants: &[Variant],
        count: usize,
        inflight: usize,
    ) -> Result<Measured, String> {
        let base = self.next_id;
        self.next_id += count as u64;
        let mut sent_at: Vec<Option<Instant>> = vec![None; count];
        let mut latencies = Vec::with_capacity(count);
        let cpu_before = procfs::cpu_seconds(self.pid());
        let start = Instant::now();
        let mut sent = 0;
        self.out.clear();
        while sent < count.min(inflight) {
            write_request(
                &mut self.out,
                base + sent as u64,
                &variants[sent % variants.len()],
            );
            sent_at[sent] = Some(Instant::now());
            sent += 1;
        }
        self.flush_requests()?;
        let mut done = 0;
        while done < count {
            self.line.clear();
            match self.output.read_until(b'\n', &mut self.line) {
                Ok(0) => return Err(format!("the server closed its stdout after {done} replies")),
                Ok(_) => {}
                Err(e) => return Err(format!("reading from the server: {e}")),
            }
            let now = Instant::now();
            let Some(seq) = check_reply(&self.line, base, count, variants)? else {
                continue; // a notification
            };
            let Some(at) = sent_at[seq].take() else {
                return Err(format!("a second reply to id {}", base + seq as u64));
            };
            latencies.push(now.duration_since(at).as_nanos() as u64);
            done += 1;
            self.progress.fetch_add(1, Ordering::Relaxed);
            if sent < count {
                write_request(
                    &mut self.out,
                    base + sent as u64,
                    &variants[sent % variants.len()],
                );
                sent_at[sent] = Some(Instant::now());
                sent += 1;
            }
            if self.output.buffer().is_empty() {
                self.flush_requests()?;
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        let cpu_after = procfs::cpu_seconds(self.pid());
        Ok(Measured {
            requests: count,
            seconds,
            latencies_ns: latencies,
            server_cpu_seconds: cpu_after - cpu_before,
        })
    }

    fn flush_requests(&mut self) -> Result<(), String> {
        if self.out.is_empty() {
            return Ok(());
        }
        let result = self
            .input
            .write_all(&self.out)
            .and_then(|()| self.input.flush());
        self.out.clear();
        result.map_err(|e| format!("writing to the server: {e}"))
    }

    /// The server's peak RSS so far, in KiB.
    pub fn peak_rss_kib(&self) -> f64 {
        procfs::peak_rss_kib(self.pid())
    }

    /// The server's resident set size now, in KiB.
    pub fn rss_kib(&self) -> f64 {
        procfs::rss_kib(self.pid())
    }

    /// Closes stdin and waits (at most 10 s) for the server to exit.
    pub fn close(mut self) -> Result<(), String> {
        drop(self.input);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return Ok(()),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Err("the server did not exit within 10 s of stdin closing".to_owned());
                }
            }
        }
    }
}

/// The sequence number of the request a reply answers, after checking its content; `None`
/// for a message that is not a reply (a notification).
fn check_reply(
    line: &[u8],
    base: u64,
    count: usize,
    variants: &[Variant],
) -> Result<Option<usize>, String> {
    let text = || String::from_utf8_lossy(line).into_owned();
    let reply: Reply<'_> =
        serde_json::from_slice(line).map_err(|e| format!("bad reply ({e}): {}", text()))?;
    let Some(id) = reply.id else {
        return if reply.error.is_some() || reply.result.is_some() {
            Err(format!("a reply without an id: {}", text()))
        } else {
            Ok(None)
        };
    };
    let seq = id
        .checked_sub(base)
        .map(|s| s as usize)
        .filter(|s| *s < count)
        .ok_or_else(|| format!("a reply to an id never sent: {}", text()))?;
    if let Some(error) = reply.error {
        return Err(format!("error reply to id {id}: {}", error.get()));
    }
    let result = reply
        .result
        .ok_or_else(|| format!("no result: {}", text()))?;
    match &variants[seq % variants.len()].expect {
        Expect::Text(expected) => {
            let got = result
                .content
                .as_ref()
                .and_then(|c| c.first())
                .and_then(|c| c.text.as_deref());
            if result.is_error || got != Some(expected.as_str()) {
                return Err(format!(
                    "wrong reply to id {id}: expected {expected:?}, got {}",
                    text()
                ));
            }
        }
        Expect::Tools(n) => {
            if result.tools.as_ref().map(Vec::len) != Some(*n) {
                return Err(format!("expected {n} tools, got {}", text()));
            }
        }
    }
    Ok(Some(seq))
}

/// Kills the server and ends the load generator if no reply arrives for 60 s: a hung server
/// must not hang the whole run.
fn watchdog(pid: u32, progress: Arc<AtomicU64>) {
    std::thread::spawn(move || {
        let mut last = u64::MAX;
        loop {
            std::thread::sleep(Duration::from_secs(60));
            if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
                return;
            }
            let now = progress.load(Ordering::Relaxed);
            if now == last {
                eprintln!("loadgen: no reply from server {pid} for 60 s; killing it");
                let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
                std::process::exit(3);
            }
            last = now;
        }
    });
}

/// Spawn to `initialize` reply, in microseconds: starts `command`, sends `initialize`, reads
/// the reply, closes stdin and waits for the exit.
pub fn startup_us(command: &[String]) -> Result<f64, String> {
    let start = Instant::now();
    let mut connection = Connection::spawn(command, false)?;
    let message = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{REVISION}","capabilities":{{}},"clientInfo":{{"name":"loadgen","version":"0"}}}}}}"#
    );
    connection.send_line(message.as_bytes())?;
    let line = connection.read_line()?;
    let elapsed = start.elapsed().as_secs_f64() * 1e6;
    if !line.windows(17).any(|w| w == b"\"protocolVersion\"") {
        return Err(format!(
            "unexpected initialize reply: {}",
            String::from_utf8_lossy(&line)
        ));
    }
    connection.close()?;
    Ok(elapsed)
}
