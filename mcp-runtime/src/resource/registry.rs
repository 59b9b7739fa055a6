//! The resources and templates a server exposes.
//!
//! Building a catalog of resources and resolving a URI against its templates is reached
//! through [`CATALOG_CODE`], which only the makers of a resource's entry fill
//! ([`ResourceEntry::of`], `DynamicResource::into_entry`): a server of tools alone, the
//! common case, has an empty catalog and no entry to make, and its binary need not carry
//! the template parser and matcher (about 30 KB of a release build).

use std::sync::{Arc, OnceLock};

use super::{Resource, UriTemplate};
use crate::args::{ArgumentSpecs, StringArgs};
use crate::catalog::Catalog;
use crate::error::{BuildError, BuildProblem};
use crate::handler::{Entry, Kind, Registration};
use crate::handler_error::HandlerError;
use crate::protocol::stateless_result::ItemCacheHints;
use crate::protocol::{ResourceContents, ResourceDefinition, Revision, WireResource};

// `Registration::resource`, the registration generated code submits, is made where the
// server's resource methods are linked in (`server/methods/linked.rs`).
inventory::collect!(Registration<ResourceKind>);

/// The kind of handler `#[mcp_resource]` makes: a resource, or a template of resources.
///
/// `pub` because the public `Registration` generated code submits is generic over it; no
/// path outside the crate names it.
#[doc(hidden)]
#[derive(Debug)]
pub enum ResourceKind {}

/// A resource or template ready to be listed and read.
pub(crate) type ResourceEntry = Entry<ResourceKind>;

/// What only a resource keeps.
#[doc(hidden)]
pub struct ResourceDetails {
    /// A template's URI template, parsed.
    pub(crate) template: Option<UriTemplate>,
    /// A template's variables, as described by its parameters.
    pub(crate) specs: ArgumentSpecs,
    /// Its own cache hints for reads (`Resource::CACHE_TTL`, `Resource::CACHE_SCOPE`).
    pub(crate) cache: ItemCacheHints,
}

impl Kind for ResourceKind {
    const NAME: &'static str = "resource";
    type Definition = ResourceDefinition;
    type Details = ResourceDetails;
    /// The URI read, and the values of the template's variables in it.
    type Input = (String, StringArgs);
    type Output = Result<Vec<ResourceContents>, HandlerError>;

    fn key(entry: &ResourceEntry) -> &str {
        &entry.definition.uri
    }

    fn wire(entry: &ResourceEntry, revision: Revision) -> impl serde::Serialize {
        WireResource::new(&entry.definition, revision)
    }

    fn refused(why: String) -> Self::Output {
        Err(HandlerError::new(crate::ErrorCode::InvalidRequest, why))
    }
}

/// A resource found for a URI, with the values of its template's variables.
type Resolved = (Arc<ResourceEntry>, StringArgs);

/// The code of a catalog that holds resources, linked in by the makers of a resource's entry.
struct CatalogCode {
    from_shared: fn(Vec<Arc<ResourceEntry>>) -> Result<ResourceCatalog, BuildError>,
    resolve: fn(&ResourceCatalog, &str) -> Option<Resolved>,
}

static CATALOG_CODE: OnceLock<CatalogCode> = OnceLock::new();

/// Links the code of a catalog with resources in: called by every maker of a resource's
/// entry, so a catalog holding one finds it linked.
pub(crate) fn link_catalog() {
    CATALOG_CODE.get_or_init(|| CatalogCode {
        from_shared: ResourceCatalog::build,
        resolve: ResourceCatalog::find,
    });
}

impl ResourceEntry {
    pub(crate) fn of<R: Resource>() -> ResourceEntry {
        link_catalog();
        let mut specs = ArgumentSpecs::new();
        let definition = R::definition(&mut specs);
        let needs_state = std::mem::take(&mut specs.requirements.states);
        let template = if definition.is_template {
            // A malformed template is reported by `ResourceCatalog::new`; the macro checked it.
            UriTemplate::parse(&definition.uri).ok()
        } else {
            None
        };
        let details = ResourceDetails {
            template,
            cache: ItemCacheHints {
                ttl: R::CACHE_TTL,
                scope: R::CACHE_SCOPE,
            },
            specs,
        };
        Entry::new(
            definition,
            std::any::type_name::<R>(),
            needs_state,
            crate::auth::Scopes::Declared(R::SCOPES),
            details,
            |ctx, (uri, variables)| Box::pin(R::read(ctx, uri, variables)),
        )
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

    /// The catalog of `entries`: empty without any (and then without linking the code that
    /// builds one), else as [`build`](Self::build) makes it.
    fn from_shared(entries: Vec<Arc<ResourceEntry>>) -> Result<ResourceCatalog, BuildError> {
        if entries.is_empty() {
            return Ok(ResourceCatalog::default());
        }
        let code = CATALOG_CODE
            .get()
            .expect("every maker of a resource's entry links the catalog's code");
        (code.from_shared)(entries)
    }

    fn build(entries: Vec<Arc<ResourceEntry>>) -> Result<ResourceCatalog, BuildError> {
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
            problems.extend(entry.details.specs.problems.iter().map(|problem| {
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
            let template = entry.details.template.as_ref();
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
    pub(crate) fn resolve(&self, uri: &str) -> Option<Resolved> {
        // A catalog with an entry finds the code linked; without one, nothing resolves.
        (CATALOG_CODE.get()?.resolve)(self, uri)
    }

    fn find(&self, uri: &str) -> Option<Resolved> {
        if let Some(entry) = self.resources.get(uri) {
            return Some((Arc::clone(entry), StringArgs::default()));
        }
        let templates = self.templates.shared();
        self.by_specificity.iter().find_map(|&i| {
            let entry = &templates[i];
            let values = entry.details.template.as_ref()?.match_uri(uri)?;
            Some((Arc::clone(entry), StringArgs::new(values)))
        })
    }
}
