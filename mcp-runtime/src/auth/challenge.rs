//! The resource server's side of HTTP: the bearer token taken from the `Authorization` header
//! (and only from there), the `401`/`400`/`403` answers with their `WWW-Authenticate`
//! challenges (RFC 6750, section 3; RFC 9728, section 5.1), and the metadata document.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::Response;
use serde_json::json;

use super::Needed;
use super::{Caller, ResourceServer};
use crate::jsonrpc::{ErrorCode, RpcError};

/// The caller a request's access token names, or the answer that refuses the request.
pub(crate) async fn authenticate(
    server: &ResourceServer,
    uri: &Uri,
    headers: &HeaderMap,
) -> Result<Caller, Box<Response>> {
    if names_a_query_token(uri) {
        return Err(challenge(
            server,
            StatusCode::BAD_REQUEST,
            Some("invalid_request"),
            "access tokens are taken only from the `Authorization: Bearer` header, never from the URL (where logs and histories keep them)",
        ));
    }
    let mut values = headers.get_all(header::AUTHORIZATION).iter();
    let value = match (values.next(), values.next()) {
        (None, _) => None,
        (Some(value), None) => Some(value),
        (Some(_), Some(_)) => {
            return Err(challenge(
                server,
                StatusCode::BAD_REQUEST,
                Some("invalid_request"),
                "the request has more than one `Authorization` header",
            ));
        }
    };
    let token = match value.map(bearer_token) {
        Some(Bearer::Token(token)) => token,
        Some(Bearer::Malformed) => {
            return Err(challenge(
                server,
                StatusCode::BAD_REQUEST,
                Some("invalid_request"),
                "the `Authorization` header is not `Bearer` followed by one token",
            ));
        }
        None | Some(Bearer::OtherScheme) => {
            return Err(challenge(
                server,
                StatusCode::UNAUTHORIZED,
                None,
                "this server needs an access token: send `Authorization: Bearer <token>`, got from an authorization server its metadata names",
            ));
        }
    };
    server.verifier().verify(token).await.map_err(|error| {
        if error.is_unavailable() {
            let mut response = error_response(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the access token cannot be checked now: {error}; retry later"),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            return Box::new(response);
        }
        challenge(
            server,
            StatusCode::UNAUTHORIZED,
            Some("invalid_token"),
            error.description(),
        )
    })
}

/// The answer to a request whose token lacks scopes its handlers need: `403` with
/// `error="insufficient_scope"` and the scopes, so the client can ask for them
/// (step-up authorization).
pub(crate) fn insufficient_scope(
    server: &ResourceServer,
    caller: &Caller,
    needed: &[Needed],
) -> Option<Box<Response>> {
    let lacking: Vec<&Needed> = needed
        .iter()
        .filter(|need| !caller.missing(&need.scopes.to_vec()).is_empty())
        .collect();
    let first = lacking.first()?;
    let mut scopes: Vec<&str> = Vec::new();
    for need in &lacking {
        for scope in need.scopes.to_vec() {
            if !scopes.contains(&scope) {
                scopes.push(scope);
            }
        }
    }
    let description = super::Authentication::Caller(caller.clone())
        .refuses(&first.handler, &first.scopes.to_vec())
        .unwrap_or_default();
    let mut response = challenge(
        server,
        StatusCode::FORBIDDEN,
        Some("insufficient_scope"),
        &description,
    );
    let value = format!(
        r#"Bearer error="insufficient_scope", scope="{}", resource_metadata="{}", error_description="{}""#,
        quoted(&scopes.join(" ")),
        quoted(server.metadata_url()),
        quoted(&description)
    );
    if let Ok(value) = HeaderValue::from_str(&value) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    Some(response)
}

/// The metadata document (RFC 9728), readable from any origin: browser-based clients fetch
/// it cross-origin, and it holds nothing secret.
pub(crate) fn metadata_response(server: &ResourceServer) -> Response {
    let mut response = Response::new(Body::from(server.metadata().to_string()));
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("max-age=3600"),
    );
    response
}

/// A refusal with `status` and a `Bearer` challenge naming the metadata, with `error` and
/// `description` when there was a token to speak of (RFC 6750, section 3.1: a request with
/// no token gets no error code).
fn challenge(
    server: &ResourceServer,
    status: StatusCode,
    error: Option<&str>,
    description: &str,
) -> Box<Response> {
    let mut response = error_response(status, description.to_owned());
    let mut value = format!(
        r#"Bearer resource_metadata="{}""#,
        quoted(server.metadata_url())
    );
    if let Some(error) = error {
        value.push_str(&format!(
            r#", error="{error}", error_description="{}""#,
            quoted(description)
        ));
    }
    if let Ok(value) = HeaderValue::from_str(&value) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    Box::new(response)
}

fn error_response(status: StatusCode, message: String) -> Response {
    let error = RpcError::new(ErrorCode::InvalidRequest, message);
    let body = json!({"jsonrpc": "2.0", "error": error}).to_string();
    let mut response = Response::new(Body::from(body));
    *response.status_mut() = status;
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// `text` as the inside of a quoted string of a challenge: RFC 6750 allows printable ASCII
/// but `"` and `\` there.
fn quoted(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            ' '..='~' => c,
            _ => '?',
        })
        .collect()
}

/// What an `Authorization` header holds.
enum Bearer<'a> {
    Token(&'a str),
    /// Another scheme (`Basic ...`): as good as no token here.
    OtherScheme,
    /// `Bearer` but not one well-formed token after it.
    Malformed,
}

/// The token of `Authorization: Bearer <token>` (the scheme in any case, RFC 9110, section
/// 11.1; the token a `token68`, RFC 6750, section 2.1).
fn bearer_token(value: &HeaderValue) -> Bearer<'_> {
    let Ok(value) = value.to_str() else {
        return Bearer::Malformed;
    };
    let Some((scheme, token)) = value.split_once(' ') else {
        return if value.eq_ignore_ascii_case("bearer") {
            Bearer::Malformed
        } else {
            Bearer::OtherScheme
        };
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Bearer::OtherScheme;
    }
    let body = token.trim_end_matches('=');
    let well_formed = !body.is_empty()
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~+/".contains(&b));
    if well_formed {
        Bearer::Token(token)
    } else {
        Bearer::Malformed
    }
}

/// Whether the URL's query carries an `access_token` (RFC 6750, section 2.3, which the MCP
/// specification forbids), its name percent-encoded or not.
fn names_a_query_token(uri: &Uri) -> bool {
    uri.query().is_some_and(|query| {
        query.split('&').any(|pair| {
            let name = pair.split('=').next().unwrap_or("");
            percent_decoded(name).eq_ignore_ascii_case("access_token")
        })
    })
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match bytes[i] {
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(hi), Some(lo)) => {
                    out.push((hi * 16 + lo) as u8);
                    i += 3;
                    continue;
                }
                _ => out.push(b'%'),
            },
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_taken_from_a_well_formed_bearer_header_only() {
        let token = |value: &str| match bearer_token(&HeaderValue::from_str(value).unwrap()) {
            Bearer::Token(token) => Ok(token.to_owned()),
            Bearer::OtherScheme => Err("other"),
            Bearer::Malformed => Err("malformed"),
        };
        assert_eq!(token("Bearer abc.DEF-_~+/=="), Ok("abc.DEF-_~+/==".into()));
        assert_eq!(token("bearer x"), Ok("x".into()));
        assert_eq!(token("Basic dXNlcjpwYXNz"), Err("other"));
        assert_eq!(token("Bearer"), Err("malformed"));
        assert_eq!(token("Bearer a b"), Err("malformed"));
        assert_eq!(token("Bearer =="), Err("malformed"));
        assert_eq!(token("Bearer a\"b"), Err("malformed"));
    }

    #[test]
    fn a_token_in_the_query_is_noticed_however_its_name_is_written() {
        let names = |uri: &str| names_a_query_token(&uri.parse().unwrap());
        assert!(names("/mcp?access_token=x"));
        assert!(names("/mcp?a=1&ACCESS_TOKEN=x"));
        assert!(names("/mcp?access%5Ftoken=x"));
        assert!(names("/mcp?access_token"));
        assert!(!names("/mcp?token=x"));
        assert!(!names("/mcp"));
    }

    #[test]
    fn challenge_values_stay_within_what_a_quoted_string_allows() {
        assert_eq!(quoted(r#"a "b" \c é"#), "a 'b' 'c ?");
    }
}
