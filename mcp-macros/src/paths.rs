//! Every path generated code uses, in one table. All are absolute, so a user's own `Result`,
//! `Option` or `mcp_runtime` module cannot capture them. The runtime is reached only through
//! its hidden `__private` module, under `::mcp_runtime` or the root `crate = path` gives.

use proc_macro2::TokenStream;
use quote::quote;

/// The items of the runtime's `__private` module that generated code names.
#[derive(Clone, Copy)]
pub(crate) enum Runtime {
    // What every handler uses.
    Context,
    HandlerError,
    ArgErrors,
    Inventory,
    /// How a parameter is obtained: `Param<Source, Marker>`.
    Param,
    /// The marker of a parameter decoded from the request's arguments.
    FromArguments,
    /// A handler's registration: `Registration::tool::<T>()`, `::resource`, `::prompt`.
    Registration,
    /// The return-value engine: `Probe::<Rules, Ret>`, its kinds' `Convert::<Rules, Ret>`, and
    /// the module of the kind traits (`ViaDirect`, ...).
    Probe,
    Convert,
    ReturnKinds,
    // Tools.
    Tool,
    ToolDefinition,
    ToolAnnotations,
    InputSchema,
    Arguments,
    CallToolResult,
    OutputCache,
    /// A tool's return rules.
    ToolReturns,
    /// What a parameter with `#[header(...)]` must be: a string, an integer or a boolean.
    MirroredParam,
    // Prompts and resources: arguments that arrive as strings.
    ArgumentSpecs,
    StringArgs,
    SuppliedParam,
    CompleteFn,
    /// The check that a parameter with `#[complete(...)]` is an argument.
    CompletedParam,
    // Prompts.
    Prompt,
    PromptDefinition,
    GetPromptResult,
    IntoPromptResult,
    // Resources.
    Resource,
    ResourceDefinition,
    ResourceContents,
    /// A resource's return rules.
    ResourceReturns,
    Annotations,
    Role,
    /// Who may share a cached read: `CacheScope::Public`, `CacheScope::Private`.
    CacheScope,
    /// Whether a tool's calls may run as tasks: `TaskSupport::Optional`, `TaskSupport::Required`.
    TaskSupport,
}

impl Runtime {
    /// The item's name in `__private`.
    fn name(self) -> &'static str {
        match self {
            Runtime::Context => "Context",
            Runtime::HandlerError => "HandlerError",
            Runtime::ArgErrors => "ArgErrors",
            Runtime::Inventory => "inventory",
            Runtime::Param => "Param",
            Runtime::FromArguments => "FromArguments",
            Runtime::Registration => "Registration",
            Runtime::Probe => "Probe",
            Runtime::Convert => "Convert",
            Runtime::ReturnKinds => "kinds",
            Runtime::Tool => "Tool",
            Runtime::ToolDefinition => "ToolDefinition",
            Runtime::ToolAnnotations => "ToolAnnotations",
            Runtime::InputSchema => "InputSchema",
            Runtime::Arguments => "Arguments",
            Runtime::CallToolResult => "CallToolResult",
            Runtime::OutputCache => "OutputCache",
            Runtime::ToolReturns => "ToolReturns",
            Runtime::MirroredParam => "MirroredParam",
            Runtime::ArgumentSpecs => "ArgumentSpecs",
            Runtime::StringArgs => "StringArgs",
            Runtime::SuppliedParam => "SuppliedParam",
            Runtime::CompleteFn => "CompleteFn",
            Runtime::CompletedParam => "CompletedParam",
            Runtime::Prompt => "Prompt",
            Runtime::PromptDefinition => "PromptDefinition",
            Runtime::GetPromptResult => "GetPromptResult",
            Runtime::IntoPromptResult => "IntoPromptResult",
            Runtime::Resource => "Resource",
            Runtime::ResourceDefinition => "ResourceDefinition",
            Runtime::ResourceContents => "ResourceContents",
            Runtime::ResourceReturns => "ResourceReturns",
            Runtime::Annotations => "Annotations",
            Runtime::Role => "Role",
            Runtime::CacheScope => "CacheScope",
            Runtime::TaskSupport => "TaskSupport",
        }
    }
}

/// The items of `core` and `std` that generated code names.
#[derive(Clone, Copy)]
pub(crate) enum Std {
    Option,
    Result,
    Cow,
    String,
    Vec,
    Future,
    Send,
    PhantomData,
    /// The macro `concat!` (followed by `!` where used).
    Concat,
    /// The macro `unreachable!`.
    Unreachable,
    /// The macro `vec!`.
    VecMacro,
    Duration,
    Bool,
}

/// The path of a standard item.
pub(crate) fn std(item: Std) -> TokenStream {
    match item {
        Std::Option => quote!(::core::option::Option),
        Std::Result => quote!(::core::result::Result),
        Std::Cow => quote!(::std::borrow::Cow),
        Std::String => quote!(::std::string::String),
        Std::Vec => quote!(::std::vec::Vec),
        Std::Future => quote!(::core::future::Future),
        Std::Send => quote!(::core::marker::Send),
        Std::PhantomData => quote!(::core::marker::PhantomData),
        Std::Concat => quote!(::core::concat),
        Std::Unreachable => quote!(::core::unreachable),
        Std::VecMacro => quote!(::std::vec),
        Std::Duration => quote!(::core::time::Duration),
        Std::Bool => quote!(::core::primitive::bool),
    }
}

/// The runtime paths of one expansion.
pub(crate) struct Paths {
    root: TokenStream,
}

impl Paths {
    /// Paths under `root` (by default `::mcp_runtime`).
    pub(crate) fn new(root: Option<&syn::Path>) -> Paths {
        Paths {
            root: root.map_or_else(|| quote!(::mcp_runtime), |path| quote!(#path)),
        }
    }

    /// `<root>::__private::<item>`.
    pub(crate) fn runtime(&self, item: Runtime) -> TokenStream {
        let root = &self.root;
        let name = syn::Ident::new(item.name(), proc_macro2::Span::call_site());
        quote!(#root::__private::#name)
    }
}

/// The traits of `Runtime::ReturnKinds`, one per level of the probe.
pub(crate) const RETURN_KINDS: &[&str] = &[
    "ViaDirectResult",
    "ViaSerializedOptionResult",
    "ViaSerializedResult",
    "ViaDirect",
    "ViaSerializedOption",
    "ViaSerialized",
    "ViaDirectResultOfAnyError",
    "ViaSerializedResultOfAnyError",
    "ViaSerializedInPartResult",
    "ViaDescribedInPartResult",
    "ViaSerializedInPart",
    "ViaDescribedInPart",
    "ViaUnsupported",
];

#[cfg(test)]
mod tests {
    use quote::quote;

    /// Every runtime path of an expansion under `crate = my::rt`.
    fn runtime_paths(expansion: proc_macro2::TokenStream) -> Vec<String> {
        let text = expansion.to_string();
        assert!(!text.contains("mcp_runtime"), "{text}");
        text.match_indices("my :: rt :: ")
            .map(|(at, _)| text[at..].split_whitespace().take(6).collect())
            .collect()
    }

    #[test]
    fn generated_code_reaches_the_runtime_only_through_private() {
        let expansions = [
            crate::expand::tool(
                quote!(crate = my::rt),
                quote!(
                    /// Adds.
                    async fn add(a: i64, ctx: Context) -> i64 {
                        a
                    }
                ),
            ),
            crate::expand::resource(
                quote!(
                    uri = "x://{a}",
                    crate = my::rt,
                    audience = "user",
                    priority = 1
                ),
                quote!(
                    /// A.
                    fn a(#[complete(names)] a: String, ctx: Context) -> String {
                        a
                    }
                ),
            ),
            crate::expand::prompt(
                quote!(crate = my::rt),
                quote!(
                    /// Says hello.
                    fn hello(#[complete(names)] name: String, ctx: Context) -> String {
                        name
                    }
                ),
            ),
        ];
        for expansion in expansions {
            let paths = runtime_paths(expansion);
            assert!(!paths.is_empty());
            for path in paths {
                assert!(path.starts_with("my::rt::__private::"), "{path}");
            }
        }
    }
}
