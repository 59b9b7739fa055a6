//! One handler ready to be listed and called, whatever its kind: an [`Entry<K>`] holds what
//! every kind keeps (its definition, where it was defined, the scopes and state it needs, the
//! call itself, its list JSON serialized once per revision), and the kind `K` ([`Kind`]) says
//! the rest: what a call is given and gives back, its key, its list JSON, what only it keeps.

use std::sync::Arc;

use serde::Serialize;
use serde_json::value::RawValue;

use super::BoxFuture;
use crate::auth::{Scopes, refused};
use crate::catalog::WireCache;
use crate::context::{Context, StateNeed};
use crate::error::BuildProblem;
use crate::protocol::Revision;

/// A kind of handler (a tool, a resource, a prompt), as its entries differ.
///
/// `pub` because the public `Registration` generated code submits is generic over a kind; no
/// path outside the crate names it.
pub trait Kind: Sized + 'static {
    /// What it is, for messages: "tool", "resource", "prompt".
    const NAME: &'static str;
    /// Its definition, as listed (`ToolDefinition`, ...).
    type Definition: Send + Sync;
    /// What only this kind keeps of a handler (a tool's task support, a template's parsed
    /// URI template, ...).
    type Details: Send + Sync;
    /// What a call is given besides the request's context.
    type Input;
    /// What a call gives back.
    type Output: Send + 'static;

    /// Its unique key: a name or a URI.
    fn key(entry: &Entry<Self>) -> &str;
    /// Its JSON in a list result, for one revision.
    fn wire(entry: &Entry<Self>, revision: Revision) -> impl Serialize;
    /// What a call whose caller lacks the entry's scopes gives back, saying `why`.
    fn refused(why: String) -> Self::Output;
    /// What is wrong with it alone, if anything (checked when it joins a catalog).
    fn problem(_entry: &Entry<Self>) -> Option<BuildProblem> {
        None
    }
}

/// What a call of a handler of kind `K` that may wait runs: it returns the handler's future.
pub(crate) type AwaitedFn<K> =
    Arc<dyn Fn(Context, <K as Kind>::Input) -> BoxFuture<<K as Kind>::Output> + Send + Sync>;

/// How the calls of a handler of kind `K` run.
pub(crate) enum Calls<K: Kind> {
    /// Through the future the handler returns: it may wait.
    Awaited(AwaitedFn<K>),
    /// To their end within the call, with no future: the handler cannot wait (its function
    /// is a plain `fn`).
    AtOnce(fn(Context, K::Input) -> K::Output),
}

/// What calling a handler gives.
pub(crate) enum Called<T> {
    /// The output of a handler that runs at once, or of a call refused: a panic of the
    /// handler unwinds out of the call itself.
    Done(T),
    /// The future of a handler that may wait.
    Waiting(BoxFuture<T>),
}

/// A handler of kind `K`, ready to be listed and called.
///
/// `pub` because a public `Registration` builds one; no path outside the crate names it.
#[doc(hidden)]
pub struct Entry<K: Kind> {
    pub(crate) definition: K::Definition,
    /// Where it was defined, to name both places when two handlers share a key.
    pub(crate) location: &'static str,
    /// The state it reads, checked when the server is built.
    pub(crate) needs_state: Vec<StateNeed>,
    /// The scopes a caller needs (`Tool::SCOPES`, ..., or given at run time).
    pub(crate) scopes: Scopes,
    pub(crate) details: K::Details,
    call: Calls<K>,
    wire: WireCache,
}

impl<K: Kind> Entry<K> {
    pub(crate) fn new(
        definition: K::Definition,
        location: &'static str,
        needs_state: Vec<StateNeed>,
        scopes: Scopes,
        details: K::Details,
        call: impl Fn(Context, K::Input) -> BoxFuture<K::Output> + Send + Sync + 'static,
    ) -> Entry<K> {
        let call = Calls::Awaited(Arc::new(call));
        Entry::with_calls(definition, location, needs_state, scopes, details, call)
    }

    /// [`new`](Self::new), or one whose calls run as `call` says (a tool's function that cannot
    /// wait runs to its end within the call: [`Calls::AtOnce`]).
    pub(crate) fn with_calls(
        definition: K::Definition,
        location: &'static str,
        needs_state: Vec<StateNeed>,
        scopes: Scopes,
        details: K::Details,
        call: Calls<K>,
    ) -> Entry<K> {
        Entry {
            definition,
            location,
            needs_state,
            scopes,
            details,
            call,
            wire: WireCache::default(),
        }
    }

    /// Its unique key: a name or a URI.
    pub(crate) fn key(&self) -> &str {
        K::key(self)
    }

    /// Whether its calls run to their end within [`call`](Self::call) (no future to await).
    pub(crate) fn runs_at_once(&self) -> bool {
        matches!(self.call, Calls::AtOnce(_))
    }

    /// Calls the handler, unless the caller lacks its scopes: the transport refuses such a
    /// call first (HTTP answers 403), and this is the check that holds whatever the transport
    /// did. A handler that [runs at once](Self::runs_at_once) runs here.
    pub(crate) fn call(&self, ctx: Context, input: K::Input) -> Called<K::Output> {
        if let Some(why) = self.refusal(&ctx) {
            return Called::Done(K::refused(why));
        }
        match &self.call {
            Calls::Awaited(call) => Called::Waiting(call(ctx, input)),
            Calls::AtOnce(run) => Called::Done(run(ctx, input)),
        }
    }
}

impl<K: Kind> Entry<K> {
    /// [`call`](Self::call) of a handler that [runs at once](Self::runs_at_once): its output,
    /// the handler run here; `None` for one that may wait, which is not called.
    pub(crate) fn call_at_once(&self, ctx: Context, input: K::Input) -> Option<K::Output> {
        let Calls::AtOnce(run) = self.call else {
            return None;
        };
        Some(match self.refusal(&ctx) {
            Some(why) => K::refused(why),
            None => run(ctx, input),
        })
    }

    /// Why the caller may not call it (it lacks the entry's scopes), if it may not.
    fn refusal(&self, ctx: &Context) -> Option<String> {
        refused(ctx.authentication(), K::NAME, self.key(), &self.scopes)
    }
}

impl<K: Kind> crate::catalog::Entry for Entry<K> {
    const KIND: &'static str = K::NAME;

    fn key(&self) -> &str {
        K::key(self)
    }

    fn location(&self) -> &str {
        self.location
    }

    /// The entry's list JSON for a revision, serialized once.
    fn wire(&self, revision: Revision) -> &RawValue {
        self.wire.get(revision, || K::wire(self, revision))
    }

    fn scoped(&self) -> bool {
        !self.scopes.is_empty()
    }

    fn problem(&self) -> Option<BuildProblem> {
        K::problem(self)
    }
}
