//! Progress notifications: `ctx.report_progress(done, Some(total), None)`.

use serde::Serialize;
use serde_json::Value;

use super::Context;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProgressParams<'a> {
    progress_token: &'a Value,
    progress: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

impl Context {
    /// The request's progress token (`_meta.progressToken`), exactly as the client sent it:
    /// a string or an integer, of at most 1 KiB (it is repeated in every progress
    /// notification, so a longer one asks for none).
    pub fn progress_token(&self) -> Option<&Value> {
        self.meta()?
            .get("progressToken")
            .filter(|token| match token {
                Value::String(text) => text.len() + 2 <= crate::jsonrpc::MAX_ID_BYTES,
                Value::Number(_) => true,
                _ => false,
            })
    }

    /// Reports progress: sends `notifications/progress` with the request's progress token.
    ///
    /// Does nothing when the client asked for no progress (no token), when `progress` is not
    /// greater than the last value reported (progress only goes up), or after the reply.
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        let Some(token) = self.progress_token() else {
            return;
        };
        {
            let mut last = self
                .request_state()
                .last_progress
                .lock()
                .expect("lock poisoned");
            if progress.is_nan() || last.is_some_and(|last| progress <= last) {
                return;
            }
            *last = Some(progress);
        }
        self.notify(
            "notifications/progress",
            &ProgressParams {
                progress_token: token,
                progress,
                total,
                message,
            },
        );
    }
}
