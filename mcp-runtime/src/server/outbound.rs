//! Where a session's messages go: the transport's writer, with optional tracing to stderr.

use std::sync::Arc;

/// The sending half of a transport: one call per complete JSON message.
#[derive(Clone)]
pub(crate) struct Outbound {
    send: Arc<dyn Fn(Vec<u8>) + Send + Sync>,
    /// Ends the stream this sink feeds, when the transport has such a thing (an HTTP
    /// response's event stream): the client then resumes it with `Last-Event-ID`.
    close: Option<Arc<dyn Fn() + Send + Sync>>,
    trace: bool,
}

impl Outbound {
    pub(crate) fn new(trace: bool, send: impl Fn(Vec<u8>) + Send + Sync + 'static) -> Outbound {
        Outbound {
            send: Arc::new(send),
            close: None,
            trace,
        }
    }

    /// Adds what [`close_stream`](Self::close_stream) does.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn with_close(mut self, close: impl Fn() + Send + Sync + 'static) -> Outbound {
        self.close = Some(Arc::new(close));
        self
    }

    /// Ends the current stream, if the transport has one; true if it did.
    pub(crate) fn close_stream(&self) -> bool {
        match &self.close {
            Some(close) => {
                close();
                true
            }
            None => false,
        }
    }

    pub(crate) fn send(&self, message: Vec<u8>) {
        if self.trace {
            trace("->", &message);
        }
        (self.send)(message);
    }
}

/// Writes one raw message to stderr with its direction, id and method.
pub(crate) fn trace(direction: &str, message: &[u8]) {
    let text = String::from_utf8_lossy(message);
    let parsed: Option<serde_json::Value> = serde_json::from_slice(message).ok();
    let field = |name: &str| {
        parsed
            .as_ref()
            .and_then(|value| value.get(name))
            .map(|value| value.to_string())
    };
    let id = field("id").unwrap_or_else(|| "-".to_owned());
    let method = field("method")
        .map(|m| format!(" {}", m.trim_matches('"')))
        .unwrap_or_default();
    eprintln!("[mcp {direction}] id={id}{method} {}", text.trim_end());
}
