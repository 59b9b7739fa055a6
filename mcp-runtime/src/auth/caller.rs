//! Who made a request: the [`Caller`] an authenticated transport found, supplied to handlers
//! like `Context` is.
//!
//! The caller rides with the sink the transport hands the session for a message (an HTTP
//! exchange's, see `Outbound::with_authentication`): the replies go back to whoever sent the
//! request, and so the sink is what knows who that is. Over stdio, and over HTTP without
//! `HttpOptions::resource_server`, there is none.

use std::collections::BTreeSet;
use std::sync::Arc;

use serde_json::{Map, Value};

/// The authenticated caller of a request: who the access token was issued to (its subject),
/// the scopes it grants, and every claim it carries.
///
/// A handler takes it as a parameter, like [`Context`](crate::Context):
///
/// - `caller: Caller` is supplied on a request that came with a valid access token; without
///   one (over stdio, or over HTTP without `HttpOptions::resource_server`, feature `auth`) the
///   call fails, saying so, and the
///   handler is not run;
/// - `caller: Option<Caller>` is supplied everywhere: `None` where nobody was authenticated.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// Says who is calling.
/// #[mcp_tool]
/// fn whoami(caller: Option<Caller>) -> String {
///     match caller {
///         Some(caller) => format!("you are {}", caller.subject()),
///         None => "nobody was authenticated (stdio)".to_owned(),
///     }
/// }
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<whoami>().build().unwrap();
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let result = client.call_tool("whoami", serde_json::json!({})).await.unwrap();
/// #     assert_eq!(result.content[0].as_text(), Some("nobody was authenticated (stdio)"));
/// # });
/// ```
///
/// Cloning is cheap: clones share one value.
#[derive(Clone, Debug, PartialEq)]
pub struct Caller(Arc<Token>);

/// What a caller is made of, shared by its clones.
#[derive(Debug, PartialEq)]
struct Token {
    subject: String,
    scopes: BTreeSet<String>,
    claims: Map<String, Value>,
}

impl Caller {
    /// A caller with `subject` and `scopes`, and the token's `claims` (for a
    /// `TokenVerifier` of your own, feature `auth`).
    pub fn new(
        subject: impl Into<String>,
        scopes: impl IntoIterator<Item = impl Into<String>>,
        claims: Map<String, Value>,
    ) -> Caller {
        Caller(Arc::new(Token {
            subject: subject.into(),
            scopes: scopes.into_iter().map(Into::into).collect(),
            claims,
        }))
    }

    /// Who the token was issued to: its `sub` claim (for a client-credentials token, the
    /// client).
    pub fn subject(&self) -> &str {
        &self.0.subject
    }

    /// The scopes the token grants, in order.
    pub fn scopes(&self) -> impl Iterator<Item = &str> {
        self.0.scopes.iter().map(String::as_str)
    }

    /// Whether the token grants `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        self.0.scopes.contains(scope)
    }

    /// Every claim of the token (`iss`, `aud`, `exp`, `client_id`, ...), as it carried them.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.0.claims
    }

    /// The scopes of `required` this caller lacks, in their order.
    pub(crate) fn missing<'a>(&self, required: &[&'a str]) -> Vec<&'a str> {
        required
            .iter()
            .copied()
            .filter(|scope| !self.has_scope(scope))
            .collect()
    }
}
