//! The Streamable HTTP endpoint fed arbitrary requests: a method, headers and a body taken from
//! the input (up to three requests a router, so a session's later requests are reached too),
//! through the router a deployment mounts. Nothing may panic, every request gets an answer
//! within 5 s (a stream's body is not read to its end), and a JSON answer is valid JSON.
#![no_main]

use std::time::Duration;

use axum::body::Body;
use axum::http::{Method, Request};
use http_body_util::BodyExt;
use libfuzzer_sys::fuzz_target;
use mcp_runtime::HttpOptions;
use tower::ServiceExt;

const METHODS: [Method; 5] = [
    Method::POST,
    Method::POST,
    Method::GET,
    Method::DELETE,
    Method::PUT,
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let stateless = data.first().is_some_and(|b| b & 1 == 1);
    mcp_fuzz::RUNTIME.block_on(async {
        let router = mcp_fuzz::SERVER.http_router(HttpOptions::new().stateless(stateless));
        // Requests are separated by a line `~~~`; in each, the first line picks the method,
        // the lines up to an empty one are headers, the rest is the body.
        for part in text.split("\n~~~\n").take(3) {
            let (head, body) = part.split_once("\n\n").unwrap_or((part, ""));
            let mut lines = head.lines();
            let method = METHODS[lines.next().map_or(0, str::len) % METHODS.len()].clone();
            let mut request = Request::builder().method(method).uri("/");
            let mut has_host = false;
            for line in lines.take(16) {
                if let Some((name, value)) = line.split_once(':') {
                    has_host |= name.trim().eq_ignore_ascii_case("host");
                    request = request.header(name.trim(), value.trim());
                }
            }
            if !has_host {
                request = request.header("host", "localhost");
            }
            let Ok(request) = request.body(Body::from(body.to_owned())) else {
                continue; // a header the http crate refuses never reaches a server
            };
            let response = tokio::time::timeout(
                Duration::from_secs(5),
                router.clone().oneshot(request),
            )
            .await
            .expect("every request is answered within 5 s")
            .expect("the router's service never fails");
            let json = response
                .headers()
                .get("content-type")
                .is_some_and(|kind| kind.as_bytes().starts_with(b"application/json"));
            if json {
                let bytes = tokio::time::timeout(
                    Duration::from_secs(5),
                    response.into_body().collect(),
                )
                .await
                .expect("a JSON answer's body ends within 5 s")
                .expect("a body that can be read")
                .to_bytes();
                if !bytes.is_empty() {
                    serde_json::from_slice::<serde_json::Value>(&bytes)
                        .expect("a JSON answer is JSON");
                }
            }
        }
    });
});
