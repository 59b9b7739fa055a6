//! Completion of prompt arguments and URI template variables (`completion/complete`).
//!
//! A completer is a plain function from the typed prefix (and, optionally, a
//! [`CompletionContext`]: the arguments already filled in, the server's state) to candidate
//! values, or an `async fn` of the same taken by value (to look them up in a database or over
//! the network); the runtime filters by prefix, caps the answer at 100 values and reports
//! `total` and `hasMore`. An argument whose type is an enum completes from its values with no
//! completer at all.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde::Serialize;

use crate::state_map::StateMap;

/// The most values one completion answer may carry.
pub(crate) const MAX_VALUES: usize = 100;

/// What the client has already filled in, for completers that depend on other arguments.
///
/// ```
/// use mcp_runtime::prelude::*;
///
/// /// The cities of the country already chosen.
/// fn cities(_typed: &str, context: &CompletionContext) -> Vec<&'static str> {
///     match context.argument("country") {
///         Some("Portugal") => vec!["Lisbon", "Porto"],
///         Some("France") => vec!["Paris", "Lyon"],
///         _ => vec![],
///     }
/// }
///
/// /// A city's weather.
/// #[mcp_resource(uri = "weather://{country}/{city}")]
/// fn weather(country: String, #[complete(cities)] city: String) -> String {
///     format!("Sunny in {city}, {country}")
/// }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).resource::<weather>().build().unwrap();
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let done = client.request("completion/complete", serde_json::json!({
/// #         "ref": {"type": "ref/resource", "uri": "weather://{country}/{city}"},
/// #         "argument": {"name": "city", "value": "P"},
/// #         "context": {"arguments": {"country": "Portugal"}},
/// #     })).await.unwrap();
/// #     assert_eq!(done["completion"]["values"], serde_json::json!(["Porto"]));
/// # }
/// ```
///
/// It also reads the server's state, as a `State<T>` parameter does: a completer of note
/// numbers finds them in the store the tools write to.
///
/// ```
/// use std::sync::Mutex;
///
/// use mcp_runtime::prelude::*;
///
/// #[derive(Default)]
/// struct Notes {
///     titles: Mutex<Vec<String>>,
/// }
///
/// /// The titles of the notes kept.
/// fn titles(_typed: &str, context: &CompletionContext) -> Vec<String> {
///     let notes = context.state::<Notes>().expect("given with .state(..)");
///     let titles = notes.titles.lock().unwrap().clone();
///     titles
/// }
///
/// /// A note, by its title.
/// #[mcp_resource(uri = "notes://{title}")]
/// fn note(notes: State<Notes>, #[complete(titles)] title: String) -> Option<String> {
///     let titles = notes.titles.lock().unwrap();
///     titles.contains(&title).then(|| format!("The note {title}"))
/// }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// #     let notes = Notes { titles: Mutex::new(vec!["groceries".into(), "gifts".into()]) };
/// #     let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).resource::<note>().state(notes).build().unwrap();
/// #     let client = mcp_runtime::testing::TestClient::new(&server);
/// #     client.initialize().await.unwrap();
/// #     let done = client.request("completion/complete", serde_json::json!({
/// #         "ref": {"type": "ref/resource", "uri": "notes://{title}"},
/// #         "argument": {"name": "title", "value": "gi"},
/// #     })).await.unwrap();
/// #     assert_eq!(done["completion"]["values"], serde_json::json!(["gifts"]));
/// # }
/// ```
#[derive(Debug, Default, Clone)]
pub struct CompletionContext {
    /// The other arguments' values (`context.arguments`).
    pub arguments: HashMap<String, String>,
    state: Arc<StateMap>,
}

impl CompletionContext {
    /// The context of one completion: the arguments already given, the server's state.
    pub(crate) fn new(arguments: HashMap<String, String>, state: Arc<StateMap>) -> Self {
        CompletionContext { arguments, state }
    }

    /// The value already given for argument `name`.
    pub fn argument(&self, name: &str) -> Option<&str> {
        self.arguments.get(name).map(String::as_str)
    }

    /// Shared state of type `T` given to the server with `ServerBuilder::state` (as a `T` or
    /// an `Arc<T>`), as a `State<T>` parameter reads it; `None` if none was given.
    pub fn state<T: Send + Sync + 'static>(&self) -> Option<Arc<T>> {
        self.state.get::<T>()
    }
}

type CompleteFnBox = dyn Fn(&str, &CompletionContext) -> Candidates + Send + Sync;

/// What a completer gives: its values now, or a future of them.
pub enum Candidates {
    /// Values found at once (a plain function's).
    Ready(Vec<String>),
    /// Values still to be found (an `async fn`'s).
    Later(Pin<Box<dyn Future<Output = Vec<String>> + Send>>),
}

impl Candidates {
    /// The values, once found.
    pub(crate) async fn found(self) -> Vec<String> {
        match self {
            Candidates::Ready(values) => values,
            Candidates::Later(values) => values.await,
        }
    }
}

/// A function suggesting values for one argument.
#[derive(Clone)]
pub struct Completer(Arc<CompleteFnBox>);

impl Completer {
    /// Wraps `fn(prefix) -> values` or `fn(prefix, &CompletionContext) -> values`, where
    /// values is any iterable of strings, or `async fn(prefix: String) -> values` or
    /// `async fn(prefix: String, context: CompletionContext) -> values`.
    pub fn new<F: CompleteFn<M>, M>(function: F) -> Completer {
        Completer(Arc::new(move |prefix, context| {
            function.complete(prefix, context)
        }))
    }

    pub(crate) fn candidates(&self, prefix: &str, context: &CompletionContext) -> Candidates {
        (self.0)(prefix, context)
    }
}

impl std::fmt::Debug for Completer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Completer")
    }
}

/// A function usable as a completer; see [`Completer::new`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a completer function",
    label = "not a completer",
    note = "`#[complete(f)]` names a function taking the typed prefix, `fn f(prefix: &str) -> Vec<String>`, or the prefix and a context, `fn f(prefix: &str, context: &CompletionContext) -> Vec<String>`, whose `context.argument(name)` is an argument already given and `context.state::<T>()` the server's state (it takes no `State<T>` parameter)",
    note = "it may return any iterable of strings (`Vec<String>`, `Vec<&'static str>`, `[&str; N]`, ...), and must be `Send + Sync + 'static` (a plain `fn` is); an `async fn` takes them by value: `async fn f(prefix: String, context: CompletionContext) -> Vec<String>` (or the prefix alone)"
)]
pub trait CompleteFn<M>: Send + Sync + 'static {
    /// Candidate values for `prefix`.
    fn complete(&self, prefix: &str, context: &CompletionContext) -> Candidates;

    /// The function as a [`Completer`]. Generated code calls this rather than
    /// [`Completer::new`], so that a path naming no completer is reported on the path alone.
    fn into_completer(self) -> Completer
    where
        Self: Sized,
    {
        Completer::new(self)
    }
}

/// Marker: a completer taking the prefix only.
#[derive(Debug)]
pub enum PrefixOnly {}

/// Marker: a completer taking the prefix and the context.
#[derive(Debug)]
pub enum WithContext {}

/// Marker: an `async` completer taking the prefix only.
#[derive(Debug)]
pub enum AsyncPrefixOnly {}

/// Marker: an `async` completer taking the prefix and the context.
#[derive(Debug)]
pub enum AsyncWithContext {}

/// The values of a completer's iterable.
fn values<I>(values: I) -> Vec<String>
where
    I: IntoIterator,
    I::Item: Into<String>,
{
    values.into_iter().map(Into::into).collect()
}

#[diagnostic::do_not_recommend]
impl<F, I> CompleteFn<PrefixOnly> for F
where
    F: Fn(&str) -> I + Send + Sync + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(&self, prefix: &str, _context: &CompletionContext) -> Candidates {
        Candidates::Ready(values(self(prefix)))
    }
}

#[diagnostic::do_not_recommend]
impl<F, I> CompleteFn<WithContext> for F
where
    F: Fn(&str, &CompletionContext) -> I + Send + Sync + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(&self, prefix: &str, context: &CompletionContext) -> Candidates {
        Candidates::Ready(values(self(prefix, context)))
    }
}

#[diagnostic::do_not_recommend]
impl<F, Fut, I> CompleteFn<AsyncPrefixOnly> for F
where
    F: Fn(String) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = I> + Send + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(&self, prefix: &str, _context: &CompletionContext) -> Candidates {
        let found = self(prefix.to_owned());
        Candidates::Later(Box::pin(async move { values(found.await) }))
    }
}

#[diagnostic::do_not_recommend]
impl<F, Fut, I> CompleteFn<AsyncWithContext> for F
where
    F: Fn(String, CompletionContext) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = I> + Send + 'static,
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn complete(&self, prefix: &str, context: &CompletionContext) -> Candidates {
        let found = self(prefix.to_owned(), context.clone());
        Candidates::Later(Box::pin(async move { values(found.await) }))
    }
}

/// `completion` of a `completion/complete` result.
#[derive(Debug, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Completion {
    pub(crate) values: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) total: Option<usize>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) has_more: bool,
}

impl Completion {
    /// Keeps the candidates that start with `prefix` (ignoring case), at most 100.
    pub(crate) fn filter(candidates: Vec<String>, prefix: &str) -> Completion {
        let prefix = prefix.to_lowercase();
        let mut values: Vec<String> = candidates
            .into_iter()
            .filter(|value| value.to_lowercase().starts_with(&prefix))
            .collect();
        values.dedup();
        let total = values.len();
        values.truncate(MAX_VALUES);
        Completion {
            has_more: total > values.len(),
            total: Some(total),
            values,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tones(_prefix: &str) -> Vec<&'static str> {
        vec!["warm", "witty", "formal"]
    }

    fn by_context(_prefix: &str, context: &CompletionContext) -> Vec<String> {
        vec![format!("{}-x", context.argument("a").unwrap_or("none"))]
    }

    async fn looked_up(prefix: String) -> Vec<String> {
        tokio::task::yield_now().await;
        vec![format!("{prefix}-found")]
    }

    async fn looked_up_by_context(_prefix: String, context: CompletionContext) -> [String; 1] {
        tokio::task::yield_now().await;
        [format!("{}-later", context.argument("a").unwrap_or("none"))]
    }

    #[tokio::test]
    async fn plain_and_async_functions_complete() {
        let context = CompletionContext {
            arguments: [("a".to_owned(), "A".to_owned())].into(),
            ..CompletionContext::default()
        };
        let found = |completer: Completer, prefix: &str| {
            let candidates = completer.candidates(prefix, &context);
            async move { candidates.found().await }
        };
        assert_eq!(found(Completer::new(tones), "w").await.len(), 3);
        assert_eq!(found(Completer::new(by_context), "").await, ["A-x"]);
        assert_eq!(found(Completer::new(looked_up), "p").await, ["p-found"]);
        assert_eq!(
            found(Completer::new(looked_up_by_context), "").await,
            ["A-later"]
        );
    }

    #[test]
    fn values_are_filtered_by_prefix_and_capped_at_100() {
        let completion = Completion::filter(tones("").into_iter().map(String::from).collect(), "W");
        assert_eq!(completion.values, ["warm", "witty"]);
        assert_eq!(completion.total, Some(2));
        assert!(!completion.has_more);
        let many: Vec<String> = (0..250).map(|i| format!("v{i}")).collect();
        let completion = Completion::filter(many, "v");
        assert_eq!(completion.values.len(), 100);
        assert_eq!(completion.total, Some(250));
        assert!(completion.has_more);
    }
}
