//! `#[mcp_resource]`: the `Resource` impl. Parameters named like a template variable are
//! decoded from the URI; every other parameter must be supplied by the runtime (`Context`,
//! `State<T>`).

use proc_macro2::TokenStream;
use quote::quote;

use super::{Body, Kind, Probe, bound_call, completer_expr, option, option_cow, param_bound_call};
use crate::ast::{HandlerFn, Param};
use crate::attr::resource::{ResourceAttr, parse_resource_attr};
use crate::check::{self, uri};
use crate::paths::{self, Paths, Runtime, Std};

/// Expands `#[mcp_resource(attr)] item`.
pub(crate) fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    let attr_tokens = attr.clone();
    let super::Read {
        function,
        attr,
        handler,
        mut errors,
    } = match super::read_handler("mcp_resource", attr, item, parse_resource_attr) {
        Ok(read) => read,
        Err(expansion) => return expansion,
    };
    let variables = check::resource(&handler, attr.as_ref(), attr_tokens, &mut errors);
    let attr = attr.unwrap_or_default();

    let paths = Paths::new(attr.common.krate.as_ref());
    let name = attr.common.name_or(&handler.sig.ident);
    let uri = attr
        .uri
        .as_ref()
        .map(syn::LitStr::value)
        .unwrap_or_default();
    let string = paths::std(Std::String);
    let vec = paths::std(Std::Vec);
    let result = paths::std(Std::Result);
    let contents = paths.runtime(Runtime::ResourceContents);
    let handler_error = paths.runtime(Runtime::HandlerError);
    let kind = Kind {
        noun: "resource",
        name: name.clone(),
        trait_name: Runtime::Resource,
        constant: super::constants(
            {
                let cache = cache_constants(&attr, &paths);
                quote!(const URI: &'static str = #uri; #cache)
            },
            &attr.common,
        ),
        specs: Runtime::ArgumentSpecs,
        definition: Runtime::ResourceDefinition,
        method: "read",
        inputs: vec![
            ("__mcp_uri", string),
            ("__mcp_args", paths.runtime(Runtime::StringArgs)),
        ],
        output: quote!(#result<#vec<#contents>, #handler_error>),
        at_once: None,
        beside: TokenStream::new(),
    };
    let body = match &attr.uri {
        Some(uri) if errors.is_empty() => {
            Some(body(&handler, &attr, uri, &name, &variables, &paths))
        }
        _ => None,
    };
    super::handler(&function, &handler, &kind, body, errors, &paths)
}

/// `CACHE_TTL` and `CACHE_SCOPE`, for the keys given (a scope that is neither word has been
/// reported, and is left out).
fn cache_constants(attr: &ResourceAttr, paths: &Paths) -> TokenStream {
    let option = paths::std(Std::Option);
    let ttl = attr.cache_ttl_ms.as_ref().map(|ttl| {
        let duration = paths::std(Std::Duration);
        let millis = syn::LitInt::new(&ttl.millis.to_string(), ttl.literal.span());
        quote! {
            const CACHE_TTL: #option<#duration> =
                #option::Some(#duration::from_millis(#millis));
        }
    });
    let scope = attr.cache_scope.as_ref().and_then(|scope| {
        let variant = match scope.value().as_str() {
            "public" => quote!(Public),
            "private" => quote!(Private),
            _ => return None,
        };
        let cache_scope = paths.runtime(Runtime::CacheScope);
        Some(quote! {
            const CACHE_SCOPE: #option<#cache_scope> = #option::Some(#cache_scope::#variant);
        })
    });
    quote!(#ttl #scope)
}

/// The resource's definition, its parameters and its return value.
fn body(
    handler: &HandlerFn,
    attr: &ResourceAttr,
    uri: &syn::LitStr,
    name: &str,
    variables: &[String],
    paths: &Paths,
) -> Body {
    let param_trait = paths.runtime(Runtime::Param);
    let string_args = paths.runtime(Runtime::StringArgs);
    let from_arguments = paths.runtime(Runtime::FromArguments);
    let supplied = paths.runtime(Runtime::SuppliedParam);
    // A variable's value comes from the URI, so its type is decoded from text
    // (`Param<StringArgs, FromArguments>`, not a value the runtime supplies); any other parameter
    // must be supplied, an error reported on `name: Type`.
    let variable_bound = quote!(#param_trait<#string_args, #from_arguments>);
    let params = handler
        .params
        .iter()
        .map(|param: &Param| {
            let arg_name = check::default_name(&param.ident);
            if variables.contains(&arg_name) {
                let description = option(param.description.as_ref());
                let completer = completer_expr(param.completer.as_ref(), paths);
                let describe = bound_call(
                    param,
                    variable_bound.clone(),
                    "describe",
                    quote!(__mcp_specs, #arg_name, #description, #completer),
                );
                let extract = bound_call(
                    param,
                    variable_bound.clone(),
                    "extract",
                    quote!(&mut __mcp_args, #arg_name, &__mcp_ctx),
                );
                (quote!(#describe;), extract)
            } else {
                let describe = param_bound_call(
                    param,
                    supplied.clone(),
                    "declare_as",
                    quote!(__mcp_specs.requirements()),
                );
                let supply =
                    param_bound_call(param, supplied.clone(), "supply_as", quote!(&__mcp_ctx));
                (quote!(#describe;), supply)
            }
        })
        .collect();

    let option_type = paths::std(Std::Option);
    let cow = paths::std(Std::Cow);
    let result = paths::std(Std::Result);
    let concat = paths::std(Std::Concat);
    let vec_macro = paths::std(Std::VecMacro);
    let definition = paths.runtime(Runtime::ResourceDefinition);
    let annotations = paths.runtime(Runtime::Annotations);
    let role_type = paths.runtime(Runtime::Role);
    let is_template = uri::is_template(&uri.value());
    let title = option_cow(attr.common.title.as_ref());
    let description = option_cow(super::description(
        attr.common.description.as_ref(),
        handler.description.as_ref(),
    ));
    let mime = option(attr.mime_type.as_ref());
    let mime_cow = option_cow(attr.mime_type.as_ref());
    let size = option(attr.size.as_ref());
    let audience = attr.audience.as_ref().map(|audience| {
        let roles = audience.value();
        let roles = roles.split(',').map(|role| match role.trim() {
            "user" => quote!(#role_type::User),
            _ => quote!(#role_type::Assistant),
        });
        quote!(#vec_macro![#(#roles),*])
    });
    let priority = attr.priority.as_ref().map(|p| p.value);
    let annotations = if audience.is_some() || priority.is_some() {
        let audience = option(audience);
        let priority = option(priority);
        quote!(#option_type::Some(#annotations { audience: #audience, priority: #priority, last_modified: #option_type::None }))
    } else {
        quote!(#option_type::None)
    };
    let probe = Probe {
        returns: Runtime::ResourceReturns,
    };
    let convert = probe.call(
        &handler.return_type(),
        "convert",
        quote!(__mcp_value, (&__mcp_uri, #mime)),
        paths,
    );
    Body {
        params,
        definition: quote! {
            #definition {
                uri: #cow::Borrowed(#uri),
                is_template: #is_template,
                name: #cow::Borrowed(#name),
                title: #title,
                description: #description,
                mime_type: #mime_cow,
                size: #size,
                annotations: #annotations,
            }
        },
        rejected: quote!(#result::Err(__mcp_errors.into_invalid_params(#concat!("URI for resource `", #uri, "`")))),
        convert,
        items: TokenStream::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand(attr: TokenStream, item: TokenStream) -> String {
        resource(attr, item).to_string()
    }

    fn error_count(out: &str) -> usize {
        out.matches("compile_error").count()
    }

    #[test]
    fn the_function_is_emitted_without_parameter_docs_and_completers() {
        let out = expand(
            quote!(uri = "gifts://catalog/{category}"),
            quote! {
                /// A category.
                fn category(
                    /// Its name.
                    #[complete(names)]
                    category: String,
                ) -> String { category }
            },
        );
        let expected = quote! {
            #[doc = r" A category."]
            fn category(category: String,) -> String { category }
        };
        assert!(out.starts_with(&expected.to_string()), "{out}");
        assert!(out.contains("into_completer"));
        assert_eq!(error_count(&out), 0, "{out}");
    }

    #[test]
    fn a_broken_attribute_is_one_error_not_also_a_missing_uri() {
        let out = expand(
            quote!(uri = "gifts://catalog", mimetype = "text/plain"),
            quote!(
                fn catalog() -> String {
                    String::new()
                }
            ),
        );
        assert_eq!(error_count(&out), 1, "{out}");
        assert!(out.contains("did you mean `mime_type`?"));
    }

    #[test]
    fn a_pattern_parameter_is_one_error_not_also_a_missing_variable() {
        let out = expand(
            quote!(uri = "gifts://price/{amount}"),
            quote!(
                fn price((amount, currency): (f64, String)) -> String {
                    String::new()
                }
            ),
        );
        assert_eq!(error_count(&out), 1, "{out}");
        assert!(out.contains("must be a plain name"));
    }

    #[test]
    fn a_completer_on_a_parameter_that_is_no_variable_is_an_error() {
        let out = expand(
            quote!(uri = "gifts://catalog"),
            quote!(
                fn catalog(#[complete(requests)] ctx: Context) -> String {
                    String::new()
                }
            ),
        );
        assert_eq!(error_count(&out), 1, "{out}");
        assert!(out.contains("the `uri` has no `{ctx}`"));
    }

    #[test]
    fn a_method_is_emitted_alone_with_its_error() {
        let out = expand(
            quote!(uri = "gifts://shop"),
            quote!(
                fn name(&self) -> String {
                    String::new()
                }
            ),
        );
        assert_eq!(error_count(&out), 1, "{out}");
        assert!(!out.contains("struct name"));
        assert!(!out.contains("const _"));
    }

    #[test]
    fn a_crate_override_replaces_every_runtime_path() {
        let out = expand(
            quote!(uri = "gifts://catalog/{category}", crate = my::rt),
            quote!(
                async fn category(#[complete(names)] category: String, ctx: Context) -> Vec<u8> {
                    Vec::new()
                }
            ),
        );
        assert!(!out.contains("mcp_runtime"), "{out}");
        assert!(out.contains("my :: rt :: __private"));
    }
}
