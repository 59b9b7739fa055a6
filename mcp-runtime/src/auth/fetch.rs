//! Talking to the authorization server: a GET of its metadata or keys, a POST to its
//! introspection endpoint, each answered with a JSON document, over HTTPS (or plain HTTP to a
//! loopback address, for a server on the same machine), bounded in time and size, following no
//! redirect.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::{Request, StatusCode, Uri, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// The bounds of one fetch.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FetchLimits {
    /// The whole fetch, connecting included.
    pub(crate) timeout: Duration,
    /// The largest document taken.
    pub(crate) max_bytes: usize,
}

/// A client for the authorization server's documents.
pub(crate) struct Fetcher {
    client: Option<Client<HttpsConnector<HttpConnector>, Full<Bytes>>>,
    limits: FetchLimits,
}

impl Fetcher {
    pub(crate) fn new(limits: FetchLimits) -> Fetcher {
        // The system's roots, as a browser on this machine would trust; without any, only
        // plain HTTP to a loopback address can be fetched, and HTTPS fails saying why.
        let provider = rustls::crypto::ring::default_provider();
        let client = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_native_roots(provider)
            .ok()
            .map(|builder| {
                let connector = builder.https_or_http().enable_http1().build();
                Client::builder(TokioExecutor::new()).build(connector)
            });
        Fetcher { client, limits }
    }

    /// How long one fetch may take.
    pub(crate) fn timeout(&self) -> Duration {
        self.limits.timeout
    }

    /// GETs `url` and reads its body as JSON.
    pub(crate) async fn get_json(&self, url: &Uri) -> Result<Value, String> {
        let request = Request::get(url.clone())
            .header(header::ACCEPT, "application/json")
            .body(Full::default())
            .map_err(|e| format!("cannot fetch {url}: {e}"))?;
        self.send(request, false).await
    }

    /// POSTs the form `body` to `url` with `authorization`, and reads the answer as JSON: a
    /// `400` answer too, whose body is an OAuth error (RFC 6749, section 5.2).
    pub(crate) async fn post_form(
        &self,
        url: &Uri,
        authorization: &str,
        body: String,
    ) -> Result<Value, String> {
        let request = Request::post(url.clone())
            .header(header::ACCEPT, "application/json")
            .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header(header::AUTHORIZATION, authorization)
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| format!("cannot post to {url}: {e}"))?;
        self.send(request, true).await
    }

    /// Sends `request`; an answer other than `200` (or `400`, when `oauth_errors`) is an
    /// error.
    async fn send(
        &self,
        request: Request<Full<Bytes>>,
        oauth_errors: bool,
    ) -> Result<Value, String> {
        let url = request.uri().clone();
        check_fetchable(&url)?;
        let Some(client) = &self.client else {
            return Err(format!(
                "cannot fetch {url}: no trusted root certificates were found on this system"
            ));
        };
        let max = self.limits.max_bytes;
        let fetch = async {
            let response = client
                .request(request)
                .await
                .map_err(|e| format!("cannot fetch {url}: {}", with_causes(&e)))?;
            let status = response.status();
            if status != StatusCode::OK && !(oauth_errors && status == StatusCode::BAD_REQUEST) {
                return Err(format!("{url} answered {}", response.status()));
            }
            let body = Limited::new(response.into_body(), max)
                .collect()
                .await
                .map_err(|e| format!("reading {url} failed (at most {max} bytes are taken): {e}"))?
                .to_bytes();
            serde_json::from_slice(&body).map_err(|e| format!("{url} is not JSON: {e}"))
        };
        match tokio::time::timeout(self.limits.timeout, fetch).await {
            Ok(outcome) => outcome,
            Err(_) => Err(format!(
                "{url} did not answer within {} s",
                self.limits.timeout.as_secs_f64()
            )),
        }
    }
}

/// HTTPS, or HTTP to a loopback host (an authorization server on the same machine): keys
/// fetched over plain HTTP from elsewhere could be anyone's.
pub(crate) fn check_fetchable(url: &Uri) -> Result<(), String> {
    match url.scheme_str() {
        Some("https") => Ok(()),
        Some("http") if url.host().is_some_and(is_loopback) => Ok(()),
        _ => Err(format!(
            "{url} is not an https URL (plain http is allowed only to localhost or a loopback address)"
        )),
    }
}

/// Whether `host` (as a URI writes it, IPv6 in brackets) names this machine.
pub(crate) fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// An error with each of its causes (`client error (Connect): tcp connect error: Connection
/// refused`): the HTTP client's own text names only its stage, its causes say what failed.
fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.ends_with(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serves `app` on a free loopback port; its base URL.
    pub(crate) async fn serve(app: axum::Router) -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        format!("http://{address}")
    }

    #[tokio::test]
    async fn a_document_too_large_or_too_slow_is_refused() {
        use axum::routing::get;
        let app = axum::Router::new()
            .route(
                "/big",
                get(|| async { format!("[{}1]", "1,".repeat(2048)) }),
            )
            .route(
                "/slow",
                get(|| async {
                    tokio::time::sleep(Duration::from_secs(5)).await;
                    "{}"
                }),
            )
            .route("/small", get(|| async { "{\"ok\": true}" }))
            .route("/missing", get(|| async { (StatusCode::NOT_FOUND, "{}") }));
        let base = serve(app).await;
        let fetcher = Fetcher::new(FetchLimits {
            timeout: Duration::from_millis(300),
            max_bytes: 1024,
        });
        let get = |path: &str| {
            let url: Uri = format!("{base}{path}").parse().unwrap();
            let fetcher = &fetcher;
            async move { fetcher.get_json(&url).await }
        };
        assert_eq!(get("/small").await, Ok(serde_json::json!({"ok": true})));
        let error = get("/big").await.unwrap_err();
        assert!(error.contains("at most 1024 bytes"), "{error}");
        let error = get("/slow").await.unwrap_err();
        assert!(error.contains("did not answer within 0.3 s"), "{error}");
        let error = get("/missing").await.unwrap_err();
        assert!(error.contains("404"), "{error}");
        // Nothing listens there: the message says so, not only "client error (Connect)".
        let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = closed.local_addr().unwrap().port();
        drop(closed);
        let url: Uri = format!("http://127.0.0.1:{port}/keys").parse().unwrap();
        let error = fetcher.get_json(&url).await.unwrap_err();
        assert!(
            error.contains("refused") || error.contains("Refused"),
            "{error}"
        );
    }

    #[test]
    fn plain_http_is_fetched_only_from_this_machine() {
        for ok in [
            "https://auth.example.com/jwks",
            "http://127.0.0.1:9000/jwks",
            "http://localhost/jwks",
            "http://[::1]:80/jwks",
        ] {
            assert!(check_fetchable(&ok.parse().unwrap()).is_ok(), "{ok}");
        }
        for refused in [
            "http://auth.example.com/jwks",
            "http://127.0.0.1.evil.example/jwks",
            "ftp://localhost/jwks",
        ] {
            assert!(
                check_fetchable(&refused.parse().unwrap()).is_err(),
                "{refused}"
            );
        }
    }
}
