//! The tools a server exposes: registered by `#[mcp_tool]` anywhere in the program, or chosen
//! one by one, then frozen in name order when the server is built.

use std::sync::{Arc, OnceLock};

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{Arguments, InputSchema, Tool};
use crate::context::Context;
use crate::error::BuildProblem;
use crate::handler::{BoxFuture, Calls, Entry, Kind, Registration};
use crate::protocol::{
    CallToolResult, MirroredArgument, Revision, ToolDefinition, WireTool, mirrored_arguments,
};
use crate::tasks::TaskSupport;

impl Registration<ToolKind> {
    /// The registration of tool `T` (generated code submits one per `#[mcp_tool]`).
    pub const fn tool<T: Tool>() -> Registration<ToolKind> {
        Registration::new(ToolEntry::of::<T>)
    }
}

inventory::collect!(Registration<ToolKind>);

/// The kind of handler `#[mcp_tool]` and `DynamicTool` make.
///
/// `pub` because the public `Registration` generated code submits is generic over it; no
/// path outside the crate names it.
#[doc(hidden)]
#[derive(Debug)]
pub enum ToolKind {}

/// A tool ready to be listed and called.
pub(crate) type ToolEntry = Entry<ToolKind>;

/// What only a tool keeps.
#[doc(hidden)]
pub struct ToolDetails {
    /// The arguments its schema mirrors into HTTP headers (`x-mcp-header`).
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) mirrored: Vec<MirroredArgument>,
    /// Why its schema's `x-mcp-header` annotations cannot be served, if they cannot.
    header_problem: Option<String>,
    /// Whether its calls may run as tasks.
    pub(crate) task_support: TaskSupport,
    /// Its `inputSchema`, made when first listed (the entry's `definition.input_schema` is
    /// then empty), kept as the JSON text lists write: as a `Map`, a few small schemas took
    /// kilobytes of the heap for as long as the server ran.
    input_schema: OnceLock<Box<RawValue>>,
    /// Makes the `inputSchema` of a tool described without schemas.
    describe: fn() -> Map<String, Value>,
}

impl ToolDetails {
    /// The tool's `inputSchema`, made now if it was not yet.
    pub(crate) fn input_schema(&self) -> &RawValue {
        self.input_schema
            .get_or_init(|| schema_text(&(self.describe)()))
    }
}

/// A schema as the JSON text a list writes for it (one copy, not inlined into the three places
/// that make one).
#[inline(never)]
fn schema_text(schema: &Map<String, Value>) -> Box<RawValue> {
    serde_json::value::to_raw_value(schema).expect("a JSON map is written without error")
}

/// The `inputSchema` of tool `T`, described with schemas.
fn input_schema_of<T: Tool>() -> Map<String, Value> {
    input_schema_by(T::definition)
}

/// [`input_schema_of`] given the tool's `definition`: the same code for every tool, so the
/// making and dropping of a schema generator is compiled once, not in every tool's crate.
#[inline(never)]
fn input_schema_by(definition: fn(&mut InputSchema) -> ToolDefinition) -> Map<String, Value> {
    definition(&mut InputSchema::new()).input_schema
}

/// What [`ToolEntry::of`] knows of a tool type besides its definition and its calls.
struct Described {
    describe: fn() -> Map<String, Value>,
    location: &'static str,
    task_support: TaskSupport,
    scopes: &'static [&'static str],
}

/// The mirrored arguments, or none and why.
fn split(
    mirrored: Result<Vec<MirroredArgument>, String>,
) -> (Vec<MirroredArgument>, Option<String>) {
    match mirrored {
        Ok(mirrored) => (mirrored, None),
        Err(problem) => (Vec::new(), Some(problem)),
    }
}

/// Never called: the schema of a tool that has it from the start.
fn described_already() -> Map<String, Value> {
    Map::new()
}

impl Kind for ToolKind {
    const NAME: &'static str = "tool";
    type Definition = ToolDefinition;
    type Details = ToolDetails;
    type Input = Arguments;
    type Output = CallToolResult;

    fn key(entry: &ToolEntry) -> &str {
        &entry.definition.name
    }

    fn wire(entry: &ToolEntry, revision: Revision) -> impl serde::Serialize {
        WireTool::new(&entry.definition, entry.details.input_schema(), revision)
    }

    fn refused(why: String) -> CallToolResult {
        CallToolResult::error(why)
    }

    fn problem(entry: &ToolEntry) -> Option<BuildProblem> {
        if let Some(problem) = &entry.details.header_problem {
            return Some(BuildProblem::InvalidDefinition {
                kind: "tool",
                name: entry.name().to_owned(),
                problem: problem.clone(),
            });
        }
        let refused =
            !cfg!(feature = "tasks") && entry.details.task_support != TaskSupport::Forbidden;
        refused.then(|| BuildProblem::TasksNotEnabled {
            tool: entry.name().to_owned(),
            location: entry.location.to_owned(),
        })
    }
}

impl ToolEntry {
    pub(crate) fn of<T: Tool>() -> ToolEntry {
        if !T::DECLARES_SUPPLIED_VALUES {
            // Its `call` holds the `Context`, and nothing says it does not ask.
            crate::sealed_state::link_sealing();
        }
        // A constant: the call's future, never used by a tool that runs at once, is then not
        // even compiled into the binary for it.
        let call = match T::CALL_AT_ONCE {
            Some(run) => Calls::AtOnce(run),
            None => Calls::Awaited(Arc::new(|ctx, args| Box::pin(T::call(ctx, args)))),
        };
        let described = Described {
            describe: input_schema_of::<T>,
            location: std::any::type_name::<T>(),
            task_support: T::TASK_SUPPORT,
            scopes: T::SCOPES,
        };
        ToolEntry::described(T::definition, described, call)
    }

    /// [`of`](Self::of) given the tool's `define`: the same code for every tool (its
    /// definition and schema made and dropped here, not in every tool's crate).
    fn described(
        define: fn(&mut InputSchema) -> ToolDefinition,
        described: Described,
        call: Calls<ToolKind>,
    ) -> ToolEntry {
        // What the build checks, without the schemas (made when the tools are first listed).
        let mut schema = InputSchema::requirements_only();
        let mut definition = define(&mut schema);
        let input_schema = OnceLock::new();
        let mut mirrored = Ok(Vec::new());
        if schema.mirrors {
            // The mirrored arguments are read from the schema, and checked on every call.
            let described = (described.describe)();
            mirrored = mirrored_arguments(&described);
            let _ = input_schema.set(schema_text(&described));
        }
        let (mirrored, header_problem) = split(mirrored);
        let details = ToolDetails {
            mirrored,
            header_problem,
            task_support: described.task_support,
            input_schema,
            describe: described.describe,
        };
        definition.input_schema = Map::new();
        let states = std::mem::take(&mut schema.requirements.states);
        let scopes = crate::auth::Scopes::Declared(described.scopes);
        Entry::with_calls(
            definition,
            described.location,
            states,
            scopes,
            details,
            call,
        )
    }

    /// A tool built at run time.
    pub(crate) fn dynamic(
        mut definition: ToolDefinition,
        scopes: crate::auth::Scopes,
        task_support: TaskSupport,
        call: impl Fn(Context, Arguments) -> BoxFuture<CallToolResult> + Send + Sync + 'static,
    ) -> ToolEntry {
        // Its `call` takes the `Context`, and may ask the client.
        crate::sealed_state::link_sealing();
        let (mirrored, header_problem) = split(mirrored_arguments(&definition.input_schema));
        let details = ToolDetails {
            mirrored,
            header_problem,
            task_support,
            input_schema: OnceLock::from(schema_text(&std::mem::take(
                &mut definition.input_schema,
            ))),
            describe: described_already,
        };
        let location = crate::error::MADE_AT_RUN_TIME;
        Entry::new(definition, location, Vec::new(), scopes, details, call)
    }

    pub(crate) fn name(&self) -> &str {
        &self.definition.name
    }

    /// Whether its structured results reach a client of `revision` as `{"result": value}`.
    pub(crate) fn wraps_values(&self, revision: Revision) -> bool {
        self.definition
            .output_schema
            .as_ref()
            .is_some_and(|schema| schema.wraps_values(revision))
    }
}

/// The frozen set of tools, sorted by name.
pub(crate) type ToolRegistry = crate::catalog::Catalog<ToolEntry>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CallToolResult;

    /// A tool that reads state and takes one structured argument, described by hand.
    struct Lookup;

    /// Its one argument.
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Query {
        /// Where to look.
        place: String,
        limit: Option<u32>,
    }

    impl Tool for Lookup {
        const NAME: &'static str = "lookup";

        fn definition(schema: &mut InputSchema) -> ToolDefinition {
            schema.requirements.state::<u8>();
            schema.add::<Query>("query", Some("What to find."));
            ToolDefinition {
                name: "lookup".into(),
                title: None,
                description: Some("Looks up.".into()),
                input_schema: schema.finish(),
                output_schema: None,
                annotations: Default::default(),
            }
        }

        async fn call(_ctx: Context, _args: Arguments) -> CallToolResult {
            CallToolResult::text("found")
        }
    }

    /// A tool's entry knows what it needs at once, and makes its `inputSchema` only when it is
    /// first listed: the same schema the tool describes with schemas.
    #[test]
    fn the_input_schema_is_made_when_first_listed_and_is_the_described_one() {
        let entry = ToolEntry::of::<Lookup>();
        assert_eq!(entry.needs_state.len(), 1);
        assert!(entry.details.input_schema.get().is_none(), "made at once");
        let described = Lookup::definition(&mut InputSchema::new()).input_schema;
        assert!(
            described["properties"]["query"].is_object(),
            "{described:?}"
        );
        assert_eq!(
            entry.details.input_schema().get(),
            serde_json::to_string(&described).unwrap()
        );
        let wire = serde_json::to_value(ToolKind::wire(&entry, Revision::LATEST)).unwrap();
        assert_eq!(wire["inputSchema"], Value::Object(described));
    }

    /// Without the `tasks` feature nothing could run the tool as a task: the build says so,
    /// naming the tool and the feature, for `"optional"` as for `"required"`.
    #[cfg(not(feature = "tasks"))]
    #[test]
    fn a_tool_with_task_support_needs_the_tasks_feature() {
        use crate::{DynamicTool, Implementation, Server};

        for support in [TaskSupport::Optional, TaskSupport::Required] {
            let tool = DynamicTool::new("slow", "Takes a while.")
                .task_support(support)
                .handler(|_, _| async { CallToolResult::text("done") });
            let error = Server::builder(Implementation::new("t", "1"))
                .dynamic_tool(tool)
                .build()
                .err()
                .expect("the build refuses the tool");
            let message = error.to_string();
            assert!(message.contains("tool `slow`"), "{message}");
            assert!(message.contains("`tasks` feature"), "{message}");
        }
    }
}
