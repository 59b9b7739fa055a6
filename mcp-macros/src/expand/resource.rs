//! `#[mcp_resource]`: the function as written, a same-named handle type, and its `Resource`
//! impl. Parameters named like a template variable are decoded from the URI; every other
//! parameter must be supplied by the runtime (`Context`, `State<T>`).

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};

use super::{
    bound_call, completer_expr, description_expr, handle_struct, option_str, param_bound_call,
    stub_handler,
};
use crate::ast::HandlerFn;
use crate::attr::resource::{PRIORITY, ResourceAttr, parse_resource_attr};
use crate::check::{self, uri};
use crate::errors::Errors;
use crate::paths::{self, Paths};
use crate::spans;

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
    // An attribute that does not parse has been reported; its `uri` is then unknown rather
    // than missing, and nothing is checked against it.
    let attr_parsed = attr.is_some();
    let attr = attr.unwrap_or_default();
    check::signature(&handler, &mut errors);
    let variables = if attr_parsed {
        check_uri(&handler, &attr, attr_tokens, &mut errors)
    } else {
        Vec::new()
    };
    check_completers(&handler, &variables, &mut errors);
    check_annotations(&attr, &mut errors);

    let paths = Paths::new(attr.krate.as_ref());
    let name = attr.name.as_ref().map_or_else(
        || check::default_name(&handler.sig.ident),
        syn::LitStr::value,
    );
    let handle = handle_struct(&handler, &format!("resource `{name}`"), "resource");
    let body = match (&attr.uri, errors.is_empty()) {
        (Some(uri), true) => resource_impl(&handler, &attr, uri, &name, &variables, &paths),
        _ => stub_handler(&handler, &paths, "Resource"),
    };
    super::emit(&function, handle, body, errors)
}

/// Checks the URI or template against the function; returns the template's variables.
fn check_uri(
    handler: &HandlerFn,
    attr: &ResourceAttr,
    attr_tokens: TokenStream,
    errors: &mut Errors,
) -> Vec<String> {
    let Some(literal) = &attr.uri else {
        let at = if attr_tokens.is_empty() {
            quote!(#[mcp_resource])
        } else {
            attr_tokens
        };
        errors.at(
            at,
            "`#[mcp_resource]` needs a `uri`: the resource's address, `uri = \"gifts://catalog\"`, or a URI template whose `{variables}` are parameters of the function, `uri = \"gifts://catalog/{category}\"`",
        );
        return Vec::new();
    };
    let text = literal.value();
    let variables = if uri::is_template(&text) {
        match uri::template_variables(&text) {
            Ok(variables) => variables,
            Err(problem) => {
                errors.at(literal, format!("invalid URI template: {problem}"));
                return Vec::new();
            }
        }
    } else {
        Vec::new()
    };
    let literal_parts: String = text.split(['{', '}']).step_by(2).collect();
    if let Some(problem) = uri::absolute_uri_problem(&literal_parts) {
        errors.at(literal, format!("invalid resource URI {text:?}: {problem}"));
    }
    // A parameter that is not a plain name has been reported, and may be the one a variable
    // names.
    if handler.all_named {
        for variable in &variables {
            if !handler
                .params
                .iter()
                .any(|p| check::default_name(&p.ident) == *variable)
            {
                errors.at(
                    literal,
                    format!(
                        "the URI template's variable `{variable}` has no parameter: add a parameter `{variable}: String` (or another type decoded from text) to the function, or remove the variable from the template"
                    ),
                );
            }
        }
    }
    variables
}

/// `#[complete(...)]` suggests values for a URI variable: on any other parameter (a value the
/// runtime supplies) it would have nothing to complete.
fn check_completers(handler: &HandlerFn, variables: &[String], errors: &mut Errors) {
    for param in &handler.params {
        let name = check::default_name(&param.ident);
        if let Some(complete) = &param.completer
            && !variables.contains(&name)
        {
            errors.at(
                &complete.attr,
                format!(
                    "`#[complete(...)]` suggests values for a URI template variable, and the `uri` has no `{{{name}}}`: remove it, or add `{{{name}}}` to the template"
                ),
            );
        }
    }
}

fn check_annotations(attr: &ResourceAttr, errors: &mut Errors) {
    if let Some(audience) = &attr.audience {
        for role in audience.value().split(',') {
            if !matches!(role.trim(), "user" | "assistant") {
                errors.at(
                    audience,
                    format!(
                        "unknown audience {:?}: use \"user\", \"assistant\" or \"user, assistant\"",
                        role.trim()
                    ),
                );
            }
        }
    }
    if let Some(priority) = &attr.priority
        && !(0.0..=1.0).contains(&priority.value)
    {
        errors.at(
            &priority.literal,
            format!(
                "priority {} is out of range: {PRIORITY}",
                priority.literal.to_token_stream()
            ),
        );
    }
}

fn resource_impl(
    handler: &HandlerFn,
    attr: &ResourceAttr,
    uri: &syn::LitStr,
    name: &str,
    variables: &[String],
    paths: &Paths,
) -> TokenStream {
    let ident = &handler.sig.ident;
    let option = paths::option();
    let cow = paths::cow();
    let resource = paths.private("Resource");
    let specs_ty = paths.private("ArgumentSpecs");
    let string_args = paths.private("StringArgs");
    let definition = paths.private("ResourceDefinition");
    let annotations = paths.private("Annotations");
    let role_path = paths.private("Role");
    let context = paths.private("Context");
    let contents = paths.private("ResourceContents");
    let handler_error = paths.private("HandlerError");
    let param_trait = paths.private("Param");
    let from_arguments = paths.private("FromArguments");
    let supplied = paths.private("SuppliedParam");
    let convert = paths.private("Convert");
    let returns = paths.private("ResourceReturns");
    let registration = paths.private("Registration");
    let inventory = paths.private("inventory");

    let is_variable =
        |param: &crate::ast::Param| variables.contains(&check::default_name(&param.ident));
    // A variable's value comes from the URI, so its type is decoded from text
    // (`Param<StringArgs, FromArguments>`, not a value the runtime supplies); any other parameter
    // must be supplied, an error reported on `name: Type`.
    let variable_bound = quote!(#param_trait<#string_args, #from_arguments>);
    let describe = handler.params.iter().map(|param| {
        let arg_name = check::default_name(&param.ident);
        if is_variable(param) {
            let description = option_str(param.description.as_ref());
            let completer = completer_expr(param.completer.as_ref(), paths);
            let call = bound_call(
                param,
                variable_bound.clone(),
                "describe",
                quote!(__mcp_specs, #arg_name, #description, #completer),
            );
            quote!(#call;)
        } else {
            let call = param_bound_call(
                param,
                supplied.clone(),
                "declare_as",
                quote!(__mcp_specs.requirements()),
            );
            quote!(#call;)
        }
    });
    let locals: Vec<syn::Ident> = (0..handler.params.len())
        .map(|i| format_ident!("__mcp_arg_{}", i))
        .collect();
    let extract = handler.params.iter().zip(&locals).map(|(param, local)| {
        let arg_name = check::default_name(&param.ident);
        let call = if is_variable(param) {
            bound_call(
                param,
                variable_bound.clone(),
                "extract",
                quote!(&mut __mcp_vars, #arg_name, &__mcp_ctx),
            )
        } else {
            param_bound_call(param, supplied.clone(), "supply_as", quote!(&__mcp_ctx))
        };
        quote!(let #local = __mcp_errors.check(#arg_name, #call);)
    });
    let ret = handler.return_type();
    let uri_text = uri.value();
    let is_template = uri::is_template(&uri_text);
    let title = match &attr.title {
        Some(title) => quote!(#option::Some(#cow::Borrowed(#title))),
        None => quote!(#option::None),
    };
    let description =
        match description_expr(attr.description.as_ref(), handler.description.as_ref()) {
            Some(text) => quote!(#option::Some(#cow::Borrowed(#text))),
            None => quote!(#option::None),
        };
    let mime = match &attr.mime_type {
        Some(mime) => quote!(#option::Some(#mime)),
        None => quote!(#option::None),
    };
    let mime_cow = match &attr.mime_type {
        Some(mime) => quote!(#option::Some(#cow::Borrowed(#mime))),
        None => quote!(#option::None),
    };
    let size = match &attr.size {
        Some(size) => quote!(#option::Some(#size)),
        None => quote!(#option::None),
    };
    let audience = attr.audience.as_ref().map(|audience| {
        let roles = audience.value();
        let roles = roles.split(',').map(|role| match role.trim() {
            "user" => quote!(#role_path::User),
            _ => quote!(#role_path::Assistant),
        });
        quote!(#option::Some(::std::vec![#(#roles),*]))
    });
    let priority = attr.priority.as_ref().map(|p| {
        let value = p.value;
        quote!(#option::Some(#value))
    });
    let annotations = if audience.is_some() || priority.is_some() {
        let audience = audience.unwrap_or_else(|| quote!(#option::None));
        let priority = priority.unwrap_or_else(|| quote!(#option::None));
        quote!(#option::Some(#annotations { audience: #audience, priority: #priority, last_modified: #option::None }))
    } else {
        quote!(#option::None)
    };
    let (ret_first, ret_last) = spans::first_last(&ret);
    let probe = super::return_kind_probe(paths, &returns, &ret);
    // `Convert::<ResourceReturns, Ret>::convert(&__mcp_kind, ..)`, its path and its first
    // argument spanned from the return type's first token to its last: an unsupported return
    // type is reported there, once, with `IntoResourceContents`'s message.
    let contents_call = {
        let open = spans::respan(convert, ret_first);
        let method = syn::Ident::new("convert", ret_last);
        let close = quote_spanned!(ret_last=> >::#method);
        let amp = quote_spanned!(ret_first=> &);
        let kind = syn::Ident::new("__mcp_kind", ret_last);
        quote! {{
            let __mcp_kind = #probe;
            #open::<#returns, #ret #close(#amp #kind, __mcp_value, (&__mcp_uri, #mime))
        }}
    };

    let body = super::string_args_body(
        handler,
        &locals,
        extract,
        quote!(::core::concat!("URI for resource `", #uri, "`")),
        contents_call,
        paths,
    );

    quote! {
        const _: () = {
            // Serving a resource its author deprecated is not a use of it.
            #[automatically_derived]
            #[allow(deprecated)]
            impl #resource for #ident {
                const URI: &'static str = #uri;

                fn definition(__mcp_specs: &mut #specs_ty) -> #definition {
                    #(#describe)*
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
                }

                #[allow(unused_mut, unused_variables)]
                fn read(
                    __mcp_ctx: #context,
                    __mcp_uri: ::std::string::String,
                    mut __mcp_vars: #string_args,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<::std::vec::Vec<#contents>, #handler_error>,
                > + ::core::marker::Send + 'static {
                    #body
                }
            }

            #inventory::submit! {
                #registration::resource::<#ident>()
            }
        };
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
