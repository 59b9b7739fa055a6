//! What the server declares it offers, in `initialize` and `server/discover` alike: a list
//! capability for each kind it has, completion when some argument completes, logging always.

use crate::protocol::{ListCapability, ResourcesCapability, ServerCapabilities};
use crate::server::ServerCore;

/// The server's capabilities as its registries stand now.
pub(super) fn capabilities(server: &ServerCore) -> ServerCapabilities {
    let (tools, resources, prompts) = (
        server.tools.load(),
        server.resources.load(),
        server.prompts.load(),
    );
    let completes = prompts
        .iter()
        .map(|p| &p.specs)
        .chain(resources.templates.iter().map(|t| &t.specs))
        .flat_map(|specs| &specs.specs)
        .any(|spec| spec.completer.is_some() || !spec.choices.is_empty());
    // Every list can change while the server runs (`ServerHandle`), so `listChanged` is
    // declared with each list the server has.
    let listed = || ListCapability { list_changed: true };
    ServerCapabilities {
        tools: (!tools.is_empty()).then(listed),
        resources: (!resources.is_empty()).then_some(ResourcesCapability {
            subscribe: true,
            list_changed: true,
        }),
        prompts: (!prompts.is_empty()).then(listed),
        completions: completes.then(serde_json::Map::new),
        logging: Some(serde_json::Map::new()),
    }
}
