//! The methods of resources and prompts, reached only through what adding a resource or a
//! prompt to a server links in.
//!
//! A server of tools alone is the common case, and its binary need not carry the code that
//! reads resources, renders prompts and completes their arguments (about 70 KB of a release
//! build). [`route`](super::route) reaches that code only through the tables here, and only
//! the three makers of an entry here fill them ([`resource_entry`], [`dynamic_resource_entry`],
//! [`prompt_entry`]), which are all that the registration generated code submits
//! (`Registration::resource`, `Registration::prompt`), `ServerBuilder::resource`,
//! `dynamic_resource` and `prompt`, and `ServerHandle::add_resource`, `add_dynamic_resource`
//! and `add_prompt` make entries with. A program that uses none of them leaves that code
//! unreferenced, and the linker drops it.
//!
//! Without its table a method answers as its code answers a server with none of that kind
//! (which is what such a server has, every way to add one filling the table first): empty
//! lists, "Resource not found", "Unknown prompt", read from the params as that code reads
//! them. Only where the params are wrong in more than one way may the message differ (the
//! full code may name a malformed argument where this names the missing prompt), never the
//! code. The tests below hold each answer to the one the full code gives.

use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;

use super::{Request, completion_complete, list, prompts_get, resources_read};
use crate::error::BuildProblem;
use crate::handler::Registration;
use crate::jsonrpc::RpcError;
use crate::prompt::{Prompt, PromptEntry, PromptKind};
use crate::resource::{DynamicResource, Resource, ResourceEntry, ResourceKind};

/// What a method answers: the reply, or the error it is answered with.
type Answered = Result<Vec<u8>, RpcError>;

/// A method's answer, as a boxed future (see `super::apart`).
type Answer<'a> = Pin<Box<dyn Future<Output = Answered> + Send + 'a>>;

/// A method that answers at once.
type AtOnce = fn(&Request<'_>, Option<&str>) -> Answered;

/// A method that may wait.
type Waits = for<'a> fn(&'a Request<'a>, Option<&'a str>) -> Answer<'a>;

/// The resource methods' code, once a resource has been made.
struct ResourceMethods {
    list: AtOnce,
    templates_list: AtOnce,
    read: Waits,
    subscribe: fn(&Request<'_>, Option<&str>, bool) -> Answered,
}

/// The prompt methods' code, once a prompt has been made.
struct PromptMethods {
    list: AtOnce,
    get: Waits,
}

static RESOURCES: OnceLock<ResourceMethods> = OnceLock::new();
static PROMPTS: OnceLock<PromptMethods> = OnceLock::new();
/// `completion/complete`'s code, once a resource or a prompt has been made.
static COMPLETE: OnceLock<Waits> = OnceLock::new();

/// Links the resource methods in: called by the makers of a resource's entry.
fn link_resources() {
    RESOURCES.get_or_init(|| ResourceMethods {
        list: |request, params| {
            let resources = request.server().resources.load();
            let catalog = &resources.resources;
            list::list(request, params, "resources/list", "resources", catalog)
        },
        templates_list: |request, params| {
            let resources = request.server().resources.load();
            let templates = &resources.templates;
            let method = "resources/templates/list";
            list::list(request, params, method, "resourceTemplates", templates)
        },
        read: |request, params| Box::pin(resources_read::read_resource(request, params)),
        subscribe: resources_read::subscribe,
    });
    link_completion();
    // A resource's read takes the `Context`, and may ask the client.
    crate::sealed_state::link_sealing();
}

/// Links the prompt methods in: called by the maker of a prompt's entry (there is no dynamic
/// prompt).
fn link_prompts() {
    PROMPTS.get_or_init(|| PromptMethods {
        list: |request, params| {
            let prompts = request.server().prompts.load();
            list::list(request, params, "prompts/list", "prompts", &prompts)
        },
        get: |request, params| Box::pin(prompts_get::get_prompt(request, params)),
    });
    link_completion();
    // A prompt's rendering takes the `Context`, and may ask the client.
    crate::sealed_state::link_sealing();
}

fn link_completion() {
    COMPLETE
        .get_or_init(|| |request, params| Box::pin(completion_complete::complete(request, params)));
}

/// A `#[mcp_resource]`'s entry, its methods linked in.
pub(crate) fn resource_entry<R: Resource>() -> ResourceEntry {
    link_resources();
    ResourceEntry::of::<R>()
}

/// A [`DynamicResource`]'s entry (or why it is malformed), the resource methods linked in.
pub(crate) fn dynamic_resource_entry(
    resource: DynamicResource,
) -> Result<ResourceEntry, BuildProblem> {
    link_resources();
    resource.into_entry()
}

/// A `#[mcp_prompt]`'s entry, its methods linked in.
pub(crate) fn prompt_entry<P: Prompt>() -> PromptEntry {
    link_prompts();
    PromptEntry::of::<P>()
}

impl Registration<ResourceKind> {
    /// The registration of resource `R` (generated code submits one per `#[mcp_resource]`).
    pub const fn resource<R: Resource>() -> Registration<ResourceKind> {
        Registration::new(resource_entry::<R>)
    }
}

impl Registration<PromptKind> {
    /// The registration of prompt `P` (generated code submits one per `#[mcp_prompt]`).
    pub const fn prompt<P: Prompt>() -> Registration<PromptKind> {
        Registration::new(prompt_entry::<P>)
    }
}

/// `resources/list`.
pub(super) fn resources_list(request: &Request<'_>, params: Option<&str>) -> Answered {
    match RESOURCES.get() {
        Some(methods) => (methods.list)(request, params),
        None => list::empty(request, params, "resources/list", "resources"),
    }
}

/// `resources/templates/list`.
pub(super) fn resource_templates_list(request: &Request<'_>, params: Option<&str>) -> Answered {
    match RESOURCES.get() {
        Some(methods) => (methods.templates_list)(request, params),
        None => list::empty(
            request,
            params,
            "resources/templates/list",
            "resourceTemplates",
        ),
    }
}

/// `resources/read`.
pub(super) async fn read_resource(request: &Request<'_>, params: Option<&str>) -> Answered {
    match RESOURCES.get() {
        Some(methods) => (methods.read)(request, params).await,
        None => resources_read::read_without_resources(request, params),
    }
}

/// `resources/subscribe` (`on`) and `resources/unsubscribe`.
pub(super) fn subscribe(request: &Request<'_>, params: Option<&str>, on: bool) -> Answered {
    match RESOURCES.get() {
        Some(methods) => (methods.subscribe)(request, params, on),
        None => resources_read::subscribe_without_resources(request, params, on),
    }
}

/// `prompts/list`.
pub(super) fn prompts_list(request: &Request<'_>, params: Option<&str>) -> Answered {
    match PROMPTS.get() {
        Some(methods) => (methods.list)(request, params),
        None => list::empty(request, params, "prompts/list", "prompts"),
    }
}

/// `prompts/get`.
pub(super) async fn get_prompt(request: &Request<'_>, params: Option<&str>) -> Answered {
    match PROMPTS.get() {
        Some(methods) => (methods.get)(request, params).await,
        None => prompts_get::get_without_prompts(params),
    }
}

/// `completion/complete`.
pub(super) async fn complete(request: &Request<'_>, params: Option<&str>) -> Answered {
    match COMPLETE.get() {
        Some(complete) => complete(request, params).await,
        None => completion_complete::complete_without_handlers(params),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::jsonrpc::RequestId;
    use crate::outbound::Outbound;
    use crate::server::Session;
    use crate::{Implementation, Server};

    /// A session of a server with neither resources nor prompts.
    fn session_without_handlers() -> Arc<Session> {
        let server = Server::builder(Implementation::new("t", "0"))
            .build()
            .expect("an empty server builds");
        Session::new_in_order(Arc::clone(&server.core), Outbound::discard())
    }

    /// A request of `session`, of its own state.
    fn request_of(session: &Arc<Session>) -> Request<'_> {
        let id = RequestId::from_number(7);
        let state = session.detached_state(id.clone());
        Request { id, session, state }
    }

    /// The full code's answer and the answer without it are the same reply, or errors with
    /// the same code, and (`same_words`) the same message and data.
    #[track_caller]
    fn alike(params: &str, full: Answered, without: Answered, same_words: bool) {
        match (full, without) {
            (Ok(full), Ok(without)) => assert_eq!(
                String::from_utf8(full).unwrap(),
                String::from_utf8(without).unwrap(),
                "{params}"
            ),
            (Err(full), Err(without)) => {
                assert_eq!(full.code, without.code, "{params}");
                if same_words {
                    assert_eq!(full.message, without.message, "{params}");
                    assert_eq!(full.data, without.data, "{params}");
                }
            }
            (full, without) => panic!("{params}: {full:?} against {without:?}"),
        }
    }

    fn params(text: &str) -> Option<&str> {
        (text != "none").then_some(text)
    }

    #[test]
    fn lists_without_their_kind_are_the_empty_lists() {
        let cases = [
            "none",
            "{}",
            r#"{"cursor":"after:x"}"#,
            r#"{"cursor":"x"}"#,
            r#"{"cursor":5}"#,
            "[1]",
        ];
        let session = session_without_handlers();
        let request = &request_of(&session);
        let server = request.server();
        for text in cases {
            let p = params(text);
            let resources = server.resources.load();
            let full = list::list(
                request,
                p,
                "resources/list",
                "resources",
                &resources.resources,
            );
            alike(
                text,
                full,
                list::empty(request, p, "resources/list", "resources"),
                true,
            );
            let (method, key) = ("resources/templates/list", "resourceTemplates");
            let full = list::list(request, p, method, key, &resources.templates);
            alike(text, full, list::empty(request, p, method, key), true);
            let full = list::list(
                request,
                p,
                "prompts/list",
                "prompts",
                &server.prompts.load(),
            );
            alike(
                text,
                full,
                list::empty(request, p, "prompts/list", "prompts"),
                true,
            );
        }
    }

    #[tokio::test]
    async fn resource_methods_without_resources_answer_as_with_none() {
        let long = format!(r#"{{"uri":"file:///{}"}}"#, "a".repeat(70_000));
        let cases = [
            "none",
            "{}",
            "[1]",
            r#"{"uri":"file:///a.txt"}"#,
            r#"{"uri":"notes://{x}"}"#,
            r#"{"uri":5}"#,
            r#"{"uri":"file:///a.txt","_meta":{"progressToken":1}}"#,
            r#"{"uri":"file:///a.txt","_meta":5}"#,
            &long,
        ];
        let session = session_without_handlers();
        for text in cases {
            let request = request_of(&session);
            let p = params(text);
            let full = resources_read::read_resource(&request, p).await;
            let without = resources_read::read_without_resources(&request, p);
            alike(text, full, without, true);
            // Unsubscribing first, so that a subscription made by the full code (there is
            // none to make) could not change what the other sees.
            for on in [false, true] {
                let full = resources_read::subscribe(&request, p, on);
                let without = resources_read::subscribe_without_resources(&request, p, on);
                alike(text, full, without, true);
            }
        }
    }

    #[tokio::test]
    async fn prompt_and_completion_methods_without_handlers_answer_as_with_none() {
        // The params wrong in one way or none: the same answer, word for word.
        let prompts = [
            "none",
            "{}",
            "[1]",
            r#"{"name":"greet"}"#,
            r#"{"name":"greet","arguments":{"who":"me"}}"#,
            r#"{"name":5}"#,
        ];
        let completions = [
            "none",
            "{}",
            r#"{"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"m"}}"#,
            r#"{"ref":{"type":"ref/resource","uri":"notes://{day}"},"argument":{"name":"day","value":""}}"#,
            r#"{"ref":{"type":"ref/other"},"argument":{"name":"who","value":"m"}}"#,
            r#"{"ref":{"type":"ref/prompt"},"argument":{"name":"who","value":"m"}}"#,
            r#"{"ref":5}"#,
        ];
        // Wrong in more ways than the name: the same code.
        let prompts_twice_wrong = [r#"{"name":"greet","arguments":{"who":1}}"#];
        let completions_twice_wrong = [r#"{"ref":{"type":"ref/prompt","name":"greet"}}"#];
        let session = session_without_handlers();
        for (cases, same_words) in [(&prompts[..], true), (&prompts_twice_wrong[..], false)] {
            for text in cases {
                let request = request_of(&session);
                let full = prompts_get::get_prompt(&request, params(text)).await;
                alike(
                    text,
                    full,
                    prompts_get::get_without_prompts(params(text)),
                    same_words,
                );
            }
        }
        for (cases, same_words) in [
            (&completions[..], true),
            (&completions_twice_wrong[..], false),
        ] {
            for text in cases {
                let request = request_of(&session);
                let full = completion_complete::complete(&request, params(text)).await;
                let without = completion_complete::complete_without_handlers(params(text));
                alike(text, full, without, same_words);
            }
        }
    }
}
