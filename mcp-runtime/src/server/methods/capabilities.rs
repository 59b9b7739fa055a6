//! What the server declares it offers, in `initialize` and `server/discover` alike: a list
//! capability for each kind it has, completion when some argument completes, logging always.
//! [`declares`] answers the same question for one family of methods, without building the
//! whole object (a stateless request asks it every time).

use crate::protocol::{ListCapability, ResourcesCapability, ServerCapabilities};
use crate::server::ServerCore;

/// The server's capabilities as its registries stand now.
pub(super) fn capabilities(server: &ServerCore) -> ServerCapabilities {
    // Every list can change while the server runs (`ServerHandle`), so `listChanged` is
    // declared with each list the server has.
    let listed = || ListCapability { list_changed: true };
    ServerCapabilities {
        tools: declares(server, "tools").then(listed),
        resources: declares(server, "resources").then_some(ResourcesCapability {
            subscribe: true,
            list_changed: true,
        }),
        prompts: declares(server, "prompts").then(listed),
        completions: declares(server, "completion").then(serde_json::Map::new),
        logging: Some(serde_json::Map::new()),
        extensions: None,
    }
}

/// Whether the server declares the capability a family of methods (`tools`, `resources`,
/// `prompts`, `completion`, and `tasks` when a tool supports them: a method name's first
/// part) belongs to; other families need none.
pub(super) fn declares(server: &ServerCore, family: &str) -> bool {
    match family {
        "tools" => !server.tools.load().is_empty(),
        "resources" => !server.resources.load().is_empty(),
        "prompts" => !server.prompts.load().is_empty(),
        "completion" => {
            let (prompts, resources) = (server.prompts.load(), server.resources.load());
            prompts
                .iter()
                .map(|p| &p.details.specs)
                .chain(resources.templates.iter().map(|t| &t.details.specs))
                .flat_map(|specs| &specs.specs)
                .any(|spec| spec.completer.is_some() || !spec.choices.is_empty())
        }
        "tasks" => {
            cfg!(feature = "tasks")
                && server
                    .tools
                    .load()
                    .iter()
                    .any(|tool| tool.details.task_support != crate::tasks::TaskSupport::Forbidden)
        }
        _ => true,
    }
}
