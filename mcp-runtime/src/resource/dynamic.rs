//! Resources built at run time from a URI, a name and a closure, rather than with
//! `#[mcp_resource]`: for resources whose existence is only known while the server runs (the
//! files of a folder, the rows of a table), each listed by `resources/list` as itself.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use super::registry::{ResourceDetails, ResourceEntry};
use super::{IntoResourceContents, UriTemplate};
use crate::args::ArgumentSpecs;
use crate::context::Context;
use crate::error::BuildProblem;
use crate::handler::{BoxFuture, Entry};
use crate::handler_error::HandlerError;
use crate::protocol::stateless_result::ItemCacheHints;
use crate::protocol::{Annotations, ResourceContents, ResourceDefinition, is_uri_scheme};

type Reader =
    Arc<dyn Fn(Context, String, HashMap<String, String>) -> BoxFuture<ReadResult> + Send + Sync>;

type ReadResult = Result<Vec<ResourceContents>, HandlerError>;

/// A resource, or a template of resources, described and read at run time.
///
/// Add it with [`ServerBuilder::dynamic_resource`](crate::ServerBuilder::dynamic_resource), or
/// to a running server with [`ServerHandle::add_dynamic_resource`](crate::ServerHandle::add_dynamic_resource)
/// (which tells clients the list changed); remove it with
/// [`ServerHandle::remove_resource`](crate::ServerHandle::remove_resource).
///
/// ```
/// use mcp_runtime::{DynamicResource, HandlerError};
///
/// let note = DynamicResource::new("notes://today", "today")
///     .description("Today's note.")
///     .mime_type("text/markdown")
///     .reader(|_ctx, _uri, _variables| async { Ok::<_, HandlerError>("# Today\n") });
/// ```
pub struct DynamicResource {
    definition: ResourceDefinition,
    reader: Option<Reader>,
    scopes: Vec<String>,
}

impl DynamicResource {
    /// The resource at `uri` (an absolute URI), listed as `name`. It reads as "resource not
    /// found" until [`reader`](Self::reader) says how it is read.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> DynamicResource {
        DynamicResource::with(uri.into(), name.into(), false)
    }

    /// The resources whose URIs match the RFC 6570 `uri_template` (`notes://{day}`), listed
    /// among the templates as `name`; the reader gets each template variable's value by name.
    pub fn template(uri_template: impl Into<String>, name: impl Into<String>) -> DynamicResource {
        DynamicResource::with(uri_template.into(), name.into(), true)
    }

    fn with(uri: String, name: String, is_template: bool) -> DynamicResource {
        DynamicResource {
            definition: ResourceDefinition {
                uri: uri.into(),
                is_template,
                name: name.into(),
                title: None,
                description: None,
                mime_type: None,
                size: None,
                annotations: None,
            },
            reader: None,
            scopes: Vec::new(),
        }
    }

    /// Sets the human-readable title.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> DynamicResource {
        self.definition.title = Some(title.into().into());
        self
    }

    /// Says what it holds.
    #[must_use]
    pub fn description(mut self, description: impl Into<String>) -> DynamicResource {
        self.definition.description = Some(description.into().into());
        self
    }

    /// Sets its MIME type, listed, and given to the contents the reader returns as text or
    /// bytes (`text/plain` and `application/octet-stream` otherwise).
    #[must_use]
    pub fn mime_type(mut self, mime_type: impl Into<String>) -> DynamicResource {
        self.definition.mime_type = Some(mime_type.into().into());
        self
    }

    /// Sets its size in bytes, listed for clients to show or to budget with.
    #[must_use]
    pub fn size(mut self, bytes: u64) -> DynamicResource {
        self.definition.size = Some(bytes);
        self
    }

    /// Sets the usage hints (audience, priority, last modified).
    #[must_use]
    pub fn annotations(mut self, annotations: Annotations) -> DynamicResource {
        self.definition.annotations = Some(annotations);
        self
    }

    /// The OAuth scopes an access token must grant to read it, as
    /// `#[mcp_resource(scopes = [...])]` declares them for a function (see
    /// [`auth`](crate::auth)). A scope that is not an OAuth scope token makes
    /// [`build`](crate::ServerBuilder::build) fail, saying which.
    #[must_use]
    pub fn scopes<S: Into<String>>(
        mut self,
        scopes: impl IntoIterator<Item = S>,
    ) -> DynamicResource {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Sets how it is read: an async closure from the context, the URI read and the
    /// template's variables (none for a plain resource) to anything a `#[mcp_resource]`
    /// function may return as contents ([`IntoResourceContents`]: text, bytes,
    /// [`ResourceContents`]), or a [`HandlerError`] (`HandlerError::not_found(uri)` for a URI
    /// of the template that names nothing).
    #[must_use]
    pub fn reader<F, Fut, R>(mut self, read: F) -> DynamicResource
    where
        F: Fn(Context, String, HashMap<String, String>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<R, HandlerError>> + Send + 'static,
        R: IntoResourceContents,
    {
        let mime_type = self.definition.mime_type.clone();
        self.reader = Some(Arc::new(move |ctx, uri, variables| {
            let read = read(ctx, uri.clone(), variables);
            let mime_type = mime_type.clone();
            Box::pin(async move {
                read.await
                    .map(|contents| contents.into_contents(&uri, mime_type.as_deref()))
            })
        }));
        self
    }

    pub(crate) fn into_entry(self) -> Result<ResourceEntry, BuildProblem> {
        super::registry::link_catalog();
        let problem = |problem: String| BuildProblem::InvalidDefinition {
            kind: "resource",
            name: self.definition.uri.to_string(),
            problem,
        };
        let template = if self.definition.is_template {
            match UriTemplate::parse(&self.definition.uri) {
                Ok(template) => Some(template),
                Err(error) => return Err(problem(format!("its URI template: {error}"))),
            }
        } else {
            if !is_absolute_uri(&self.definition.uri) {
                return Err(problem(
                    "its URI must be absolute, with a scheme (`notes://today`, `file:///tmp/a.txt`)".to_owned(),
                ));
            }
            None
        };
        if self.definition.name.is_empty() {
            return Err(problem("its name is empty".to_owned()));
        }
        if let Some(scope_problem) = self
            .scopes
            .iter()
            .find_map(|s| crate::auth::scope_problem(s))
        {
            return Err(problem(scope_problem));
        }
        let reader = self.reader.unwrap_or_else(|| {
            Arc::new(|_, uri, _| Box::pin(async move { Err(HandlerError::not_found(uri)) }))
        });
        let details = ResourceDetails {
            template,
            specs: ArgumentSpecs::new(),
            cache: ItemCacheHints::default(),
        };
        let scopes = crate::auth::Scopes::Given(self.scopes.into());
        Ok(Entry::new(
            self.definition,
            crate::error::RESOURCE_MADE_AT_RUN_TIME,
            Vec::new(),
            scopes,
            details,
            move |ctx, (uri, variables): (String, crate::args::StringArgs)| {
                reader(ctx, uri, variables.into_map())
            },
        ))
    }
}

/// Whether `uri` starts with a scheme and a colon.
fn is_absolute_uri(uri: &str) -> bool {
    uri.split_once(':')
        .is_some_and(|(scheme, _)| is_uri_scheme(scheme))
}
