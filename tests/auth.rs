//! The OAuth 2.1 resource server end to end, against a real authorization server: the
//! certified `oidc-provider` (npm), started by `tests/interop/oauth/server.mjs` on a free port
//! (`common/auth_server.rs` runs it) and configured for the client credentials grant with
//! resource indicators (RFC 8707). Tokens are got from it over HTTP, as a deployment would, and
//! sent to a protected server (`HttpOptions::resource_server`) over HTTP. Hostile tokens are
//! forged with the authorization server's own key (which the script hands over) or with a key
//! it does not publish. The official TypeScript SDK client (`tests/interop/typescript/oauth.mjs`)
//! goes through the whole flow by itself: 401, metadata, authorization server, token, call.
//!
//! The authorization server is installed by `scripts/install-test-tools` (Node.js 22 in
//! `.tools/node22`, `oidc-provider` in `tests/interop/oauth/node_modules`, the TypeScript SDK in
//! `tests/interop/typescript/node_modules`). Without them these
//! tests are skipped, saying so, unless the environment variable `CI` is set: then they fail.

#[path = "common/auth_server.rs"]
mod auth_server;
#[path = "common/http.rs"]
mod http;
#[path = "common/ports.rs"]
mod ports;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use auth_server::{AuthServer, INSTALL_HINT, installed, manifest_dir, skipping};
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http::{Response, request_at};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use mcp_runtime::HttpOptions;
use mcp_runtime::auth::{IntrospectionVerifier, JwtVerifier, ResourceServer, TokenVerifier};
use mcp_runtime::prelude::*;
use ports::free_port;
use serde_json::{Value, json};

/// Says who is calling.
#[mcp_tool(read_only)]
fn whoami(caller: Caller) -> String {
    caller.subject().to_owned()
}

/// Writes a note.
#[mcp_tool(scopes = ["notes:write"])]
fn write_note(caller: Caller, text: String) -> String {
    format!("{} wrote {text}", caller.subject())
}

/// A note, by number.
#[mcp_resource(uri = "notes://{number}", scopes = ["notes:write"])]
fn note(caller: Caller, number: u32) -> String {
    format!("note {number}, read by {}", caller.subject())
}

/// A note to fill in.
#[mcp_prompt(scopes = ["notes:write"])]
fn draft(caller: Caller) -> String {
    format!("Draft a note for {}.", caller.subject())
}

#[derive(Deserialize, JsonSchema)]
struct Confirmation {
    sure: bool,
}

/// Asks the caller to confirm, then says who answered what.
#[mcp_tool]
async fn confirm(ctx: Context, caller: Caller) -> Result<String, String> {
    let answer = ctx
        .question("sure")
        .elicit::<Confirmation>("Sure?")
        .await
        .map_err(|e| e.to_string())?;
    Ok(match answer {
        mcp_runtime::Elicitation::Accept(Confirmation { sure }) => {
            format!("{} says {sure}", caller.subject())
        }
        _ => format!("{} did not say", caller.subject()),
    })
}

/// A protected server trusting `issuer`, serving in the background: its port and resource
/// URI. Stateless, so each POST stands on its own.
async fn protected(issuer: &str, refetch_interval: Duration) -> (u16, String) {
    protected_with(issuer, refetch_interval, true).await
}

async fn protected_with(
    issuer: &str,
    refetch_interval: Duration,
    stateless: bool,
) -> (u16, String) {
    let verifier =
        |resource: &str| JwtVerifier::new(issuer, resource).refetch_interval(refetch_interval);
    protected_by(issuer, verifier, HttpOptions::new().stateless(stateless)).await
}

/// A protected server trusting `issuer`, whose tokens the verifier `verifier` makes for the
/// resource URI checks.
async fn protected_by<V: TokenVerifier>(
    issuer: &str,
    verifier: impl FnOnce(&str) -> V,
    options: HttpOptions,
) -> (u16, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let resource = format!("http://127.0.0.1:{port}/mcp");
    let verifier = verifier(&resource);
    let protection = ResourceServer::new(&resource, issuer, verifier)
        .unwrap()
        .scopes_supported(["notes:write"]);
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<whoami>()
        .tool::<write_note>()
        .tool::<confirm>()
        .resource::<note>()
        .prompt::<draft>()
        .build()
        .unwrap();
    let options = options.resource_server(protection);
    tokio::spawn(async move { server.serve_http(listener, options).await });
    (port, resource)
}

/// `tools/call` of `tool` with `headers` (an `Authorization` among them, or not), at `path`.
async fn call_at(port: u16, path: &str, token: Option<&str>, tool: &str) -> Response {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": {"text": "hello"}},
    })
    .to_string();
    let authorization = token.map(|token| format!("Bearer {token}"));
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    if let Some(authorization) = &authorization {
        headers.push(("authorization", authorization));
    }
    request_at(port, "POST", path, &headers, &body).await
}

async fn call(port: u16, token: Option<&str>, tool: &str) -> Response {
    call_at(port, "/mcp", token, tool).await
}

/// The text a successful call answered.
async fn answered(response: Response) -> String {
    assert_eq!(response.status, 200);
    let reply = response.json().await;
    assert_ne!(reply["result"]["isError"], true, "{reply}");
    reply["result"]["content"][0]["text"]
        .as_str()
        .expect("a text result")
        .to_owned()
}

fn metadata_url(port: u16) -> String {
    format!("http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp")
}

/// Asserts `response` refuses the token as invalid: 401, with the challenge naming the
/// metadata and `error="invalid_token"`; returns the challenge.
fn assert_invalid_token(response: &Response, port: u16, case: &str) -> String {
    assert_eq!(response.status, 401, "{case}");
    let challenge = response
        .header("www-authenticate")
        .unwrap_or_else(|| panic!("{case}: no challenge"))
        .to_owned();
    assert!(
        challenge.starts_with(&format!(
            r#"Bearer resource_metadata="{}""#,
            metadata_url(port)
        )),
        "{case}: {challenge}"
    );
    assert!(
        challenge.contains(r#"error="invalid_token""#),
        "{case}: {challenge}"
    );
    challenge
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// A token signed with `pem` (ES256) naming key `kid`.
fn forge(claims: &Value, kid: &str, pem: &str) -> String {
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(kid.to_owned());
    header.typ = Some("at+jwt".to_owned());
    let key = EncodingKey::from_ec_pem(pem.as_bytes()).expect("a PKCS#8 EC key");
    jsonwebtoken::encode(&header, claims, &key).expect("the token is signed")
}

/// Claims that would pass, for a token of `issuer` for `resource`.
fn good_claims(issuer: &str, resource: &str) -> Value {
    json!({
        "iss": issuer, "aud": resource, "sub": "forger", "client_id": "forger",
        "iat": now(), "exp": now() + 300, "scope": "notes:write",
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn the_metadata_is_served_and_a_request_without_a_token_is_challenged() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let issuer = auth.keys.issuer.clone();
    let (port, resource) = protected(&issuer, Duration::from_secs(30)).await;

    let response = request_at(
        port,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        "",
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.header("access-control-allow-origin"), Some("*"));
    let metadata = response.json().await;
    assert_eq!(
        metadata,
        json!({
            "resource": resource,
            "authorization_servers": [issuer],
            "scopes_supported": ["notes:write"],
            "bearer_methods_supported": ["header"],
        })
    );

    let response = request_at(
        port,
        "POST",
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        "{}",
    )
    .await;
    assert_eq!(response.status, 405);
    assert_eq!(response.header("allow"), Some("GET, HEAD"));
    // The root form too, for clients that look there.
    let response = request_at(
        port,
        "GET",
        "/.well-known/oauth-protected-resource",
        &[],
        "",
    )
    .await;
    assert_eq!(response.status, 200);
    assert_eq!(response.json().await, metadata);

    let response = call(port, None, "whoami").await;
    assert_eq!(response.status, 401);
    assert_eq!(
        response.header("www-authenticate"),
        Some(format!(r#"Bearer resource_metadata="{}""#, metadata_url(port)).as_str()),
        "no token: no error code (RFC 6750, section 3.1)"
    );
    let response = call(port, Some("not-a-jwt"), "whoami").await;
    assert_invalid_token(&response, port, "not a JWT");
    // GET and DELETE need a token as POST does.
    for method in ["GET", "DELETE"] {
        let headers = [("accept", "text/event-stream"), ("mcp-session-id", "0123")];
        let response = request_at(port, method, "/mcp", &headers, "").await;
        assert_eq!(response.status, 401, "{method}");
        assert!(
            response
                .header("www-authenticate")
                .is_some_and(|challenge| challenge.starts_with("Bearer resource_metadata=")),
            "{method}"
        );
    }

    // A valid token in the query string is refused, with or without a header beside it.
    let token = auth.token("writer", &resource, Some("notes:write")).await;
    for header in [None, Some(token.as_str())] {
        let path = format!("/mcp?access_token={token}");
        let response = call_at(port, &path, header, "whoami").await;
        assert_eq!(response.status, 400);
        let challenge = response.header("www-authenticate").unwrap();
        assert!(
            challenge.contains(r#"error="invalid_request""#),
            "{challenge}"
        );
        assert!(challenge.contains("resource_metadata="), "{challenge}");
    }
    // Other schemes are no token; two headers are malformed.
    let response = request_at(
        port,
        "POST",
        "/mcp",
        &[
            ("content-type", "application/json"),
            ("accept", "application/json"),
            ("authorization", "Basic d3JpdGVyOndyaXRlci1zZWNyZXQ="),
        ],
        "{}",
    )
    .await;
    assert_eq!(response.status, 401);
    let bearer = format!("Bearer {token}");
    let response = request_at(
        port,
        "POST",
        "/mcp",
        &[
            ("content-type", "application/json"),
            ("accept", "application/json"),
            ("authorization", &bearer),
            ("authorization", &bearer),
        ],
        "{}",
    )
    .await;
    assert_eq!(response.status, 400);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_from_the_authorization_server_names_the_caller_and_its_scopes_decide() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let (port, resource) = protected(&auth.keys.issuer, Duration::from_secs(30)).await;

    let writer = auth.token("writer", &resource, Some("notes:write")).await;
    assert_eq!(
        answered(call(port, Some(&writer), "whoami").await).await,
        "writer"
    );
    assert_eq!(
        answered(call(port, Some(&writer), "write_note").await).await,
        "writer wrote hello"
    );

    let read = json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "notes://7"}});
    let get =
        json!({"jsonrpc": "2.0", "id": 3, "method": "prompts/get", "params": {"name": "draft"}});
    // Completion runs the prompt's or the template's own code (its completer): the same scopes.
    let complete = |reference: Value| {
        json!({"jsonrpc": "2.0", "id": 4, "method": "completion/complete", "params": {
            "ref": reference, "argument": {"name": "number", "value": "1"}}})
    };
    let subscribe = json!({"jsonrpc": "2.0", "id": 5, "method": "resources/subscribe", "params": {"uri": "notes://7"}});
    let listen = json!({"jsonrpc": "2.0", "id": 6, "method": "subscriptions/listen", "params": {
    "notifications": {"resourceSubscriptions": ["notes://7"]},
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "auth-test", "version": "0"},
    }}});
    let complete_prompt = complete(json!({"type": "ref/prompt", "name": "draft"}));
    let complete_template = complete(json!({"type": "ref/resource", "uri": "notes://{number}"}));
    let reply = post(port, &writer, None, &read).await.json().await;
    assert_eq!(
        reply["result"]["contents"][0]["text"], "note 7, read by writer",
        "{reply}"
    );
    let reply = post(port, &writer, None, &get).await.json().await;
    let text = &reply["result"]["messages"][0]["content"]["text"];
    assert_eq!(text, "Draft a note for writer.", "{reply}");

    // Without the scope: any tool that needs none, and 403 naming the scope for the other.
    for token in [
        auth.token("writer", &resource, None).await,
        auth.token("reader", &resource, None).await,
    ] {
        assert_ne!(answered(call(port, Some(&token), "whoami").await).await, "");
        let response = call(port, Some(&token), "write_note").await;
        assert_eq!(response.status, 403);
        let challenge = response.header("www-authenticate").unwrap().to_owned();
        assert!(
            challenge.starts_with(
                r#"Bearer error="insufficient_scope", scope="notes:write", resource_metadata=""#
            ),
            "{challenge}"
        );
        let reply = response.json().await;
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("tool `write_note` needs the scope `notes:write`"),
            "{message}"
        );
        // A listen request (2026-07-28) for the resource's changes.
        let authorization = format!("Bearer {token}");
        let headers = [
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("authorization", authorization.as_str()),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "subscriptions/listen"),
        ];
        let response = request_at(port, "POST", "/mcp", &headers, &listen.to_string()).await;
        assert_eq!(response.status, 403);
        let challenge = response.header("www-authenticate").unwrap().to_owned();
        assert!(challenge.contains(r#"scope="notes:write""#), "{challenge}");
        // A resource (by its template) and a prompt that need the scope, alike; and hearing
        // of the resource's changes.
        for (request, handler) in [
            (&read, "resource `notes://{number}`"),
            (&subscribe, "resource `notes://{number}`"),
            (&get, "prompt `draft`"),
            (&complete_template, "resource `notes://{number}`"),
            (&complete_prompt, "prompt `draft`"),
        ] {
            let response = post(port, &token, None, request).await;
            assert_eq!(response.status, 403, "{handler}");
            let challenge = response.header("www-authenticate").unwrap().to_owned();
            assert!(
                challenge.contains(r#"error="insufficient_scope", scope="notes:write""#),
                "{challenge}"
            );
            let reply = response.json().await;
            let message = reply["error"]["message"].as_str().unwrap();
            assert!(
                message.contains(&format!("{handler} needs the scope")),
                "{message}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn tokens_not_for_this_server_or_not_signed_by_its_issuer_are_refused() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let keys = auth.keys.clone();
    let (port, resource) = protected(&keys.issuer, Duration::from_secs(30)).await;
    // The key set is fetched once, by a valid token.
    let token = auth.token("writer", &resource, Some("notes:write")).await;
    assert_eq!(
        answered(call(port, Some(&token), "whoami").await).await,
        "writer"
    );
    let good = good_claims(&keys.issuer, &resource);
    assert_eq!(
        answered(
            call(
                port,
                Some(&forge(&good, &keys.kid, &keys.private_pem)),
                "whoami"
            )
            .await
        )
        .await,
        "forger",
        "the forging works: each case below differs from this token by one thing"
    );

    let with = |field: &str, value: Value| {
        let mut claims = good.clone();
        claims[field] = value;
        forge(&claims, &keys.kid, &keys.private_pem)
    };
    let another_resource = auth
        .token("writer", "http://127.0.0.1:1/other", Some("notes:write"))
        .await;
    let tampered = {
        let parts: Vec<&str> = token.split('.').collect();
        let mut claims: Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        claims["sub"] = json!("admin");
        let payload = URL_SAFE_NO_PAD.encode(claims.to_string());
        format!("{}.{payload}.{}", parts[0], parts[2])
    };
    let unsigned = {
        let header = URL_SAFE_NO_PAD
            .encode(json!({"alg": "none", "typ": "at+jwt", "kid": keys.kid}).to_string());
        let payload = URL_SAFE_NO_PAD.encode(good.to_string());
        format!("{header}.{payload}.")
    };
    let hmac_with_public_key = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(keys.kid.clone());
        let key = EncodingKey::from_secret(keys.public_pem.as_bytes()).unwrap();
        jsonwebtoken::encode(&header, &good, &key).unwrap()
    };
    let pointing_elsewhere = {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some("attacker".to_owned());
        header.jku = Some("http://127.0.0.1:1/attacker-keys".to_owned());
        let key = EncodingKey::from_ec_pem(keys.outsider_pem.as_bytes()).unwrap();
        jsonwebtoken::encode(&header, &good, &key).unwrap()
    };
    let cases = [
        ("expired", with("exp", json!(now() - 3600)), "has expired"),
        (
            "not yet valid",
            with("nbf", json!(now() + 3600)),
            "not valid yet",
        ),
        (
            "another issuer",
            with("iss", json!("http://127.0.0.1:1")),
            "another issuer",
        ),
        (
            "another audience (forged)",
            with("aud", json!("http://127.0.0.1:1/mcp")),
            "another resource",
        ),
        (
            "another audience (issued)",
            another_resource,
            "another resource",
        ),
        (
            "no subject",
            {
                let mut claims = good.clone();
                claims.as_object_mut().unwrap().remove("sub");
                forge(&claims, &keys.kid, &keys.private_pem)
            },
            "no `sub`",
        ),
        ("alg none", unsigned, "no algorithm this server accepts"),
        (
            "HS256 signed with the public key",
            hmac_with_public_key,
            "which its key does not allow",
        ),
        (
            "a key the issuer does not publish",
            forge(&good, "made-up-kid", &keys.outsider_pem),
            "does not publish",
        ),
        (
            "the issuer's key id, another key",
            forge(&good, &keys.kid, &keys.outsider_pem),
            "signature does not verify",
        ),
        ("tampered payload", tampered, "signature does not verify"),
        (
            "a key the header points to (jku)",
            pointing_elsewhere,
            "does not publish",
        ),
        (
            "a key id of 300 characters",
            forge(&good, &"k".repeat(300), &keys.outsider_pem),
            "`kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk...`",
        ),
    ];
    for (case, token, why) in cases {
        let response = call(port, Some(&token), "whoami").await;
        let challenge = assert_invalid_token(&response, port, case);
        assert!(challenge.contains(why), "{case}: {challenge}");
    }

    // Where access tokens must be typed `at+jwt` (RFC 9068), another JWT of the issuer is not
    // one, however valid.
    let typed =
        |resource: &str| JwtVerifier::new(&keys.issuer, resource).require_access_token_type(true);
    let (port, resource) =
        protected_by(&keys.issuer, typed, HttpOptions::new().stateless(true)).await;
    let token = auth.token("writer", &resource, None).await;
    assert_eq!(
        answered(call(port, Some(&token), "whoami").await).await,
        "writer"
    );
    let id_token_like = {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(keys.kid.clone());
        header.typ = Some("JWT".to_owned());
        let key = EncodingKey::from_ec_pem(keys.private_pem.as_bytes()).unwrap();
        jsonwebtoken::encode(&header, &good_claims(&keys.issuer, &resource), &key).unwrap()
    };
    let response = call(port, Some(&id_token_like), "whoami").await;
    let challenge = assert_invalid_token(&response, port, "typ JWT");
    assert!(challenge.contains("not `at+jwt`"), "{challenge}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_remembered_token_still_expires() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let keys = auth.keys.clone();
    let strict = |resource: &str| JwtVerifier::new(&keys.issuer, resource).leeway(Duration::ZERO);
    let (port, resource) =
        protected_by(&keys.issuer, strict, HttpOptions::new().stateless(true)).await;
    let mut claims = good_claims(&keys.issuer, &resource);
    claims["exp"] = json!(now() + 2);
    let token = forge(&claims, &keys.kid, &keys.private_pem);
    for _ in 0..2 {
        assert_eq!(
            answered(call(port, Some(&token), "whoami").await).await,
            "forger"
        );
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let response = call(port, Some(&token), "whoami").await;
    let challenge = assert_invalid_token(&response, port, "expired since it was remembered");
    assert!(challenge.contains("has expired"), "{challenge}");
}

/// `Duration::MAX` as the leeway means "no end", taken as a year (RELIABILITY.md): a token
/// expired an hour ago is accepted, where adding the leeway to the clock overflowed.
#[tokio::test(flavor = "multi_thread")]
async fn the_longest_leeway_is_a_year() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let keys = auth.keys.clone();
    let lenient = |resource: &str| JwtVerifier::new(&keys.issuer, resource).leeway(Duration::MAX);
    let (port, resource) =
        protected_by(&keys.issuer, lenient, HttpOptions::new().stateless(true)).await;
    let mut claims = good_claims(&keys.issuer, &resource);
    claims["exp"] = json!(now() - 3600);
    let token = forge(&claims, &keys.kid, &keys.private_pem);
    assert_eq!(
        answered(call(port, Some(&token), "whoami").await).await,
        "forger"
    );
    claims["exp"] = json!(now() - 2 * 365 * 24 * 3600);
    let token = forge(&claims, &keys.kid, &keys.private_pem);
    let response = call(port, Some(&token), "whoami").await;
    let challenge = assert_invalid_token(&response, port, "expired two years ago");
    assert!(challenge.contains("has expired"), "{challenge}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_rotated_key_is_trusted_once_the_key_set_shows_it_and_refetches_are_bounded() {
    let Some(mut auth) = AuthServer::start() else {
        return;
    };
    let refetch_interval = Duration::from_secs(2);
    let (port, resource) = protected(&auth.keys.issuer, refetch_interval).await;
    let old = auth.token("writer", &resource, None).await;
    // Three times: the first check fetches the keys, the second is remembered with them, the
    // third is answered from memory, which the rotation must undo.
    for _ in 0..3 {
        let response = call(port, Some(&old), "whoami").await;
        assert_eq!(answered(response).await, "writer");
    }

    auth.rotate();
    let new = auth.token("writer", &resource, None).await;
    // Within the refetch interval of the last fetch, an unknown key is refused without asking
    // the issuer again: forged key ids cannot make the server hammer it.
    let response = call(port, Some(&new), "whoami").await;
    let challenge = assert_invalid_token(&response, port, "new key, right after a fetch");
    assert!(challenge.contains("does not publish"), "{challenge}");

    tokio::time::sleep(refetch_interval + Duration::from_millis(200)).await;
    assert_eq!(
        answered(call(port, Some(&new), "whoami").await).await,
        "writer"
    );
    // The key set fetched has the new key only: the withdrawn one is no longer trusted.
    let response = call(port, Some(&old), "whoami").await;
    assert_invalid_token(&response, port, "withdrawn key");
}

#[tokio::test(flavor = "multi_thread")]
async fn opaque_tokens_are_checked_by_asking_the_issuer() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let issuer = auth.keys.issuer.clone();
    let introspection = |resource: &str| {
        IntrospectionVerifier::new(&issuer, resource, "mcp-server", "mcp-server-secret")
    };
    let (port, resource) =
        protected_by(&issuer, introspection, HttpOptions::new().stateless(true)).await;

    let token = auth.token("opaque", &resource, Some("notes:write")).await;
    assert_eq!(
        token.split('.').count(),
        1,
        "an opaque token, not a JWT: {token}"
    );
    assert_eq!(
        answered(call(port, Some(&token), "whoami").await).await,
        "opaque"
    );
    assert_eq!(
        answered(call(port, Some(&token), "write_note").await).await,
        "opaque wrote hello"
    );
    let without_scope = auth.token("opaque", &resource, None).await;
    let response = call(port, Some(&without_scope), "write_note").await;
    assert_eq!(response.status, 403);

    let elsewhere = auth
        .token("opaque", "http://127.0.0.1:1/other", Some("notes:write"))
        .await;
    let cases = [
        ("another resource", elsewhere, "another resource"),
        (
            "unknown to the issuer",
            "made-up-token".to_owned(),
            "not active",
        ),
        (
            "a JWT of the right issuer",
            {
                let mut claims = good_claims(&issuer, &resource);
                claims["jti"] = json!("forged");
                forge(&claims, &auth.keys.kid, &auth.keys.outsider_pem)
            },
            "does not know the token",
        ),
    ];
    for (case, token, why) in cases {
        let response = call(port, Some(&token), "whoami").await;
        let challenge = assert_invalid_token(&response, port, case);
        assert!(challenge.contains(why), "{case}: {challenge}");
    }

    // The server's own credentials refused: the token could not be checked (503, retry),
    // which a new token would not mend (401 would ask for one).
    let wrong_secret =
        |resource: &str| IntrospectionVerifier::new(&issuer, resource, "mcp-server", "wrong");
    let (port, resource) =
        protected_by(&issuer, wrong_secret, HttpOptions::new().stateless(true)).await;
    let token = auth.token("opaque", &resource, None).await;
    let response = call(port, Some(&token), "whoami").await;
    assert_eq!(response.status, 503);
    assert_eq!(response.header("retry-after"), Some("5"));
}

#[tokio::test(flavor = "multi_thread")]
async fn the_typescript_sdk_client_discovers_the_authorization_server_and_calls_with_its_token() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let sdk =
        manifest_dir().join("tests/interop/typescript/node_modules/@modelcontextprotocol/sdk");
    if !sdk.is_dir() {
        assert!(
            std::env::var_os("CI").is_none(),
            "the TypeScript SDK is not installed at {}, and CI is set: {INSTALL_HINT}",
            sdk.display()
        );
        skipping(&format!(
            "the TypeScript SDK is not installed at {}",
            sdk.display()
        ));
        return;
    }
    let (_, resource) = protected_with(&auth.keys.issuer, Duration::from_secs(30), false).await;
    let (node, _) = installed().expect("installed, as the authorization server runs");
    let script = manifest_dir().join("tests/interop/typescript/oauth.mjs");
    // The script gives up by itself after 30 s.
    let client = move || {
        Command::new(node)
            .arg(script)
            .args([resource.as_str(), "writer", "writer-secret", "notes:write"])
            .output()
    };
    let output = tokio::task::spawn_blocking(client)
        .await
        .unwrap()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "whoami: writer",
            "write_note: writer wrote from the TypeScript SDK"
        ],
        "{stderr}"
    );
}

/// POSTs `body` with `bearer` and, if given, a session id.
async fn post(port: u16, bearer: &str, session: Option<&str>, body: &Value) -> Response {
    let authorization = format!("Bearer {bearer}");
    let mut headers = vec![
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("authorization", authorization.as_str()),
    ];
    if let Some(session) = session {
        headers.push(("mcp-session-id", session));
    }
    request_at(port, "POST", "/mcp", &headers, &body.to_string()).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_session_serves_only_the_caller_that_opened_it() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let (port, resource) = protected_with(&auth.keys.issuer, Duration::from_secs(30), false).await;
    let writer = auth.token("writer", &resource, None).await;
    let reader = auth.token("reader", &resource, None).await;
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}},
    });
    let response = post(port, &writer, None, &initialize).await;
    assert_eq!(response.status, 200);
    let session = response.header("mcp-session-id").unwrap().to_owned();
    let whoami = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "whoami", "arguments": {}},
    });

    // Another caller with the session's id: as if the session did not exist, whatever the
    // method.
    let response = post(port, &reader, Some(&session), &whoami).await;
    assert_eq!(response.status, 404);
    for method in ["GET", "DELETE"] {
        let authorization = format!("Bearer {reader}");
        let headers = [
            ("accept", "text/event-stream"),
            ("authorization", authorization.as_str()),
            ("mcp-session-id", session.as_str()),
        ];
        let response = request_at(port, method, "/mcp", &headers, "").await;
        assert_eq!(response.status, 404, "{method}");
    }
    // The owner's session is unharmed, with a fresh token of the same subject too.
    assert_eq!(
        answered(post(port, &writer, Some(&session), &whoami).await).await,
        "writer"
    );
    let again = auth.token("writer", &resource, None).await;
    assert_eq!(
        answered(post(port, &again, Some(&session), &whoami).await).await,
        "writer"
    );
}

/// One caller holds at most `max_sessions_per_caller` sessions (RELIABILITY.md, "HTTP"):
/// past it that caller's `initialize` gets 429 naming the setting, while another caller still
/// opens sessions, and ending one of its sessions frees its place.
#[tokio::test(flavor = "multi_thread")]
async fn one_caller_cannot_take_the_sessions_of_every_other() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let verifier = |resource: &str| JwtVerifier::new(&auth.keys.issuer, resource);
    let options = HttpOptions::new().max_sessions_per_caller(2);
    let (port, resource) = protected_by(&auth.keys.issuer, verifier, options).await;
    let greedy = auth.token("writer", &resource, None).await;
    let other = auth.token("reader", &resource, None).await;
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}},
    });
    let mut held = Vec::new();
    for _ in 0..2 {
        let response = post(port, &greedy, None, &initialize).await;
        assert_eq!(response.status, 200);
        held.push(response.header("mcp-session-id").unwrap().to_owned());
    }
    let refused = post(port, &greedy, None, &initialize).await;
    assert_eq!(refused.status, 429);
    assert_eq!(refused.header("retry-after"), Some("1"));
    let body = refused.json().await;
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("HttpOptions::max_sessions_per_caller"),
        "{message}"
    );
    // The same subject with a fresh token is the same caller.
    let again = auth.token("writer", &resource, None).await;
    assert_eq!(post(port, &again, None, &initialize).await.status, 429);

    assert_eq!(post(port, &other, None, &initialize).await.status, 200);

    let authorization = format!("Bearer {greedy}");
    let headers = [
        ("authorization", authorization.as_str()),
        ("mcp-session-id", held[0].as_str()),
    ];
    let deleted = request_at(port, "DELETE", "/mcp", &headers, "").await;
    assert_eq!(deleted.status, 204);
    assert_eq!(post(port, &greedy, None, &initialize).await.status, 200);
}

/// A `requestState` is bound to the caller it was issued to (SECURITY.md, "Sealed
/// requestState"): another caller who sends it back with the same call and an answer is
/// refused with -32602, and the tool does not run for them; its own caller completes.
#[tokio::test(flavor = "multi_thread")]
async fn a_request_state_issued_to_one_caller_is_refused_from_another() {
    let Some(auth) = AuthServer::start() else {
        return;
    };
    let (port, resource) = protected(&auth.keys.issuer, Duration::from_secs(30)).await;
    let writer = auth.token("writer", &resource, None).await;
    let reader = auth.token("reader", &resource, None).await;
    let call = |extra: Value| {
        let mut params = json!({"name": "confirm", "arguments": {}, "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
            "io.modelcontextprotocol/clientInfo": {"name": "auth-test", "version": "0"},
        }});
        if let (Some(params), Value::Object(extra)) = (params.as_object_mut(), extra) {
            params.extend(extra);
        }
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    };
    let modern = async |bearer: &str, body: &Value| {
        let authorization = format!("Bearer {bearer}");
        let headers = [
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("authorization", authorization.as_str()),
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "confirm"),
        ];
        let response = request_at(port, "POST", "/mcp", &headers, &body.to_string()).await;
        assert_eq!(response.status, 200);
        response.json().await
    };
    let first = modern(&writer, &call(json!({}))).await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].as_str().unwrap().to_owned();
    let retry = call(json!({
        "inputResponses": {"sure": {"action": "accept", "content": {"sure": true}}},
        "requestState": state,
    }));
    let stolen = modern(&reader, &retry).await;
    assert_eq!(stolen["error"]["code"], -32602, "{stolen}");
    assert!(stolen.get("result").is_none(), "{stolen}");
    let done = modern(&writer, &retry).await;
    assert_eq!(
        done["result"]["content"][0]["text"], "writer says true",
        "{done}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tool_that_needs_scopes_is_refused_on_a_server_that_checks_no_tokens() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<whoami>()
        .tool::<write_note>()
        .build()
        .unwrap();
    let options = HttpOptions::new().stateless(true);
    tokio::spawn(async move { server.serve_http(listener, options).await });

    let response = call(port, None, "write_note").await;
    assert_eq!(response.status, 403);
    assert_eq!(response.header("www-authenticate"), None);
    let reply = response.json().await;
    let message = reply["error"]["message"].as_str().unwrap();
    assert!(message.contains("checks no access tokens"), "{message}");
    // A `Caller` parameter fails the call, saying why; no metadata is served.
    let response = call(port, None, "whoami").await;
    let reply = response.json().await;
    assert_eq!(reply["result"]["isError"], true, "{reply}");
    let response = request_at(
        port,
        "GET",
        "/.well-known/oauth-protected-resource/mcp",
        &[],
        "",
    )
    .await;
    assert_eq!(response.status, 404);
}

/// Runs `cargo run --example protected -- ARGS` (built for this test's profile first).
fn protected_example(args: &[&str]) -> Command {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .args([
            "build",
            "--quiet",
            "--example",
            "protected",
            "--manifest-path",
        ])
        .arg(manifest_dir().join("Cargo.toml"))
        .status()
        .expect("cargo runs");
    assert!(status.success(), "the example builds");
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/");
    let mut command = Command::new(profile_dir.join("examples/protected"));
    command.args(args);
    command
}

#[tokio::test(flavor = "multi_thread")]
async fn the_protected_example_refuses_to_start_without_an_issuer_and_serves_with_one() {
    let output = protected_example(&["--http", "127.0.0.1:0"])
        .output()
        .expect("the example runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("refusing to start without `--issuer`"),
        "{stderr}"
    );

    let Some(auth) = AuthServer::start() else {
        return;
    };
    let port = free_port();
    let address = format!("127.0.0.1:{port}");
    let resource = format!("http://{address}/mcp");
    let child = protected_example(&[
        "--http",
        &address,
        "--issuer",
        &auth.keys.issuer,
        "--audience",
        &resource,
    ])
    .stderr(Stdio::null())
    .spawn()
    .expect("the example starts");
    struct Kill(Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let _example = Kill(child);
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(&address).await.is_ok() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let response = call(port, None, "whoami").await;
    assert_eq!(response.status, 401);
    let initialize = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}},
    })
    .to_string();
    let token = auth.token("writer", &resource, None).await;
    let bearer = format!("Bearer {token}");
    let response = request_at(
        port,
        "POST",
        "/mcp",
        &[
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("authorization", &bearer),
        ],
        &initialize,
    )
    .await;
    assert_eq!(response.status, 200);
    let session = response.header("mcp-session-id").unwrap().to_owned();
    let call_in_session = |tool: &'static str| {
        let body = json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": {"text": "hello"}},
        })
        .to_string();
        let (bearer, session) = (bearer.clone(), session.clone());
        async move {
            let headers = [
                ("content-type", "application/json"),
                ("accept", "application/json, text/event-stream"),
                ("authorization", bearer.as_str()),
                ("mcp-session-id", session.as_str()),
            ];
            request_at(port, "POST", "/mcp", &headers, &body).await
        }
    };
    assert_eq!(answered(call_in_session("whoami").await).await, "writer");
    let response = call_in_session("write_note").await;
    assert_eq!(response.status, 403);
    let challenge = response.header("www-authenticate").unwrap();
    assert!(challenge.contains(r#"scope="notes:write""#), "{challenge}");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_handler_checks_its_scopes_itself_whatever_the_transport_decided() {
    use mcp_runtime::testing::TestClient;
    let server = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<write_note>()
        .resource::<note>()
        .prompt::<draft>()
        .build()
        .unwrap();
    let ana = Caller::new("ana", ["notes:write"], serde_json::Map::new());
    let bob = Caller::new("bob", ["notes:read"], serde_json::Map::new());

    let client = TestClient::as_caller(&server, ana);
    client.initialize().await.unwrap();
    let ana_client = TestClient::as_caller(
        &server,
        Caller::new("ana", ["notes:write"], serde_json::Map::new()),
    );
    ana_client.initialize().await.unwrap();
    let result = client
        .call_tool("write_note", json!({"text": "hi"}))
        .await
        .unwrap();
    assert_eq!(result.content[0].as_text(), Some("ana wrote hi"));
    let read = client
        .request("resources/read", json!({"uri": "notes://1"}))
        .await
        .unwrap();
    assert_eq!(read["contents"][0]["text"], "note 1, read by ana");

    let client = TestClient::as_caller(&server, bob);
    client.initialize().await.unwrap();
    let result = client
        .call_tool("write_note", json!({"text": "hi"}))
        .await
        .unwrap();
    assert!(result.is_error);
    let why = result.content[0].as_text().unwrap();
    assert!(
        why.starts_with("tool `write_note` needs the scope `notes:write`"),
        "{why}"
    );
    let says_the_resource_needs_the_scope = |error: mcp_runtime::RpcError| {
        assert!(
            error
                .message
                .contains("resource `notes://{number}` needs the scope"),
            "{error:?}"
        );
    };
    says_the_resource_needs_the_scope(
        client
            .request("resources/read", json!({"uri": "notes://1"}))
            .await
            .unwrap_err(),
    );
    let error = client
        .request("prompts/get", json!({"name": "draft"}))
        .await
        .unwrap_err();
    assert!(
        error.message.contains("prompt `draft` needs the scope"),
        "{error:?}"
    );
    // Hearing of a resource's changes needs what reading it needs: a subscription, in a
    // session or in a listen request (2026-07-28), is refused alike.
    says_the_resource_needs_the_scope(
        client
            .request("resources/subscribe", json!({"uri": "notes://1"}))
            .await
            .unwrap_err(),
    );
    let listen = json!({"notifications": {"resourceSubscriptions": ["notes://1"]}});
    says_the_resource_needs_the_scope(
        client
            .request_stateless("subscriptions/listen", listen, json!({}))
            .await
            .unwrap_err(),
    );
    // Completion runs the handler's completer: refused alike, before anything is looked up.
    for (reference, handler) in [
        (
            json!({"type": "ref/prompt", "name": "draft"}),
            "prompt `draft`",
        ),
        (
            json!({"type": "ref/resource", "uri": "notes://{number}"}),
            "resource `notes://{number}`",
        ),
    ] {
        let params = json!({"ref": reference, "argument": {"name": "number", "value": "1"}});
        let error = client
            .request("completion/complete", params.clone())
            .await
            .unwrap_err();
        assert!(
            error
                .message
                .contains(&format!("{handler} needs the scope")),
            "{error:?}"
        );
        // The caller with the scope gets past it, to what the completion itself says (no
        // values for the template's variable; no argument `number` for the prompt).
        if let Err(error) = ana_client.request("completion/complete", params).await {
            assert!(!error.message.contains("needs the scope"), "{error:?}");
        }
    }

    // A tool built at run time declares its scopes too.
    let erase = mcp_runtime::DynamicTool::new("erase_notes", "Erases every note.")
        .scopes(["notes:admin"])
        .handler(|_, _| async { CallToolResult::text("erased") });
    let server_with_erase = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .dynamic_tool(erase)
        .build()
        .unwrap();
    let admin = Caller::new("ana", ["notes:admin"], serde_json::Map::new());
    let client = TestClient::as_caller(&server_with_erase, admin);
    client.initialize().await.unwrap();
    let result = client.call_tool("erase_notes", json!({})).await.unwrap();
    assert_eq!(result.content[0].as_text(), Some("erased"));
    let writer = Caller::new("bob", ["notes:write"], serde_json::Map::new());
    let client = TestClient::as_caller(&server_with_erase, writer);
    client.initialize().await.unwrap();
    let result = client.call_tool("erase_notes", json!({})).await.unwrap();
    assert!(result.is_error);
    let bad = mcp_runtime::DynamicTool::new("bad", "Has a bad scope.").scopes(["notes write"]);
    let error = mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .dynamic_tool(bad)
        .build()
        .err()
        .unwrap()
        .to_string();
    assert!(
        error.contains("' ' cannot be part of scope \"notes write\""),
        "{error}"
    );

    // The local user (stdio) is trusted with every scope, and is no `Caller`.
    let client = TestClient::new(&server);
    client.initialize().await.unwrap();
    let result = client
        .call_tool("write_note", json!({"text": "hi"}))
        .await
        .unwrap();
    assert!(result.is_error);
    let why = result.content[0].as_text().unwrap();
    assert!(why.contains("over stdio there is none"), "{why}");
}
