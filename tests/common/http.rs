//! A deliberately small HTTP/1.1 client for the transport tests: it sends exactly the bytes a
//! test writes and exposes the response as it comes, SSE events included.

#![allow(dead_code, unreachable_pub)]

use std::collections::HashMap;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A response whose body is read on demand.
pub struct Response {
    pub status: u16,
    pub headers: HashMap<String, String>,
    stream: TcpStream,
    buffer: Vec<u8>,
    chunked: bool,
    remaining: Option<usize>,
    body: Vec<u8>,
    finished: bool,
}

/// Sends one request to `/mcp` (a fresh connection each time).
pub async fn request(port: u16, method: &str, headers: &[(&str, &str)], body: &str) -> Response {
    request_at(port, method, "/mcp", headers, body).await
}

/// Sends one request to `path`.
pub async fn request_at(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Response {
    let mut stream = TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("the server listens");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\ncontent-length: {}\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("host: 127.0.0.1:{port}\r\n"));
    }
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(body.as_bytes()).await.unwrap();
    let mut buffer = Vec::new();
    let end = loop {
        if let Some(end) = find(&buffer, b"\r\n\r\n") {
            break end;
        }
        let mut chunk = [0u8; 4096];
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk))
            .await
            .expect("response headers within 10 s")
            .unwrap();
        assert!(read > 0, "the connection closed before the headers");
        buffer.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8(buffer[..end].to_vec()).unwrap();
    let rest = buffer[end + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: HashMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .get("transfer-encoding")
        .is_some_and(|v| v.contains("chunked"));
    let remaining = headers.get("content-length").and_then(|v| v.parse().ok());
    Response {
        status,
        headers,
        stream,
        buffer: rest,
        chunked,
        remaining,
        body: Vec::new(),
        finished: false,
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }

    async fn fill(&mut self) -> bool {
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => false,
            Ok(Ok(read)) => {
                self.buffer.extend_from_slice(&chunk[..read]);
                true
            }
            Err(_) => panic!("no data within 10 s"),
        }
    }

    /// Decodes whatever body is buffered; false once the body is complete.
    async fn pump(&mut self) -> bool {
        if self.finished {
            return false;
        }
        if let Some(remaining) = self.remaining.filter(|_| !self.chunked) {
            while self.buffer.len() < remaining {
                if !self.fill().await {
                    break;
                }
            }
            self.body.append(&mut self.buffer);
            self.finished = true;
            return false;
        }
        loop {
            if let Some(line_end) = find(&self.buffer, b"\r\n") {
                let size_text = String::from_utf8_lossy(&self.buffer[..line_end]).to_string();
                let size = usize::from_str_radix(size_text.trim(), 16).unwrap_or(0);
                if self.buffer.len() >= line_end + 2 + size + 2 {
                    let data: Vec<u8> = self.buffer[line_end + 2..line_end + 2 + size].to_vec();
                    self.buffer.drain(..line_end + 2 + size + 2);
                    if size == 0 {
                        self.finished = true;
                        return false;
                    }
                    self.body.extend(data);
                    return true;
                }
            }
            if !self.fill().await {
                self.finished = true;
                return false;
            }
        }
    }

    /// The whole body (for non-streaming responses).
    pub async fn text(mut self) -> String {
        while self.pump().await {}
        String::from_utf8(self.body).unwrap()
    }

    pub async fn json(self) -> Value {
        let text = self.text().await;
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"))
    }

    /// The next SSE event (id and data; keep-alive comments skipped), or `None` at the end.
    pub async fn next_event(&mut self) -> Option<(Option<String>, String)> {
        loop {
            if let Some(end) = find(&self.body, b"\n\n") {
                let raw: Vec<u8> = self.body.drain(..end + 2).collect();
                let raw = String::from_utf8(raw).unwrap();
                let mut id = None;
                let mut data = Vec::new();
                for line in raw.lines() {
                    if let Some(v) = line.strip_prefix("id:") {
                        id = Some(v.trim().to_owned());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push(v.strip_prefix(' ').unwrap_or(v).to_owned());
                    }
                }
                if id.is_none() && data.is_empty() {
                    continue; // a comment
                }
                return Some((id, data.join("\n")));
            }
            if !self.pump().await {
                return None;
            }
        }
    }
}
