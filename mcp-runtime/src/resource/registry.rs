//! The resources and templates a server exposes.

use std::sync::Arc;

use serde_json::value::RawValue;

use super::{Resource, UriTemplate};
use crate::args::{ArgumentSpecs, StringArgs};
use crate::catalog::{Catalog, Entry, WireCache};
use crate::context::Context;
use crate::error::{BuildError, BuildProblem};
use crate::handler::{BoxFuture, Registration};
use crate::handler_error::HandlerError;
use crate::protocol::stateless_result::ItemCacheHints;
use crate::protocol::{ResourceContents, ResourceDefinition, Revision, WireResource};

type ReadFn = Arc<
    dyn Fn(Context, String, StringArgs) -> BoxFuture<Result<Vec<ResourceContents>, HandlerError>>
        + Send
        + Sync,
>;

impl Registration<ResourceEntry> {
    /// The registration of resource `R` (generated code submits one per `#[mcp_resource]`).
    pub const fn resource<R: Resource>() -> Registration<ResourceEntry> {
        Registration::new(ResourceEntry::of::<R>)
    }
}

inventory::collect!(Registration<ResourceEntry>);

/// A resource or template ready to be listed and read.
///
/// `pub` because generated code holds one inside a public `Registration`; no path outside the
/// crate names it.
#[doc(hidden)]
pub struct ResourceEntry {
    pub(crate) definition: ResourceDefinition,
    pub(crate) template: Option<UriTemplate>,
    pub(crate) specs: ArgumentSpecs,
    /// The scopes a caller needs (`Resource::SCOPES`).
    pub(crate) scopes: crate::auth::Scopes,
    /// Its own cache hints for reads (`Resource::CACHE_TTL`, `Resource::CACHE_SCOPE`).
    pub(crate) cache: ItemCacheHints,
    location: &'static str,
    read: ReadFn,
    wire: WireCache,
}

impl ResourceEntry {
    pub(crate) fn of<R: Resource>() -> ResourceEntry {
        let mut specs = ArgumentSpecs::new();
        let definition = R::definition(&mut specs);
        let template = if definition.is_template {
            // A malformed template is reported by `ResourceCatalog::new`; the macro checked it.
            UriTemplate::parse(&definition.uri).ok()
        } else {
            None
        };
        ResourceEntry {
            definition,
            template,
            specs,
            scopes: crate::auth::Scopes::Declared(R::SCOPES),
            cache: ItemCacheHints {
                ttl: R::CACHE_TTL,
                scope: R::CACHE_SCOPE,
            },
            location: std::any::type_name::<R>(),
            read: Arc::new(|ctx, uri, vars| Box::pin(R::read(ctx, uri, vars))),
            wire: Default::default(),
        }
    }

    pub(crate) fn read(
        &self,
        ctx: Context,
        uri: String,
        variables: StringArgs,
    ) -> BoxFuture<Result<Vec<ResourceContents>, HandlerError>> {
        let scopes = &self.scopes;
        if let Some(why) = crate::auth::refused(
            ctx.authentication(),
            "resource",
            &self.definition.uri,
            scopes,
        ) {
            let error = HandlerError::new(crate::ErrorCode::InvalidRequest, why);
            return Box::pin(std::future::ready(Err(error)));
        }
        (self.read)(ctx, uri, variables)
    }

    pub(crate) fn needs_state(&self) -> &[crate::context::StateNeed] {
        &self.specs.requirements.states
    }
}

impl Entry for ResourceEntry {
    const KIND: &'static str = "resource";

    fn key(&self) -> &str {
        &self.definition.uri
    }

    fn location(&self) -> &str {
        self.location
    }

    /// The entry's list JSON for a revision, serialized once.
    fn wire(&self, revision: Revision) -> &RawValue {
        self.wire
            .get(revision, || WireResource::new(&self.definition, revision))
    }

    fn scoped(&self) -> bool {
        !self.scopes.is_empty()
    }
}

/// Static resources by URI, and templates by template text, tried most specific first.
#[derive(Default, Clone)]
pub(crate) struct ResourceCatalog {
    pub(crate) resources: Catalog<ResourceEntry>,
    pub(crate) templates: Catalog<ResourceEntry>,
    /// Indexes into `templates`, most specific first.
    by_specificity: Vec<usize>,
}

impl ResourceCatalog {
    pub(crate) fn new(entries: Vec<ResourceEntry>) -> Result<ResourceCatalog, BuildError> {
        ResourceCatalog::from_shared(entries.into_iter().map(Arc::new).collect())
    }

    fn from_shared(entries: Vec<Arc<ResourceEntry>>) -> Result<ResourceCatalog, BuildError> {
        let (templates, resources): (Vec<_>, Vec<_>) =
            entries.into_iter().partition(|e| e.definition.is_template);
        let mut problems = Vec::new();
        for entry in &templates {
            if let Err(error) = UriTemplate::parse(&entry.definition.uri) {
                problems.push(BuildProblem::InvalidUri {
                    uri: entry.definition.uri.to_string(),
                    problem: error.to_string(),
                });
            }
            problems.extend(entry.specs.problems.iter().map(|problem| {
                BuildProblem::NotAStringArgument {
                    handler: format!("resource template `{}`", entry.definition.uri),
                    problem: problem.clone(),
                }
            }));
        }
        let (templates, resources) = (
            Catalog::from_shared(templates),
            Catalog::from_shared(resources),
        );
        for error in [&templates, &resources]
            .into_iter()
            .filter_map(|c| c.as_ref().err())
        {
            problems.extend(error.problems().iter().cloned());
        }
        if let Some(error) = BuildError::of(problems) {
            return Err(error);
        }
        let (templates, resources) = (templates?, resources?);
        let by_specificity = crate::sort_order::of(templates.shared().iter().map(|entry| {
            let template = entry.template.as_ref();
            std::cmp::Reverse(template.map_or(0, UriTemplate::specificity))
        }));
        Ok(ResourceCatalog {
            resources,
            templates,
            by_specificity,
        })
    }

    /// This catalog with `entry` added.
    pub(crate) fn with(&self, entry: ResourceEntry) -> Result<ResourceCatalog, BuildError> {
        let mut entries: Vec<Arc<ResourceEntry>> = self.shared().cloned().collect();
        entries.push(Arc::new(entry));
        ResourceCatalog::from_shared(entries)
    }

    /// This catalog without the resource or template `uri`; `None` if there is none.
    pub(crate) fn without(&self, uri: &str) -> Option<ResourceCatalog> {
        let entries: Vec<Arc<ResourceEntry>> = self
            .shared()
            .filter(|e| e.definition.uri != uri)
            .cloned()
            .collect();
        if entries.len() == self.shared().count() {
            return None;
        }
        ResourceCatalog::from_shared(entries).ok()
    }

    fn shared(&self) -> impl Iterator<Item = &Arc<ResourceEntry>> {
        self.resources
            .shared()
            .iter()
            .chain(self.templates.shared())
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.resources.is_empty() && self.templates.is_empty()
    }

    /// The resource for `uri`: an exact static match, else the most specific template that
    /// matches, with its variable values.
    pub(crate) fn resolve(&self, uri: &str) -> Option<(Arc<ResourceEntry>, StringArgs)> {
        if let Some(entry) = self.resources.get(uri) {
            return Some((Arc::clone(entry), StringArgs::default()));
        }
        let templates = self.templates.shared();
        self.by_specificity.iter().find_map(|&i| {
            let entry = &templates[i];
            let values = entry.template.as_ref()?.match_uri(uri)?;
            Some((Arc::clone(entry), StringArgs::new(values)))
        })
    }
}
