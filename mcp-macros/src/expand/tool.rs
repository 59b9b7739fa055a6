//! `#[mcp_tool]`: the `Tool` impl, and a guard that makes two tools of one name in one module
//! a compile error where the second name is written.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{Body, Kind, Probe, bound_call, option, option_cow};
use crate::ast::HandlerFn;
use crate::attr::{ToolAttr, parse_tool_attr};
use crate::check;
use crate::paths::{self, Paths, Runtime, Std};

/// Expands `#[mcp_tool(attr)] item`.
pub(crate) fn tool(attr: TokenStream, item: TokenStream) -> TokenStream {
    let super::Read {
        function,
        attr,
        handler,
        mut errors,
    } = match super::read_handler("mcp_tool", attr, item, parse_tool_attr) {
        Ok(read) => read,
        Err(expansion) => return expansion,
    };
    let attr = attr.unwrap_or_default();
    let name = attr.common.name_or(&handler.sig.ident);
    check::tool(&handler, &attr, &name, &mut errors);

    let paths = Paths::new(attr.common.krate.as_ref());
    let kind = Kind {
        noun: "tool",
        name: name.clone(),
        trait_name: Runtime::Tool,
        constant: super::constants(constants(&attr, &name, &paths), &attr.common),
        specs: Runtime::InputSchema,
        definition: Runtime::ToolDefinition,
        method: "call",
        inputs: vec![("__mcp_args", paths.runtime(Runtime::Arguments))],
        output: paths.runtime(Runtime::CallToolResult),
        at_once: Some("CALL_AT_ONCE"),
        beside: name_guard(&handler, &attr, &name),
    };
    let body = errors
        .is_empty()
        .then(|| body(&handler, &attr, &name, &paths));
    super::handler(&function, &handler, &kind, body, errors, &paths)
}

/// `NAME`, `TASK_SUPPORT` when the attribute says the calls may run as tasks, and
/// `DECLARES_SUPPLIED_VALUES`: the definition describes every parameter, so each value the
/// runtime supplies declares itself (a tool taking no `Context` is known not to ask).
fn constants(attr: &ToolAttr, name: &str, paths: &Paths) -> TokenStream {
    let bool_type = paths::std(Std::Bool);
    let name_and_declared = quote! {
        const NAME: &'static str = #name;
        const DECLARES_SUPPLIED_VALUES: #bool_type = true;
    };
    let variant = match attr
        .task_support
        .as_ref()
        .map(syn::LitStr::value)
        .as_deref()
    {
        Some("optional") => "Optional",
        Some("required") => "Required",
        _ => return name_and_declared,
    };
    let support = paths.runtime(Runtime::TaskSupport);
    let variant = syn::Ident::new(variant, proc_macro2::Span::call_site());
    quote! {
        #name_and_declared
        const TASK_SUPPORT: #support = #support::#variant;
    }
}

/// A hidden constant named after the tool, so that two tools of one name in one module
/// collide at compile time, on the second name, in words: "the name
/// `tool_name_x_is_used_twice` is defined multiple times".
fn name_guard(handler: &HandlerFn, attr: &ToolAttr, name: &str) -> TokenStream {
    if check::tool_name_problem(name).is_some() {
        return TokenStream::new();
    }
    let span = attr
        .common
        .name
        .as_ref()
        .map_or_else(|| handler.sig.ident.span(), syn::LitStr::span);
    let guard = syn::Ident::new(&guard_name(name), span);
    quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(non_upper_case_globals, dead_code)]
        const #guard: () = ();
    }
}

/// The guard constant of a (valid) tool name: the name itself when it is an identifier's
/// tail, an escaped form under another prefix when it has `.` or `-`. Distinct names give
/// distinct constants.
fn guard_name(name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return format!("tool_name_{name}_is_used_twice");
    }
    let mut escaped = String::new();
    for c in name.chars() {
        match c {
            '_' => escaped.push_str("__"),
            '.' => escaped.push_str("_d"),
            '-' => escaped.push_str("_h"),
            c => escaped.push(c),
        }
    }
    format!("escaped_tool_name_{escaped}_is_used_twice")
}

/// The tool's definition, its parameters and its return value.
fn body(handler: &HandlerFn, attr: &ToolAttr, name: &str, paths: &Paths) -> Body {
    let option_type = paths::std(Std::Option);
    let param_trait = paths.runtime(Runtime::Param);
    let arguments = paths.runtime(Runtime::Arguments);
    let none = quote!(#option_type::None);
    let params = handler
        .params
        .iter()
        .map(|param| {
            let arg_name = check::default_name(&param.ident);
            let description = option(param.description.as_ref());
            let bound = quote!(#param_trait<#arguments, _>);
            let mirror = param.header.as_ref().map(|header| {
                let name = &header.name;
                let call = bound_call(
                    param,
                    paths.runtime(Runtime::MirroredParam),
                    "mirror",
                    quote!(__mcp_specs, #arg_name, #name),
                );
                quote!(#call;)
            });
            (
                {
                    let call = bound_call(
                        param,
                        bound.clone(),
                        "describe",
                        quote!(__mcp_specs, #arg_name, #description, #none),
                    );
                    quote!(#call; #mirror)
                },
                bound_call(
                    param,
                    bound,
                    "extract",
                    quote!(&mut __mcp_args, #arg_name, &__mcp_ctx),
                ),
            )
        })
        .collect();
    let ret = handler.return_type();
    let probe = Probe {
        returns: Runtime::ToolReturns,
    };
    let output_schema = probe.call(&ret, "output_schema", quote!(&__MCP_OUTPUT), paths);
    let convert = probe.call(&ret, "convert", quote!(__mcp_value, &__MCP_OUTPUT), paths);
    let cow = paths::std(Std::Cow);
    let definition = paths.runtime(Runtime::ToolDefinition);
    let annotations = paths.runtime(Runtime::ToolAnnotations);
    let output_cache = paths.runtime(Runtime::OutputCache);
    let description = super::description(
        attr.common.description.as_ref(),
        handler.description.as_ref(),
    )
    .unwrap_or_else(|| quote!(""));
    let title = option_cow(attr.common.title.as_ref());
    let (read_only, destructive, idempotent, open_world) = (
        option(attr.read_only),
        option(attr.destructive),
        option(attr.idempotent),
        option(attr.open_world),
    );
    Body {
        params,
        definition: quote! {
            #definition {
                name: #cow::Borrowed(#name),
                title: #title,
                description: #option_type::Some(#cow::Borrowed(#description)),
                input_schema: __mcp_specs.finish(),
                output_schema: #output_schema,
                annotations: #annotations {
                    title: #option_type::None,
                    read_only_hint: #read_only,
                    destructive_hint: #destructive,
                    idempotent_hint: #idempotent,
                    open_world_hint: #open_world,
                },
            }
        },
        rejected: quote!(__mcp_errors.into_result(#name, &__mcp_args)),
        convert,
        items: quote!(static __MCP_OUTPUT: #output_cache = #output_cache::new();),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_encode_to_distinct_identifiers() {
        assert_eq!(guard_name("a_b"), "tool_name_a_b_is_used_twice");
        assert_ne!(guard_name("a.b"), guard_name("a_db"));
        assert_ne!(guard_name("a.b"), guard_name("a_d_b"));
        assert_ne!(guard_name("a-b"), guard_name("a_b"));
        assert_ne!(guard_name("a-b"), guard_name("a_hb"));
        assert_ne!(guard_name("x.y"), guard_name("escaped_x_dy"));
    }

    #[test]
    fn the_function_is_emitted_unchanged_but_for_parameter_docs() {
        let out = tool(
            quote!(),
            quote! {
                /// Adds.
                fn add(
                    /// First.
                    a: i64,
                    b: i64,
                ) -> i64 { a + b }
            },
        )
        .to_string();
        // Braces keep rustfmt from dropping the trailing comma the user wrote.
        let expected = quote! {
            #[doc = r" Adds."]
            fn add(a: i64, b: i64,) -> i64 { a + b }
        };
        assert!(out.starts_with(&expected.to_string()));
        assert!(out.contains("struct add"));
        assert!(!out.contains("compile_error"));
    }

    #[test]
    fn only_a_function_that_is_not_async_runs_at_once() {
        let expand = |item: TokenStream| tool(quote!(), item).to_string();
        let plain = expand(quote!(
            /// Adds.
            fn add(a: i64) -> i64 {
                a
            }
        ));
        assert!(plain.contains("const CALL_AT_ONCE"), "{plain}");
        assert!(
            plain.contains(
                &quote!(async move { __mcp_call_at_once(__mcp_ctx, __mcp_args) }).to_string()
            ),
            "{plain}"
        );
        let awaited = expand(quote!(
            /// Adds.
            async fn add(a: i64) -> i64 {
                a
            }
        ));
        assert!(!awaited.contains("CALL_AT_ONCE"), "{awaited}");
        assert!(!awaited.contains("__mcp_call_at_once"), "{awaited}");
    }

    #[test]
    fn a_method_is_emitted_alone_with_its_error() {
        let out = tool(
            quote!(),
            quote!(
                /// Greets.
                fn greet(&self) -> String {
                    String::new()
                }
            ),
        )
        .to_string();
        assert!(out.contains("compile_error"));
        assert!(!out.contains("struct greet"));
        assert!(!out.contains("const _"));
    }

    #[test]
    fn a_struct_is_reported_on_its_keyword_and_name_and_kept() {
        let out = tool(
            quote!(),
            quote!(
                struct Point {
                    x: f64,
                }
            ),
        )
        .to_string();
        assert!(out.contains("not on a struct"));
        assert!(
            out.starts_with(
                &quote!(
                    struct Point {
                        x: f64,
                    }
                )
                .to_string()
            )
        );
    }

    #[test]
    fn a_crate_override_replaces_every_runtime_path() {
        let out = tool(
            quote!(crate = my::rt),
            quote!(
                /// Adds.
                async fn add(a: i64, ctx: Context) -> i64 {
                    a
                }
            ),
        )
        .to_string();
        assert!(!out.contains("mcp_runtime"), "{out}");
        assert!(out.contains("my :: rt :: __private"));
    }

    #[test]
    fn a_missing_description_is_an_error_and_the_item_is_still_emitted() {
        let out = tool(
            quote!(),
            quote!(
                fn add() {}
            ),
        )
        .to_string();
        assert!(out.contains("compile_error"));
        assert!(out.contains("needs a description"));
        assert!(
            out.starts_with(
                &quote!(
                    fn add() {}
                )
                .to_string()
            )
        );
    }
}
