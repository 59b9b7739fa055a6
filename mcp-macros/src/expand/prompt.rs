//! `#[mcp_prompt]`: the `Prompt` impl. Every parameter is a prompt argument (decoded from
//! its string) or a value the runtime supplies.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::{Body, Kind, bound_call, completer_expr, option, option_cow};
use crate::ast::{Complete, HandlerFn, Param};
use crate::attr::prompt::{PromptAttr, parse_prompt_attr};
use crate::check;
use crate::paths::{self, Paths, Runtime, Std};
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
    let name = attr.common.name_or(&handler.sig.ident);
    check::prompt(&handler, &attr, &name, &mut errors);

    let paths = Paths::new(attr.common.krate.as_ref());
    let result = paths::std(Std::Result);
    let prompt_result = paths.runtime(Runtime::GetPromptResult);
    let handler_error = paths.runtime(Runtime::HandlerError);
    let kind = Kind {
        noun: "prompt",
        name: name.clone(),
        trait_name: Runtime::Prompt,
        constant: super::constants(quote!(const NAME: &'static str = #name;), &attr.common),
        specs: Runtime::ArgumentSpecs,
        definition: Runtime::PromptDefinition,
        method: "get",
        inputs: vec![("__mcp_args", paths.runtime(Runtime::StringArgs))],
        output: quote!(#result<#prompt_result, #handler_error>),
        at_once: None,
        beside: TokenStream::new(),
    };
    let body = errors
        .is_empty()
        .then(|| body(&handler, &attr, &name, &paths));
    super::handler(&function, &handler, &kind, body, errors, &paths)
}

/// `CompletedParam::check(PhantomData::<Ty>);`, the marker spanned on the parameter's
/// `#[complete(...)]`: a completer on a value the runtime supplies (its type decides) is
/// reported on the attribute, which is the mistake, rather than on the type, which is legal.
fn completed_check(param: &Param, complete: &Complete, paths: &Paths) -> TokenStream {
    let ty = &param.ty;
    let (first, last) = spans::first_last(&complete.attr);
    let completed = paths.runtime(Runtime::CompletedParam);
    let phantom = paths::std(Std::PhantomData);
    let open = spans::respan(quote!(#phantom::<), first);
    let close = quote_spanned!(last=> >);
    quote!(#completed::check(#open #ty #close);)
}

/// The prompt's definition, its parameters and its return value.
fn body(handler: &HandlerFn, attr: &PromptAttr, name: &str, paths: &Paths) -> Body {
    let param_trait = paths.runtime(Runtime::Param);
    let string_args = paths.runtime(Runtime::StringArgs);
    let params = handler
        .params
        .iter()
        .map(|param| {
            let arg_name = check::default_name(&param.ident);
            let description = option(param.description.as_ref());
            let completer = completer_expr(param.completer.as_ref(), paths);
            let describe = bound_call(
                param,
                quote!(#param_trait<#string_args, _>),
                "describe",
                quote!(__mcp_specs, #arg_name, #description, #completer),
            );
            let completed = param
                .completer
                .as_ref()
                .map(|complete| completed_check(param, complete, paths));
            let extract = bound_call(
                param,
                quote!(#param_trait<#string_args, _>),
                "extract",
                quote!(&mut __mcp_args, #arg_name, &__mcp_ctx),
            );
            (quote!(#describe; #completed), extract)
        })
        .collect();
    let ret = handler.return_type();
    let (ret_first, ret_last) = spans::first_last(&ret);
    let into_result = spans::respan(paths.runtime(Runtime::IntoPromptResult), ret_first);
    let open = quote_spanned!(ret_first=> <);
    let close = quote_spanned!(ret_last=> >::into_prompt_result);
    let definition = paths.runtime(Runtime::PromptDefinition);
    let cow = paths::std(Std::Cow);
    let result = paths::std(Std::Result);
    let concat = paths::std(Std::Concat);
    let title = option_cow(attr.common.title.as_ref());
    let description = option_cow(super::description(
        attr.common.description.as_ref(),
        handler.description.as_ref(),
    ));
    Body {
        params,
        definition: quote! {
            #definition {
                name: #cow::Borrowed(#name),
                title: #title,
                description: #description,
            }
        },
        rejected: quote!(#result::Err(__mcp_errors.into_invalid_params(#concat!("arguments for prompt `", #name, "`")))),
        convert: quote!(#open #ret as #into_result #close (__mcp_value)),
        items: TokenStream::new(),
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
        // Both are bound to `Param<StringArgs, _>`, and `name`, which has a completer, must
        // also be an argument the client sends.
        assert_eq!(
            out.matches("Param < :: mcp_runtime :: __private :: StringArgs , _ >")
                .count(),
            4
        );
        assert_eq!(
            out.matches("CompletedParam :: check (:: core :: marker :: PhantomData :: < String >)")
                .count(),
            1,
            "{out}"
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
        assert!(out.contains("my :: rt :: __private :: CompleteFn"));
    }
}
