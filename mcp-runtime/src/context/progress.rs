//! Progress notifications: `ctx.report_progress(done, Some(total), None)`.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::Context;
use crate::protocol::envelope::PROGRESS_TOKEN;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProgressParams<'a> {
    progress_token: &'a RawValue,
    progress: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
}

impl Context {
    /// The request's progress token (`_meta.progressToken`): a string or a number, of at
    /// most 1 KiB (it is repeated in every progress notification, so a longer one asks for
    /// none). As a `Value`, an integer beyond 64 bits reads as a float; the progress
    /// notifications repeat the token as the client wrote it.
    pub fn progress_token(&self) -> Option<&Value> {
        self.state
            .meta
            .progress_token()
            .filter(|token| is_progress_token(token.get()))?;
        self.meta()?.get(PROGRESS_TOKEN)
    }

    /// Reports progress: sends `notifications/progress` with the request's progress token.
    ///
    /// Does nothing when the client asked for no progress (no token), when `progress` is not
    /// greater than the last value reported (progress only goes up), or after the reply.
    pub fn report_progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        // The client's own text, so that any token it can write (`18446744073709551617`,
        // `-0`) comes back as it went, not as serde_json's reading of it.
        let Some(token) = self
            .state
            .meta
            .progress_token()
            .filter(|token| is_progress_token(token.get()))
        else {
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

/// Whether `text` (one JSON value's text) is a progress token: a string or a number, of at
/// most [`MAX_ID_BYTES`](crate::jsonrpc::MAX_ID_BYTES) (a longer one asks for no progress).
fn is_progress_token(text: &str) -> bool {
    text.len() <= crate::jsonrpc::MAX_ID_BYTES
        && text
            .bytes()
            .next()
            .is_some_and(|first| first == b'"' || first == b'-' || first.is_ascii_digit())
}
