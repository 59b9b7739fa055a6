//! `tracing` events inside a handler, sent to the client as MCP log messages (feature
//! `tracing`, opt-in).
//!
//! With the layer installed, an event emitted while a tool, resource or prompt handler runs
//! (`tracing::info!("cache miss")`, in the handler or in a library it calls) reaches the client
//! that made the request as `notifications/message`: the level mapped to MCP's (`TRACE` and
//! `DEBUG` to `debug`, `WARN` to `warning`), the event's target as `logger`, and its message and
//! fields as `data`. Events outside handlers are left to the other layers (log them to stderr,
//! never stdout, in stdio mode).
//!
//! Besides `mcp-runtime` with the `tracing` feature, the program needs `tracing = "0.1"` (for
//! the events) and `tracing-subscriber = "0.3"` (to install the layer).
//!
//! ```
//! use mcp_runtime::log_bridge::McpLogLayer;
//! use mcp_runtime::prelude::*;
//! use tracing_subscriber::prelude::*;
//!
//! /// Looks a word up in the dictionary.
//! #[mcp_tool]
//! fn define(word: String) -> String {
//!     tracing::info!("looking up {word}"); // reaches the client that called the tool
//!     format!("{word}: a word")
//! }
//!
//! fn main() {
//!     tracing_subscriber::registry().with(McpLogLayer::new()).init();
//! #   let server = mcp_runtime::Server::builder(mcp_runtime::server_info!()).tool::<define>().build().unwrap();
//! #   tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! #       let client = mcp_runtime::testing::TestClient::new(&server);
//! #       client.initialize().await.unwrap();
//! #       client.call_tool("define", serde_json::json!({"word": "tea"})).await.unwrap();
//! #       let log = client.next_message(std::time::Duration::from_secs(5)).await.unwrap();
//! #       assert_eq!(log["method"], "notifications/message");
//! #       assert_eq!(log["params"]["data"], "looking up tea");
//! #   });
//!     // ... mcp_runtime::server!().run()
//! }
//! ```

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};
use tracing::field::{Field, Visit};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context as LayerContext, Layer};

use crate::context::{LoggingLevel, RequestState, SessionLink, send_log};

/// Where the events of the handler running on this task go.
#[derive(Clone)]
pub(crate) struct LogTarget {
    pub(crate) session: Arc<dyn SessionLink>,
    pub(crate) state: Arc<RequestState>,
}

tokio::task_local! {
    pub(crate) static CURRENT: LogTarget;
}

/// The layer that forwards handler events to the client; see the module docs.
#[derive(Clone, Copy, Debug, Default)]
pub struct McpLogLayer {
    _private: (),
}

impl McpLogLayer {
    /// A layer forwarding every level (the client's `logging/setLevel` still filters).
    pub fn new() -> McpLogLayer {
        McpLogLayer::default()
    }
}

impl<S: Subscriber> Layer<S> for McpLogLayer {
    fn on_event(&self, event: &Event<'_>, _ctx: LayerContext<'_, S>) {
        let _ = CURRENT.try_with(|target| {
            let level = match *event.metadata().level() {
                Level::TRACE | Level::DEBUG => LoggingLevel::Debug,
                Level::INFO => LoggingLevel::Info,
                Level::WARN => LoggingLevel::Warning,
                Level::ERROR => LoggingLevel::Error,
            };
            let mut fields = JsonFields(Map::new());
            event.record(&mut fields);
            let data = match (fields.0.len(), fields.0.get("message")) {
                (1, Some(message)) => message.clone(),
                _ => Value::Object(fields.0),
            };
            send_log(
                &*target.session,
                &target.state,
                level,
                Some(event.metadata().target()),
                &data,
            );
        });
    }
}

struct JsonFields(Map<String, Value>);

impl Visit for JsonFields {
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0
            .insert(field.name().to_owned(), Value::from(format!("{value:?}")));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().to_owned(), Value::from(value));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.0.insert(field.name().to_owned(), Value::from(value));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.0.insert(field.name().to_owned(), Value::from(value));
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        self.0.insert(field.name().to_owned(), Value::from(value));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.0.insert(field.name().to_owned(), Value::from(value));
    }
}
