//! The authorization server's metadata (RFC 8414, or OpenID Connect Discovery): where its keys
//! (`jwks_uri`) and its introspection endpoint are.

use axum::http::Uri;
use serde_json::Value;

use super::fetch::Fetcher;

/// The URL `field` of `issuer`'s metadata, from the first of the well-known addresses that has
/// the metadata (the order of the MCP specification): RFC 8414's, then OpenID Connect's with
/// the path inserted, then OpenID Connect's appended. The metadata must name this very issuer
/// (RFC 8414, section 3.3), or it is not used.
pub(crate) async fn endpoint(fetcher: &Fetcher, issuer: &str, field: &str) -> Result<Uri, String> {
    let mut failures = Vec::new();
    for url in metadata_urls(issuer)? {
        let metadata = match fetcher.get_json(&url).await {
            Ok(metadata) => metadata,
            Err(why) => {
                failures.push(why);
                continue;
            }
        };
        if metadata.get("issuer").and_then(Value::as_str) != Some(issuer) {
            return Err(format!(
                "the metadata at {url} is for issuer {}, not {issuer}",
                metadata.get("issuer").unwrap_or(&Value::Null),
            ));
        }
        let endpoint = metadata
            .get(field)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("the metadata at {url} has no `{field}`"))?;
        return endpoint
            .parse()
            .map_err(|e| format!("the `{field}` at {url} is not a URL: {e}"));
    }
    Err(format!(
        "no authorization server metadata found for {issuer}: {}",
        failures.join("; ")
    ))
}

/// The well-known metadata addresses of `issuer`, in the order they are tried.
fn metadata_urls(issuer: &str) -> Result<Vec<Uri>, String> {
    let uri: Uri = issuer
        .parse()
        .map_err(|e| format!("the issuer {issuer} is not a URL: {e}"))?;
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return Err(format!("the issuer {issuer} is not an absolute URL"));
    };
    let path = uri.path().trim_end_matches('/');
    let urls = if path.is_empty() {
        vec![
            format!("{scheme}://{authority}/.well-known/oauth-authorization-server"),
            format!("{scheme}://{authority}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{scheme}://{authority}/.well-known/oauth-authorization-server{path}"),
            format!("{scheme}://{authority}/.well-known/openid-configuration{path}"),
            format!("{scheme}://{authority}{path}/.well-known/openid-configuration"),
        ]
    };
    urls.iter()
        .map(|url| url.parse().map_err(|e| format!("{url}: {e}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_is_looked_for_where_the_specification_says() {
        let urls = |issuer| -> Vec<String> {
            metadata_urls(issuer)
                .unwrap()
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        assert_eq!(
            urls("https://auth.example.com"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            urls("https://auth.example.com/tenant1/"),
            [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ]
        );
    }
}
