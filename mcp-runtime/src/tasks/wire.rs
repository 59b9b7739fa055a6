//! A task as the extension writes it: the flat `Task` fields every answer about a task
//! carries (`taskId`, `status`, `createdAt`, `lastUpdatedAt`, `ttlMs`, `pollIntervalMs`), and
//! what `tasks/get` adds by status (`inputRequests`, `result`, `error` with its message as
//! `statusMessage`). Never `requestState`:
//! a task's answers live on the server.

use serde::Serialize;
use serde_json::{Map, Value};

use super::TaskLimits;
use super::clock::rfc3339;
use super::record::{Status, TaskRecord};
use crate::jsonrpc::RpcError;

/// The fields of a task, with what its status adds when `detailed` (`tasks/get`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskFields {
    task_id: String,
    status: &'static str,
    /// A failed task's error message ("Task Execution Errors": `tasks/get` SHOULD say it).
    #[serde(skip_serializing_if = "Option::is_none")]
    status_message: Option<String>,
    created_at: String,
    last_updated_at: String,
    ttl_ms: u64,
    poll_interval_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_requests: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<RpcError>,
}

impl TaskFields {
    pub(crate) fn of(state: &TaskRecord, limits: &TaskLimits, detailed: bool) -> TaskFields {
        let mut fields = TaskFields {
            task_id: state.id.clone(),
            status: state.status.as_str(),
            status_message: None,
            created_at: rfc3339(state.created_at),
            last_updated_at: rfc3339(state.last_updated_at),
            ttl_ms: millis(limits.ttl),
            poll_interval_ms: millis(limits.poll_interval).max(1),
            input_requests: None,
            result: None,
            error: None,
        };
        if detailed {
            match (state.status, &state.outcome) {
                (Status::InputRequired, _) => {
                    fields.input_requests = Some(state.pending.iter().cloned().collect());
                }
                (Status::Completed, Some(Ok(result))) => fields.result = Some(result.clone()),
                (Status::Failed, Some(Err(error))) => {
                    fields.status_message = Some(error.message.clone());
                    fields.error = Some(error.clone());
                }
                _ => {}
            }
        }
        fields
    }
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
