//! The prompts a server exposes.

use super::Prompt;
use crate::args::{ArgumentSpecs, StringArgs};
use crate::catalog::Catalog;
use crate::handler::{Entry, Kind, Registration};
use crate::handler_error::HandlerError;
use crate::protocol::{GetPromptResult, PromptDefinition, Revision, WireArgument, WirePrompt};

// `Registration::prompt`, the registration generated code submits, is made where the
// server's prompt methods are linked in (`server/methods/linked.rs`).
inventory::collect!(Registration<PromptKind>);

/// The kind of handler `#[mcp_prompt]` makes.
///
/// `pub` because the public `Registration` generated code submits is generic over it; no
/// path outside the crate names it.
#[doc(hidden)]
#[derive(Debug)]
pub enum PromptKind {}

/// A prompt ready to be listed and rendered.
pub(crate) type PromptEntry = Entry<PromptKind>;

/// What only a prompt keeps.
#[doc(hidden)]
pub struct PromptDetails {
    /// Its arguments, as described by its parameters.
    pub(crate) specs: ArgumentSpecs,
}

impl Kind for PromptKind {
    const NAME: &'static str = "prompt";
    type Definition = PromptDefinition;
    type Details = PromptDetails;
    type Input = StringArgs;
    type Output = Result<GetPromptResult, HandlerError>;

    fn key(entry: &PromptEntry) -> &str {
        &entry.definition.name
    }

    fn wire(entry: &PromptEntry, revision: Revision) -> impl serde::Serialize {
        let arguments = entry.details.specs.specs.iter().map(|spec| WireArgument {
            name: &spec.name,
            description: spec.description.as_deref(),
            required: spec.required,
        });
        WirePrompt::new(&entry.definition, arguments.collect(), revision)
    }

    fn refused(why: String) -> Self::Output {
        Err(HandlerError::new(crate::ErrorCode::InvalidRequest, why))
    }
}

impl PromptEntry {
    pub(crate) fn of<P: Prompt>() -> PromptEntry {
        let mut specs = ArgumentSpecs::new();
        let definition = P::definition(&mut specs);
        Entry::new(
            definition,
            std::any::type_name::<P>(),
            std::mem::take(&mut specs.requirements.states),
            crate::auth::Scopes::Declared(P::SCOPES),
            PromptDetails { specs },
            |ctx, args| Box::pin(P::get(ctx, args)),
        )
    }

    pub(crate) fn name(&self) -> &str {
        &self.definition.name
    }
}

/// The frozen set of prompts, sorted by name.
pub(crate) type PromptCatalog = Catalog<PromptEntry>;
