//! `subscriptions/listen` (2026-07-28, basic/patterns/subscriptions): a long-lived request
//! whose stream carries the changes a stateless client asked for. The acknowledgement comes
//! first, naming the part of the filter the server honours (what its capabilities declare);
//! then each change that matches, tagged with the listen request's id as `subscriptionId`
//! (with the tasks extension, `taskIds` follows the caller's own tasks, on this instance or,
//! with Redis, another: `notifications/tasks` carries each new status of one, once, as
//! `tasks/get` would show it; a request naming `taskIds` that does not declare the extension
//! is refused, -32021, by a server that offers it: one with no tool that supports tasks, as
//! one built without the `tasks` feature, leaves `taskIds` out of the acknowledgement).
//! The stream ends when the client cancels the request (stdio) or closes it (HTTP); the
//! server ends it itself with [`closing_result`] ("Graceful Closure") when it stops
//! publishing changes, over HTTP when it shuts down (the transport's drain), and over stdio
//! at the end of input (`Session::close_with`).

use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::broadcast::error::RecvError;

use super::Request;
use super::capabilities::capabilities;
#[cfg(feature = "tasks")]
use super::capabilities::declares;
use super::params_object::ParamsObject;
#[cfg(feature = "tasks")]
use super::tasks;
use crate::auth::refused;
use crate::jsonrpc::{RequestId, RpcError, encode_notification, encode_result};
use crate::limit_log::LimitLog;
use crate::protocol::Implementation;
use crate::protocol::envelope::{SERVER_INFO, SUBSCRIPTION_ID};
use crate::protocol::stateless_result::ResultType;
use crate::server::ServerCore;
use crate::server::changes::Change;
#[cfg(feature = "tasks")]
use crate::tasks::told::Told;
#[cfg(feature = "tasks")]
use crate::tasks::wire::TaskFields;

/// What a listener asks for (`SubscriptionFilter`); every field optional.
#[derive(Clone, Default, Serialize, PartialEq, Debug)]
#[serde(rename_all = "camelCase")]
struct Filter {
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    tools_list_changed: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    prompts_list_changed: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    resources_list_changed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    resource_subscriptions: Option<Vec<String>>,
    /// The tasks whose status changes are wanted (the tasks extension's `notifications/tasks`).
    #[serde(skip_serializing_if = "Option::is_none")]
    task_ids: Option<Vec<String>>,
}

impl Filter {
    /// Reads the request's `notifications`, whose every member is optional.
    fn read(params: &ParamsObject<'_>) -> Result<Filter, RpcError> {
        let asked = params
            .object("notifications")?
            .ok_or_else(|| params.missing("notifications"))?;
        Ok(Filter {
            tools_list_changed: asked.optional("toolsListChanged")?.unwrap_or(false),
            prompts_list_changed: asked.optional("promptsListChanged")?.unwrap_or(false),
            resources_list_changed: asked.optional("resourcesListChanged")?.unwrap_or(false),
            resource_subscriptions: asked.optional("resourceSubscriptions")?,
            task_ids: asked.optional("taskIds")?,
        })
    }

    fn matches(&self, change: &Change) -> bool {
        match change {
            Change::ToolsListChanged => self.tools_list_changed,
            Change::PromptsListChanged => self.prompts_list_changed,
            Change::ResourcesListChanged => self.resources_list_changed,
            Change::ResourceUpdated(uri) => self
                .resource_subscriptions
                .as_ref()
                .is_some_and(|uris| uris.iter().any(|u| u == uri)),
        }
    }

    #[cfg(feature = "tasks")]
    fn follows(&self, task: &str) -> bool {
        self.task_ids
            .as_ref()
            .is_some_and(|ids| ids.iter().any(|id| id == task))
    }
}

/// `subscriptions/listen`: acknowledges, then forwards matching changes until the request
/// ends.
pub(super) async fn listen(
    request: &Request<'_>,
    params: Option<&str>,
) -> Result<Vec<u8>, RpcError> {
    let notifications = Filter::read(&ParamsObject::of("subscriptions/listen", params)?)?;
    let server = request.server();
    let limits = server.subscriptions;
    if let Some(uris) = &notifications.resource_subscriptions {
        if uris.len() > limits.max {
            return Err(RpcError::invalid_params(format!(
                "`resourceSubscriptions` names {} resources, over the server's limit of {} per listen request (ServerBuilder::max_subscriptions)",
                uris.len(),
                limits.max
            )));
        }
        let resources = server.resources.load();
        let authentication = request.state.sink.authentication();
        for uri in uris {
            server.check_uri(uri)?;
            // Hearing of a resource's changes needs the scopes reading it needs.
            if let Some((entry, _)) = resources.resolve(uri)
                && let Some(why) = refused(authentication, "resource", entry.key(), &entry.scopes)
            {
                return Err(RpcError::new(crate::ErrorCode::InvalidRequest, why));
            }
        }
    }
    if let Some(ids) = &notifications.task_ids
        && ids.len() > limits.max
    {
        return Err(RpcError::invalid_params(format!(
            "`taskIds` names {} tasks, over the server's limit of {} per listen request (ServerBuilder::max_subscriptions)",
            ids.len(),
            limits.max
        )));
    }
    #[cfg(feature = "tasks")]
    if notifications.task_ids.is_some() && declares(server, "tasks") && !tasks::declared(request) {
        return Err(tasks::undeclared(
            request,
            "`taskIds` in `subscriptions/listen`",
        ));
    }
    let Some(_listening) = server.listeners.open(limits.max_listeners) else {
        static LOG: LimitLog = LimitLog::new();
        LOG.hit(|| {
            format!(
                "{} listen streams are open (ServerBuilder::max_listeners): another is refused",
                limits.max_listeners
            )
        });
        return Err(RpcError::internal(format!(
            "the server has as many listen streams open as it allows ({}, ServerBuilder::max_listeners): retry later",
            limits.max_listeners
        )));
    };
    // Subscribed before the tasks are read and acknowledged: no change made after is missed.
    let mut changes = server.changes.subscribe();
    #[cfg(feature = "tasks")]
    let mut statuses = server.tasks.status_changes();
    #[cfg(feature = "tasks")]
    let mut told = Told::default();
    let honored = honored(
        request,
        notifications,
        #[cfg(feature = "tasks")]
        &mut told,
    )
    .await?;
    // Open until the client ends it: a closing connection must not wait for it.
    request.state.mark_endless();
    #[cfg(feature = "tasks")]
    let owner = request.state.sink.authentication().owner();
    let id = raw_id(&request.id);
    request.state.notify(encode_notification(
        "notifications/subscriptions/acknowledged",
        &Acknowledged {
            meta: Tagged::by(&id),
            notifications: &honored,
        },
    ));
    loop {
        #[cfg(not(feature = "tasks"))]
        let change = changes.recv().await;
        #[cfg(feature = "tasks")]
        let change = tokio::select! {
            change = changes.recv() => change,
            task = statuses.recv(), if honored.task_ids.is_some() => {
                match task {
                    Ok(task) if honored.follows(&task) => {
                        // Here or elsewhere: as its record stands now.
                        if let Ok(Some(found)) = server.tasks.find(&task, owner.as_deref()).await
                            && let record = found.record()
                            && told.is_news(&record)
                        {
                            let status = TaskStatus {
                                task: TaskFields::of(&record, &server.tasks.limits, true),
                                meta: Tagged::by(&id),
                            };
                            request
                                .state
                                .notify(encode_notification("notifications/tasks", &status));
                        }
                    }
                    Ok(_) | Err(RecvError::Closed) => {}
                    Err(RecvError::Lagged(missed)) => {
                        static LOG: LimitLog = LimitLog::new();
                        LOG.hit(|| {
                            format!("a listen stream fell {missed} task changes behind and missed them")
                        });
                    }
                }
                continue;
            }
        };
        match change {
            Ok(change) if honored.matches(&change) => {
                let params = ChangeParams {
                    uri: match &change {
                        Change::ResourceUpdated(uri) => Some(uri),
                        _ => None,
                    },
                    meta: Tagged::by(&id),
                };
                request
                    .state
                    .notify(encode_notification(change.method(), &params));
            }
            Ok(_) => {}
            Err(RecvError::Lagged(missed)) => {
                static LOG: LimitLog = LimitLog::new();
                LOG.hit(|| format!("a listen stream fell {missed} changes behind and missed them"));
            }
            Err(RecvError::Closed) => break,
        }
    }
    Ok(closing_result(server, &request.id))
}

/// The reply that ends the listen request `id` gracefully (basic/patterns/subscriptions
/// "Graceful Closure"): a complete result tagged with its `subscriptionId`, with the
/// server's `serverInfo` as every stateless result has.
pub(crate) fn closing_result(server: &ServerCore, id: &RequestId) -> Vec<u8> {
    let raw = raw_id(id);
    encode_result(
        id,
        &ListenResult {
            result_type: ResultType::Complete,
            meta: Tagged {
                subscription: &raw,
                server: Some(&server.info),
            },
        },
    )
}

/// The part of `asked` the server's capabilities cover; with the tasks extension, `told`
/// learns where each task followed stands now. -32603 when the tasks cannot be looked up (the
/// store shared with other instances does not answer).
async fn honored(
    request: &Request<'_>,
    asked: Filter,
    #[cfg(feature = "tasks")] told: &mut Told,
) -> Result<Filter, RpcError> {
    #[cfg(feature = "tasks")]
    let task_ids = match asked
        .task_ids
        .filter(|_| declares(request.server(), "tasks"))
    {
        Some(ids) => {
            // Only the caller's own tasks, here or on another instance, as they stand now.
            let owner = request.state.sink.authentication().owner();
            let found = (request.server().tasks)
                .find_each(&ids, owner.as_deref())
                .await?;
            let mut own = Vec::with_capacity(ids.len());
            for (id, found) in ids.into_iter().zip(found) {
                if let Some(found) = found {
                    let record = found.record();
                    // Hearing of a task's statuses needs what reading it needs.
                    tasks::authorized(request, &record)?;
                    told.known(&record);
                    own.push(id);
                }
            }
            Some(own)
        }
        None => None,
    };
    let capabilities = capabilities(request.server());
    let listed = |list: &Option<crate::protocol::ListCapability>| {
        list.as_ref().is_some_and(|l| l.list_changed)
    };
    let resources = capabilities.resources.as_ref();
    Ok(Filter {
        tools_list_changed: asked.tools_list_changed && listed(&capabilities.tools),
        prompts_list_changed: asked.prompts_list_changed && listed(&capabilities.prompts),
        resources_list_changed: asked.resources_list_changed
            && resources.is_some_and(|r| r.list_changed),
        resource_subscriptions: asked
            .resource_subscriptions
            .filter(|_| resources.is_some_and(|r| r.subscribe)),
        #[cfg(not(feature = "tasks"))]
        task_ids: None,
        #[cfg(feature = "tasks")]
        task_ids,
    })
}

/// The listen request's id as JSON text, as the client wrote it: a JSON value would turn an
/// integer beyond 64 bits, or `-0`, into a float, which a client matching the text misses.
fn raw_id(id: &RequestId) -> Box<RawValue> {
    RawValue::from_string(id.as_json().to_owned()).expect("a request id is JSON")
}

/// The `_meta` of whatever a listen stream carries: the subscription's id (`subscriptionId`,
/// the listen request's), and on its closing result the server's `serverInfo`.
struct Tagged<'a> {
    subscription: &'a RawValue,
    server: Option<&'a Implementation>,
}

impl<'a> Tagged<'a> {
    fn by(subscription: &'a RawValue) -> Tagged<'a> {
        Tagged {
            subscription,
            server: None,
        }
    }
}

impl Serialize for Tagged<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry(SUBSCRIPTION_ID, self.subscription)?;
        if let Some(server) = self.server {
            map.serialize_entry(SERVER_INFO, server)?;
        }
        map.end()
    }
}

/// A list change's or resource update's params: the updated resource's `uri`, and the tag.
#[derive(Serialize)]
struct ChangeParams<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    uri: Option<&'a String>,
    #[serde(rename = "_meta")]
    meta: Tagged<'a>,
}

/// `notifications/tasks`: the task as `tasks/get` shows it, tagged with the subscription.
#[cfg(feature = "tasks")]
#[derive(Serialize)]
struct TaskStatus<'a> {
    #[serde(flatten)]
    task: TaskFields,
    #[serde(rename = "_meta")]
    meta: Tagged<'a>,
}

#[derive(Serialize)]
struct Acknowledged<'a> {
    #[serde(rename = "_meta")]
    meta: Tagged<'a>,
    notifications: &'a Filter,
}

/// The result that ends a listen stream: its `_meta` names the subscription and the server.
#[derive(Serialize)]
struct ListenResult<'a> {
    #[serde(rename = "resultType")]
    result_type: ResultType,
    #[serde(rename = "_meta")]
    meta: Tagged<'a>,
}

#[cfg(all(test, feature = "tasks"))]
mod tests {
    use std::time::Duration;

    use serde_json::{Value, json};

    use crate::tasks::TaskSupport;
    use crate::testing::TestClient;
    use crate::{CallToolResult, DynamicTool, Server};

    fn with_tasks() -> Value {
        json!({"extensions": {crate::tasks::EXTENSION: {}}})
    }

    /// A tool that works, as a task, until it is cancelled.
    fn hold() -> DynamicTool {
        DynamicTool::new("hold", "Works until cancelled.")
            .task_support(TaskSupport::Optional)
            .handler(|ctx, _| async move {
                ctx.continue_as_task().await;
                std::future::pending::<CallToolResult>().await
            })
    }

    /// A task that works until it is cancelled.
    async fn working_task(client: &TestClient) -> String {
        let created = client
            .request_stateless("tools/call", json!({"name": "hold"}), with_tasks())
            .await
            .unwrap();
        created["taskId"].as_str().expect("a taskId").to_owned()
    }

    /// RELIABILITY.md, "Several instances": a listen request following tasks the shared
    /// store cannot look up (Redis stopped) fails with -32603 saying so, rather than being
    /// acknowledged as following none of them.
    #[cfg(feature = "redis")]
    #[tokio::test]
    async fn a_listen_whose_tasks_cannot_be_looked_up_fails() {
        let Some(mut redis) = crate::redis_link::test_server::redis_server() else {
            return;
        };
        let server = Server::builder(crate::server_info!())
            .dynamic_tool(hold())
            .redis(redis.url())
            .build()
            .unwrap();
        redis.stop();
        let client = TestClient::new(&server);
        let listen = json!({"jsonrpc": "2.0", "id": "l", "method": "subscriptions/listen",
            "params": {"notifications": {"taskIds": [crate::issued_id::new()]}, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": with_tasks()}}});
        client.send_raw(&listen.to_string());
        let answer = client
            .next_message(Duration::from_secs(30))
            .await
            .expect("an answer");
        assert_eq!(answer["id"], "l", "{answer}");
        assert_eq!(answer["error"]["code"], -32603, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("could not be used"), "{message}");
    }

    /// Announcements that read a state the stream told already, or the state its task stood at
    /// when the stream opened, tell nothing: the next message is the next new status.
    #[tokio::test]
    async fn a_state_announced_twice_is_told_once() {
        let server = Server::builder(crate::server_info!())
            .dynamic_tool(hold())
            .build()
            .unwrap();
        let client = TestClient::new(&server);
        let (t, u) = (working_task(&client).await, working_task(&client).await);
        let listen = json!({"jsonrpc": "2.0", "id": "l", "method": "subscriptions/listen",
            "params": {"notifications": {"taskIds": [t, u]}, "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": with_tasks()}}});
        client.send_raw(&listen.to_string());
        let wait = Duration::from_secs(10);
        let ack = client
            .next_message(wait)
            .await
            .expect("the acknowledgement");
        assert_eq!(ack["params"]["notifications"]["taskIds"], json!([t, u]));

        let tasks = &server.core.tasks;
        let cancel = |id: &str| {
            client.request_stateless("tasks/cancel", json!({"taskId": id}), with_tasks())
        };
        // `working`, as when the stream opened: nothing to tell.
        tasks.changed_elsewhere(t.clone());
        tasks.changed_elsewhere(t.clone());
        cancel(&u).await.unwrap();
        let note = client.next_message(wait).await.expect("u's new status");
        assert_eq!(note["params"]["taskId"], u.as_str(), "{note}");
        assert_eq!(note["params"]["status"], "cancelled", "{note}");

        // `cancelled`, told already.
        tasks.changed_elsewhere(u.clone());
        cancel(&t).await.unwrap();
        let note = client.next_message(wait).await.expect("t's new status");
        assert_eq!(note["params"]["taskId"], t.as_str(), "{note}");
        assert_eq!(note["params"]["status"], "cancelled", "{note}");
    }
}

#[cfg(all(test, not(feature = "tasks")))]
mod without_the_tasks_extension {
    use std::time::Duration;

    use serde_json::json;

    use crate::Server;
    use crate::testing::TestClient;

    /// A runtime built without the `tasks` feature does not offer the extension: `taskIds`,
    /// declared or not, is a part of the filter it does not honour, left out of the
    /// acknowledgement (basic/patterns/subscriptions), not the -32021 the extension asks of
    /// a server that offers it.
    #[tokio::test]
    async fn task_ids_are_acknowledged_as_not_followed() {
        let server = Server::builder(crate::server_info!()).build().unwrap();
        let client = TestClient::new(&server);
        for (id, capabilities) in [
            (1, json!({})),
            (2, json!({"extensions": {crate::tasks::EXTENSION: {}}})),
        ] {
            let listen = json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
                "params": {"notifications": {"taskIds": ["0123456789abcdef0123456789abcdef"]}, "_meta": {
                    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                    "io.modelcontextprotocol/clientCapabilities": capabilities}}});
            client.send_raw(&listen.to_string());
            let ack = client
                .next_message(Duration::from_secs(10))
                .await
                .expect("the acknowledgement");
            assert_eq!(
                ack["method"], "notifications/subscriptions/acknowledged",
                "{ack}"
            );
            assert!(
                ack["params"]["notifications"].get("taskIds").is_none(),
                "{ack}"
            );
        }
    }
}
