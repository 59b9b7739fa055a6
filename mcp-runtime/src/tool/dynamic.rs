//! Tools built at run time from a name, a schema and a closure, rather than with
//! `#[mcp_tool]`: for tools whose existence or shape is only known while the server runs.

use crate::tasks::TaskSupport;
use std::future::Future;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::ToolEntry;
use crate::context::Context;
use crate::error::BuildProblem;
use crate::handler::BoxFuture;
use crate::protocol::{CallToolResult, OutputSchema, ToolAnnotations, ToolDefinition};

type Handler = Arc<dyn Fn(Context, Map<String, Value>) -> BoxFuture<CallToolResult> + Send + Sync>;

/// A tool described and implemented at run time.
///
/// ```
/// use mcp_runtime::{CallToolResult, DynamicTool};
///
/// let tool = DynamicTool::new("greet_ana", "Greets Ana.")
///     .handler(|_ctx, _arguments| async { CallToolResult::text("Hello, Ana!") });
/// ```
pub struct DynamicTool {
    definition: ToolDefinition,
    handler: Option<Handler>,
    scopes: Vec<String>,
    task_support: TaskSupport,
}

impl DynamicTool {
    /// A tool named `name` (1 to 128 of `A-Za-z0-9_.-`) that does what `description` says.
    /// It takes no arguments until [`input_schema`](Self::input_schema) says otherwise.
    pub fn new(name: impl Into<String>, description: impl Into<String>) -> DynamicTool {
        let Value::Object(empty) = json!({"type": "object", "properties": {}}) else {
            unreachable!()
        };
        DynamicTool {
            definition: ToolDefinition {
                name: name.into().into(),
                title: None,
                description: Some(description.into().into()),
                input_schema: empty,
                output_schema: None,
                annotations: ToolAnnotations::default(),
            },
            handler: None,
            scopes: Vec::new(),
            task_support: TaskSupport::Forbidden,
        }
    }

    /// Sets the `inputSchema`, served exactly as given (any JSON Schema dialect the client
    /// understands); its root must be an object schema.
    ///
    /// A property with `"x-mcp-header": "Name"` is mirrored into the `Mcp-Param-Name` HTTP
    /// header of revision 2026-07-28, and checked against it on every call, also when it is a
    /// property of an object argument. The rules of server/tools "x-mcp-header" are checked
    /// when the tool is added, since a client drops a tool that breaks them: the name an
    /// HTTP token, unique within the tool ignoring case; the property an integer, string or
    /// boolean (or one of them or null), reached from the root through `properties` alone.
    #[must_use]
    pub fn input_schema(mut self, schema: Map<String, Value>) -> DynamicTool {
        self.definition.input_schema = schema;
        self
    }

    /// Sets the `outputSchema`: the schema of the `structuredContent` the handler returns,
    /// any JSON Schema. A schema that describes objects is served as given (a choice among
    /// object schemas with `"type": "object"` added at its root). Any other (a
    /// list, a number) is served as given to clients of revision 2026-07-28, which allows
    /// values of any JSON type; clients of the 2025 revisions, which allow only objects, get
    /// it wrapped as `{"type": "object", "properties": {"result": schema}}` and each
    /// `structuredContent` as `{"result": value}` (see [`OutputSchema`]). The handler returns
    /// the value itself in either case.
    #[must_use]
    pub fn output_schema(mut self, schema: Map<String, Value>) -> DynamicTool {
        self.definition.output_schema = Some(OutputSchema::new(schema));
        self
    }

    /// Sets the human-readable title.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> DynamicTool {
        self.definition.title = Some(title.into().into());
        self
    }

    /// Sets the behaviour hints.
    #[must_use]
    pub fn annotations(mut self, annotations: ToolAnnotations) -> DynamicTool {
        self.definition.annotations = annotations;
        self
    }

    /// The OAuth scopes an access token must grant to call the tool, as
    /// `#[mcp_tool(scopes = [...])]` declares them for a function (see
    /// [`auth`](crate::auth)). A scope that is not an OAuth scope token (printable ASCII but
    /// space, `"` and `\`) makes [`build`](crate::ServerBuilder::build) fail, saying which.
    #[must_use]
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> DynamicTool {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Whether its calls may run as tasks of the tasks extension (revision 2026-07-28; see
    /// [`tasks`](crate::tasks)); never by default. Anything but [`TaskSupport::Forbidden`]
    /// needs the crate's `tasks` feature: without it the server refuses the tool when it is
    /// built or added.
    #[must_use]
    pub fn task_support(mut self, support: TaskSupport) -> DynamicTool {
        self.task_support = support;
        self
    }

    /// Sets what a call does: an async closure from the context and the `arguments` object
    /// to the result.
    #[must_use]
    pub fn handler<F, Fut>(mut self, handler: F) -> DynamicTool
    where
        F: Fn(Context, Map<String, Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = CallToolResult> + Send + 'static,
    {
        self.handler = Some(Arc::new(move |ctx, args| Box::pin(handler(ctx, args))));
        self
    }

    pub(crate) fn into_entry(self) -> Result<ToolEntry, BuildProblem> {
        if let Some(problem) = crate::tool::name_problem(&self.definition.name) {
            return Err(BuildProblem::InvalidDefinition {
                kind: "tool",
                name: self.definition.name.to_string(),
                problem,
            });
        }
        if self.definition.input_schema.get("type") != Some(&json!("object")) {
            return Err(BuildProblem::InvalidDefinition {
                kind: "tool",
                name: self.definition.name.to_string(),
                problem: "its inputSchema must have `\"type\": \"object\"` at the root".to_owned(),
            });
        }
        if let Some(problem) = self
            .scopes
            .iter()
            .find_map(|s| crate::auth::scope_problem(s))
        {
            return Err(BuildProblem::InvalidDefinition {
                kind: "tool",
                name: self.definition.name.to_string(),
                problem,
            });
        }
        let handler = self.handler.unwrap_or_else(|| {
            Arc::new(|_, _| Box::pin(async { CallToolResult::error("this tool has no handler") }))
        });
        let scopes = crate::auth::Scopes::Given(self.scopes.into());
        let call = move |ctx, args: super::Arguments| handler(ctx, args.into_map());
        let entry = ToolEntry::dynamic(self.definition, scopes, self.task_support, call);
        Ok(entry)
    }
}
