//! `#[mcp_prompt]`: the function as written, a same-named handle type, and its `Prompt` impl.
//! Every parameter is a prompt argument (decoded from its string) or a value the runtime
//! supplies.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::{
    bound_call, completer_expr, description_expr, handle_struct, option_str, stub_handler,
};
use crate::ast::HandlerFn;
use crate::attr::prompt::{PromptAttr, parse_prompt_attr};
use crate::check;
use crate::paths::{self, Paths};
use crate::spans;

/// Expands `#[mcp_prompt(attr)] item`.
pub(crate) fn prompt(attr: TokenStream, item: TokenStream) -> TokenStream {
    let super::Read {
        function,
        attr,
        handler,
        mut errors,
    } = match super::read_handler("mcp_prompt", attr, item, parse_prompt_attr) {
        Ok(read) => read,
        Err(expansion) => return expansion,
    };
    let attr = attr.unwrap_or_default();
    check::signature(&handler, &mut errors);
    let name = attr.name.as_ref().map_or_else(
        || check::default_name(&handler.sig.ident),
        syn::LitStr::value,
    );
    if let Some(literal) = &attr.name
        && name.trim().is_empty()
    {
        errors.at(literal, "a prompt name cannot be empty");
    }

    let paths = Paths::new(attr.krate.as_ref());
    let handle = handle_struct(&handler, &format!("prompt `{name}`"), "prompt");
    let body = if errors.is_empty() {
        prompt_impl(&handler, &attr, &name, &paths)
    } else {
        stub_handler(&handler, &paths, "Prompt")
    };
    super::emit(&function, handle, body, errors)
}

fn prompt_impl(handler: &HandlerFn, attr: &PromptAttr, name: &str, paths: &Paths) -> TokenStream {
    let ident = &handler.sig.ident;
    let option = paths::option();
    let cow = paths::cow();
    let prompt = paths.private("Prompt");
    let specs_ty = paths.private("ArgumentSpecs");
    let string_args = paths.private("StringArgs");
    let definition = paths.private("PromptDefinition");
    let context = paths.private("Context");
    let result_ty = paths.private("GetPromptResult");
    let handler_error = paths.private("HandlerError");
    let param_trait = paths.private("Param");
    let from_arguments = paths.private("FromArguments");
    let into_result = paths.private("IntoPromptResult");
    let registration = paths.private("Registration");
    let inventory = paths.private("inventory");

    // A parameter with `#[complete(...)]` must be an argument, decoded from its string: a
    // value the runtime supplies has nothing to complete.
    let bound = |param: &crate::ast::Param| match param.completer {
        Some(_) => quote!(#param_trait<#string_args, #from_arguments>),
        None => quote!(#param_trait<#string_args, _>),
    };
    let describe = handler.params.iter().map(|param| {
        let arg_name = check::default_name(&param.ident);
        let description = option_str(param.description.as_ref());
        let completer = completer_expr(param.completer.as_ref(), paths);
        let call = bound_call(
            param,
            bound(param),
            "describe",
            quote!(__mcp_specs, #arg_name, #description, #completer),
        );
        quote!(#call;)
    });
    let locals: Vec<syn::Ident> = (0..handler.params.len())
        .map(|i| format_ident!("__mcp_arg_{}", i))
        .collect();
    let extract = handler.params.iter().zip(&locals).map(|(param, local)| {
        let arg_name = check::default_name(&param.ident);
        let call = bound_call(
            param,
            bound(param),
            "extract",
            quote!(&mut __mcp_args, #arg_name, &__mcp_ctx),
        );
        quote!(let #local = __mcp_errors.check(#arg_name, #call);)
    });
    let ret = handler.return_type();
    let title = match &attr.title {
        Some(title) => quote!(#option::Some(#cow::Borrowed(#title))),
        None => quote!(#option::None),
    };
    let description =
        match description_expr(attr.description.as_ref(), handler.description.as_ref()) {
            Some(text) => quote!(#option::Some(#cow::Borrowed(#text))),
            None => quote!(#option::None),
        };
    let (ret_first, ret_last) = spans::first_last(&ret);
    let open = quote_spanned!(ret_first=> <);
    let close = quote_spanned!(ret_last=> >::into_prompt_result);
    let convert = quote!(#open #ret as #into_result #close (__mcp_value));
    let body = super::string_args_body(
        handler,
        &locals,
        extract,
        quote!(::core::concat!("arguments for prompt `", #name, "`")),
        convert,
        paths,
    );

    quote! {
        const _: () = {
            // Serving a prompt its author deprecated is not a use of it.
            #[automatically_derived]
            #[allow(deprecated)]
            impl #prompt for #ident {
                const NAME: &'static str = #name;

                fn definition(__mcp_specs: &mut #specs_ty) -> #definition {
                    #(#describe)*
                    #definition {
                        name: #cow::Borrowed(#name),
                        title: #title,
                        description: #description,
                    }
                }

                #[allow(unused_mut, unused_variables)]
                fn get(
                    __mcp_ctx: #context,
                    mut __mcp_args: #string_args,
                ) -> impl ::core::future::Future<
                    Output = ::core::result::Result<#result_ty, #handler_error>,
                > + ::core::marker::Send + 'static {
                    #body
                }
            }

            #inventory::submit! {
                #registration::prompt::<#ident>()
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_completed_argument_must_be_decoded_from_its_string() {
        let out = prompt(
            quote!(),
            quote!(
                fn congratulate(#[complete(names)] name: String, ctx: Context) -> String {
                    name
                }
            ),
        )
        .to_string();
        assert!(!out.contains("compile_error"), "{out}");
        // `name` is bound to `Param<StringArgs, FromArguments>`, `ctx` to `Param<StringArgs, _>`.
        assert_eq!(
            out.matches(
                "Param < :: mcp_runtime :: __private :: StringArgs , :: mcp_runtime :: __private :: FromArguments >"
            )
            .count(),
            2
        );
        assert_eq!(
            out.matches("Param < :: mcp_runtime :: __private :: StringArgs , _ >")
                .count(),
            2
        );
    }

    #[test]
    fn a_method_is_emitted_alone_with_its_error() {
        let out = prompt(
            quote!(),
            quote!(
                fn congratulate(&self) -> String {
                    String::new()
                }
            ),
        )
        .to_string();
        assert_eq!(out.matches("compile_error").count(), 1, "{out}");
        assert!(!out.contains("struct congratulate"));
    }

    #[test]
    fn a_crate_override_replaces_every_runtime_path() {
        let out = prompt(
            quote!(crate = my::rt),
            quote!(
                async fn congratulate(#[complete(names)] name: String, ctx: Context) -> String {
                    name
                }
            ),
        )
        .to_string();
        assert!(!out.contains("mcp_runtime"), "{out}");
        assert!(out.contains("my :: rt :: completion :: CompleteFn"));
    }
}
