//! `#[mcp_resource]`: the function as written, a same-named handle type, and its `Resource`
//! impl. Parameters named like a template variable are decoded from the URI; every other
//! parameter must be supplied by the runtime (`Context`, `State<T>`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::{bound_call, description_expr, handle_struct, option_str, stub_handler};
use crate::ast::HandlerFn;
use crate::attr::resource::{ResourceAttr, parse_resource_attr};
use crate::check::{self, uri};
use crate::errors::Errors;
use crate::paths::{self, Paths};
use crate::spans;

/// Expands `#[mcp_resource(attr)] item`.
pub(crate) fn resource(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Errors::default();
    let mut function: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            super::not_a_function("mcp_resource", &item, &mut errors);
            let errors = errors.into_compile_errors();
            return quote!(#item #errors);
        }
    };
    let attr_span = attr.clone();
    let attr = parse_resource_attr(attr).unwrap_or_else(|error| {
        errors.push(error);
        ResourceAttr::default()
    });
    let handler = HandlerFn::take(&mut function, &mut errors);
    check::signature(&handler, &mut errors);
    let variables = check_uri(&handler, &attr, attr_span, &mut errors);
    check_annotations(&attr, &mut errors);

    let paths = Paths::new(attr.krate.as_ref());
    let name = attr
        .name
        .as_ref()
        .map_or_else(|| check::default_name(&handler.sig.ident), syn::LitStr::value);
    let handle = handle_struct(&handler, &format!("resource `{name}`"), "resource");
    let body = match (&attr.uri, errors.is_empty()) {
        (Some(uri), true) => resource_impl(&handler, &attr, uri, &name, &variables, &paths),
        _ => stub_handler(&handler, &paths, "Resource"),
    };
    let errors = errors.into_compile_errors();
    quote! {
        #function
        #handle
        #body
        #errors
    }
}

/// Checks the URI or template against the function; returns the template's variables.
fn check_uri(handler: &HandlerFn, attr: &ResourceAttr, attr_tokens: TokenStream, errors: &mut Errors) -> Vec<String> {
    let Some(literal) = &attr.uri else {
        let at = if attr_tokens.is_empty() {
            quote!(#[mcp_resource])
        } else {
            attr_tokens
        };
        errors.at(at, "#[mcp_resource] needs the resource's address: `uri = \"scheme://...\"`, or a URI template such as `uri = \"gifts://catalog/{category}\"`");
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
        errors.at(literal, format!("invalid resource URI: {problem}"));
    }
    for variable in &variables {
        if !handler.params.iter().any(|p| check::default_name(&p.ident) == *variable) {
            errors.at(
                literal,
                format!(
                    "the URI template's variable `{variable}` has no parameter: add `{variable}: String` (or another type parsed from text) to the function"
                ),
            );
        }
    }
    variables
}

fn check_annotations(attr: &ResourceAttr, errors: &mut Errors) {
    if let Some(audience) = &attr.audience {
        for role in audience.value().split(',') {
            if !matches!(role.trim(), "user" | "assistant") {
                errors.at(
                    audience,
                    format!("unknown audience {:?}: use \"user\", \"assistant\" or \"user, assistant\"", role.trim()),
                );
            }
        }
    }
    if let Some(priority) = &attr.priority {
        match priority.base10_parse::<f64>() {
            Ok(value) if (0.0..=1.0).contains(&value) => {}
            _ => errors.at(priority, "a priority is a number from 0.0 (optional) to 1.0 (required)"),
        }
    }
    if let Some(size) = &attr.size
        && size.base10_parse::<u64>().is_err()
    {
        errors.at(size, "a size is a whole number of bytes");
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
    let arg_errors = paths.private("ArgErrors");
    let completer = paths.private("Completer");
    let string_param = paths.root("StringParam");
    let supplied = paths.private("SuppliedParam");
    let probe = paths.private("ResourceProbe");
    let output = paths.private("ResourceOutput");
    let kinds = paths.private("resource_kinds");
    let registration = paths.private("ResourceRegistration");
    let inventory = paths.private("inventory");

    let is_variable = |param: &crate::ast::Param| variables.contains(&check::default_name(&param.ident));
    let describe = handler.params.iter().map(|param| {
        let arg_name = check::default_name(&param.ident);
        if is_variable(param) {
            let description = option_str(param.description.as_ref());
            let completer = match &param.completer {
                Some(path) => quote!(#option::Some(#completer::new(#path))),
                None => quote!(#option::None),
            };
            let call = bound_call(param, quote!(#string_param<_>), "describe", quote!(__mcp_specs, #arg_name, #description, #completer));
            quote!(#call;)
        } else {
            let call = bound_call(param, supplied.clone(), "declare", quote!(__mcp_specs.requirements()));
            quote!(#call;)
        }
    });
    let locals: Vec<syn::Ident> = (0..handler.params.len())
        .map(|i| format_ident!("__mcp_arg_{}", i))
        .collect();
    let extract = handler.params.iter().zip(&locals).map(|(param, local)| {
        let arg_name = check::default_name(&param.ident);
        let call = if is_variable(param) {
            bound_call(param, quote!(#string_param<_>), "extract", quote!(&mut __mcp_vars, #arg_name, &__mcp_ctx))
        } else {
            bound_call(param, supplied.clone(), "supply", quote!(&__mcp_ctx))
        };
        quote!(let #local = __mcp_errors.check(#arg_name, #call);)
    });
    let await_call = handler.sig.asyncness.map(|_| quote!(.await));
    let ret = handler.return_type();
    let uri_text = uri.value();
    let is_template = uri::is_template(&uri_text);
    let title = match &attr.title {
        Some(title) => quote!(#option::Some(#cow::Borrowed(#title))),
        None => quote!(#option::None),
    };
    let description = match description_expr(attr.description.as_ref(), handler.description.as_ref()) {
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
    let priority = attr.priority.as_ref().map(|p| quote!(#option::Some(#p)));
    let annotations = if audience.is_some() || priority.is_some() {
        let audience = audience.unwrap_or_else(|| quote!(#option::None));
        let priority = priority.unwrap_or_else(|| quote!(#option::None));
        quote!(#option::Some(#annotations { audience: #audience, priority: #priority, last_modified: #option::None }))
    } else {
        quote!(#option::None)
    };
    let (ret_first, ret_last) = spans::first_last(&ret);
    let probe_call = quote_spanned! {ret_first=>
        {
            #[allow(unused_imports)]
            use #kinds::{
                ViaExplicit as _, ViaExplicitResult as _, ViaJson as _, ViaJsonResult as _,
                ViaUnsupported as _,
            };
            (&&&&#probe::<#ret>::new()).__mcp_resource_kind()
        }
    };
    let contents_call = quote_spanned! {ret_last=>
        #output::<#ret>::contents(&#probe_call, __mcp_value, &__mcp_uri, #mime)
    };

    quote! {
        const _: () = {
            #[automatically_derived]
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
                    async move {
                        let mut __mcp_errors = #arg_errors::new();
                        #(#extract)*
                        let (#(#option::Some(#locals),)*) = (#(#locals,)*) else {
                            return ::core::result::Result::Err(
                                __mcp_errors.into_invalid_params(::core::concat!("URI for resource `", #uri, "`")),
                            );
                        };
                        let __mcp_value: #ret = #ident(#(#locals),*) #await_call;
                        #contents_call
                    }
                }
            }

            #inventory::submit! {
                #registration::of::<#ident>()
            }
        };
    }
}
