//! The prompts a server exposes.

use std::sync::Arc;

use serde_json::value::RawValue;

use super::Prompt;
use crate::args::{ArgumentSpecs, StringArgs};
use crate::catalog::{Catalog, Entry, WireCache};
use crate::context::Context;
use crate::handler::{BoxFuture, Registration};
use crate::handler_error::HandlerError;
use crate::protocol::{GetPromptResult, PromptDefinition, Revision, WireArgument, WirePrompt};

type GetFn = Arc<
    dyn Fn(Context, StringArgs) -> BoxFuture<Result<GetPromptResult, HandlerError>> + Send + Sync,
>;

impl Registration<PromptEntry> {
    /// The registration of prompt `P` (generated code submits one per `#[mcp_prompt]`).
    pub const fn prompt<P: Prompt>() -> Registration<PromptEntry> {
        Registration::new(PromptEntry::of::<P>)
    }
}

inventory::collect!(Registration<PromptEntry>);

/// A prompt ready to be listed and rendered.
///
/// `pub` because generated code holds one inside a public `Registration`; no path outside the
/// crate names it.
#[doc(hidden)]
pub struct PromptEntry {
    pub(crate) definition: PromptDefinition,
    pub(crate) specs: ArgumentSpecs,
    /// The scopes a caller needs (`Prompt::SCOPES`).
    pub(crate) scopes: crate::auth::Scopes,
    location: &'static str,
    get: GetFn,
    wire: WireCache,
}

impl PromptEntry {
    pub(crate) fn of<P: Prompt>() -> PromptEntry {
        let mut specs = ArgumentSpecs::new();
        let definition = P::definition(&mut specs);
        PromptEntry {
            definition,
            specs,
            scopes: crate::auth::Scopes::Declared(P::SCOPES),
            location: std::any::type_name::<P>(),
            get: Arc::new(|ctx, args| Box::pin(P::get(ctx, args))),
            wire: Default::default(),
        }
    }

    pub(crate) fn name(&self) -> &str {
        &self.definition.name
    }

    pub(crate) fn get(
        &self,
        ctx: Context,
        args: StringArgs,
    ) -> BoxFuture<Result<GetPromptResult, HandlerError>> {
        if let Some(why) =
            crate::auth::refused(ctx.authentication(), "prompt", self.name(), &self.scopes)
        {
            let error = HandlerError::new(crate::ErrorCode::InvalidRequest, why);
            return Box::pin(std::future::ready(Err(error)));
        }
        (self.get)(ctx, args)
    }

    pub(crate) fn needs_state(&self) -> &[crate::context::StateNeed] {
        &self.specs.requirements.states
    }
}

impl Entry for PromptEntry {
    const KIND: &'static str = "prompt";

    fn key(&self) -> &str {
        self.name()
    }

    fn location(&self) -> &str {
        self.location
    }

    /// The entry's list JSON for a revision, serialized once.
    fn wire(&self, revision: Revision) -> &RawValue {
        self.wire.get(revision, || {
            let arguments = self.specs.specs.iter().map(|spec| WireArgument {
                name: &spec.name,
                description: spec.description.as_deref(),
                required: spec.required,
            });
            WirePrompt::new(&self.definition, arguments.collect(), revision)
        })
    }

    fn scoped(&self) -> bool {
        !self.scopes.is_empty()
    }
}

/// The frozen set of prompts, sorted by name.
pub(crate) type PromptCatalog = Catalog<PromptEntry>;
