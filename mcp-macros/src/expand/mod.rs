//! Code generation, one file per macro, and what they share. Each takes and returns
//! `proc_macro2::TokenStream`, so expansions can be unit-tested.

mod prompt;
mod resource;
mod tool;

pub(crate) use prompt::prompt;
pub(crate) use resource::resource;
pub(crate) use tool::tool;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use crate::ast::{Complete, HandlerFn, Param};
use crate::check;
use crate::errors::Errors;
use crate::paths::Paths;
use crate::spans;

/// The return-value kind of `ret` for a handler whose rules are `returns`: the runtime's
/// autoref probe, whose most specific level that fits `ret` is chosen (see the runtime's
/// `handler::returns`).
pub(crate) fn return_kind_probe(
    paths: &Paths,
    returns: &TokenStream,
    ret: &impl ToTokens,
) -> TokenStream {
    let kinds = paths.private("kinds");
    let probe = paths.private("Probe");
    quote! {
        {
            #[allow(unused_imports)]
            use #kinds::{
                ViaDirect as _, ViaDirectResult as _, ViaDirectResultOfAnyError as _,
                ViaSerialized as _, ViaSerializedResult as _, ViaSerializedResultOfAnyError as _,
                ViaUnsupported as _,
            };
            (&&&&&&#probe::<#returns, #ret>::new()).__mcp_return_kind()
        }
    }
}

/// `<Ty as Trait>::method(args)`, spanned from the parameter type's first token to its last, so
/// that an unsatisfied bound underlines the whole type (see [`spans`]), once even when the
/// bound is named twice.
pub(crate) fn bound_call(
    param: &Param,
    bound: TokenStream,
    method: &str,
    args: TokenStream,
) -> TokenStream {
    let ty = &param.ty;
    let (first, last) = spans::first_last(ty);
    let bound = spans::respan(bound, first);
    let method = syn::Ident::new(method, last);
    let open = quote_spanned!(first=> <);
    let close = quote_spanned!(last=> >::);
    let args = quote_spanned!(last=> (#args));
    quote!(#open #ty as #bound #close #method #args)
}

/// `Trait::method(PhantomData::<Ty>, args)`, for a bound about the whole parameter: the trait
/// finds its `Self` in the marker argument, which spans from the parameter's name to the end
/// of its type, so an unsatisfied bound underlines `name: Type` (the trait's method takes
/// `PhantomData<Self>`).
pub(crate) fn param_bound_call(
    param: &Param,
    trait_path: TokenStream,
    method: &str,
    args: TokenStream,
) -> TokenStream {
    let ty = &param.ty;
    let first = param.ident.span();
    let (_, last) = spans::first_last(ty);
    let trait_path = spans::respan(trait_path, first);
    let method = syn::Ident::new(method, last);
    let marker_open = spans::respan(quote!(::core::marker::PhantomData::<), first);
    let marker_close = quote_spanned!(last=> >);
    let args = quote_spanned!(last=> (#marker_open #ty #marker_close, #args));
    quote!(#trait_path::#method #args)
}

/// `Option<Completer>` of a parameter's `#[complete(path)]`.
///
/// The completer is made by `CompleteFn::into_completer(path)`, a call of the trait's own
/// method, so a path that names no completer is reported on the path alone, with the trait's
/// message and none of the notes a generic function's bound would add.
pub(crate) fn completer_expr(complete: Option<&Complete>, paths: &Paths) -> TokenStream {
    let option = crate::paths::option();
    let Some(Complete { path, .. }) = complete else {
        return quote!(#option::None);
    };
    let (first, last) = spans::first_last(path);
    let trait_path = spans::respan(paths.root("CompleteFn"), first);
    let method = syn::Ident::new("into_completer", last);
    let args = quote_spanned!(last=> (#path));
    quote!(#option::Some(#trait_path::#method #args))
}

/// The async body of a resource's or prompt's generated method: obtain every parameter
/// (collecting errors, returned together as invalid params naming `subject`), call the
/// function, and `convert` its value (`__mcp_value`).
pub(crate) fn string_args_body(
    handler: &HandlerFn,
    locals: &[syn::Ident],
    extract: impl Iterator<Item = TokenStream>,
    subject: TokenStream,
    convert: TokenStream,
    paths: &Paths,
) -> TokenStream {
    let ident = &handler.sig.ident;
    let option = crate::paths::option();
    let arg_errors = paths.private("ArgErrors");
    let ret = handler.return_type();
    let await_call = handler.sig.asyncness.map(|_| quote!(.await));
    quote! {
        async move {
            let mut __mcp_errors = #arg_errors::new();
            #(#extract)*
            let (#(#option::Some(#locals),)*) = (#(#locals,)*) else {
                return ::core::result::Result::Err(__mcp_errors.into_invalid_params(#subject));
            };
            let __mcp_value: #ret = #ident(#(#locals),*) #await_call;
            #convert
        }
    }
}

/// `Option<&str>` of a parameter's description.
pub(crate) fn option_str(description: Option<&TokenStream>) -> TokenStream {
    match description {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    }
}

/// The description: the attribute's, else the doc comment's.
pub(crate) fn description_expr(
    attr: Option<&syn::LitStr>,
    doc: Option<&TokenStream>,
) -> Option<TokenStream> {
    attr.map(ToTokens::to_token_stream).or_else(|| doc.cloned())
}

/// `pub struct name {}`: the handle a server builder names, in the type namespace only.
pub(crate) fn handle_struct(handler: &HandlerFn, what: &str, builder_method: &str) -> TokenStream {
    let ident = &handler.sig.ident;
    let vis = &handler.vis;
    let doc = format!(
        "The MCP {what}, generated on [`{ident}()`]: pass it to `ServerBuilder::{builder_method}::<{ident}>()`.",
        ident = check::default_name(ident),
    );
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #ident {}
    }
}

/// For a method (`self`): the function with its errors and nothing else. A method sits in an
/// `impl` block, where a struct or a `const _` cannot: emitting the handle would only add
/// errors to the one about `self`.
/// What every handler macro reads first: the function (or the error for something that is
/// not one), its attribute (`None` when it did not parse: the error is recorded), and the
/// parameters. A method gets its one error and nothing else.
pub(crate) struct Read<A> {
    pub(crate) function: syn::ItemFn,
    pub(crate) attr: Option<A>,
    pub(crate) handler: HandlerFn,
    pub(crate) errors: Errors,
}

/// Reads `#[<macro_name>(attr)] item`; `Err` holds the whole expansion when nothing more can
/// be generated.
pub(crate) fn read_handler<A>(
    macro_name: &str,
    attr: TokenStream,
    item: TokenStream,
    parse_attr: fn(TokenStream) -> syn::Result<A>,
) -> Result<Read<A>, TokenStream> {
    let mut errors = Errors::default();
    let mut function: syn::ItemFn = match syn::parse2(item.clone()) {
        Ok(function) => function,
        Err(_) => {
            not_a_function(macro_name, &item, &mut errors);
            let errors = errors.into_compile_errors();
            return Err(quote!(#item #errors));
        }
    };
    let attr = match parse_attr(attr) {
        Ok(attr) => Some(attr),
        Err(error) => {
            errors.push(error);
            None
        }
    };
    let handler = HandlerFn::take(&mut function, &mut errors);
    if function.sig.receiver().is_some() {
        return Err(method_alone(&function, errors));
    }
    Ok(Read {
        function,
        attr,
        handler,
        errors,
    })
}

/// The expansion: the function as written, its handle type, the trait impl (or its stub) and
/// the errors.
pub(crate) fn emit(
    function: &syn::ItemFn,
    handle: TokenStream,
    body: TokenStream,
    errors: Errors,
) -> TokenStream {
    let errors = errors.into_compile_errors();
    quote! {
        #function
        #handle
        #body
        #errors
    }
}

pub(crate) fn method_alone(function: &syn::ItemFn, errors: Errors) -> TokenStream {
    let errors = errors.into_compile_errors();
    quote!(#function #errors)
}

/// After an error: an impl of `trait_name` that compiles without looking at the function, so
/// uses of the handle elsewhere add no errors of their own.
pub(crate) fn stub_handler(handler: &HandlerFn, paths: &Paths, trait_name: &str) -> TokenStream {
    let ident = &handler.sig.ident;
    let trait_path = paths.private(trait_name);
    let specs = paths.private("ArgumentSpecs");
    let context = paths.private("Context");
    let args = paths.private("StringArgs");
    let error = paths.private("HandlerError");
    let (constant, definition, method, output) = match trait_name {
        "Resource" => (
            quote!(
                const URI: &'static str = "";
            ),
            paths.private("ResourceDefinition"),
            quote!(read(_: #context, _: ::std::string::String, _: #args)),
            {
                let contents = paths.private("ResourceContents");
                quote!(::std::vec::Vec<#contents>)
            },
        ),
        _ => (
            quote!(
                const NAME: &'static str = "";
            ),
            paths.private("PromptDefinition"),
            quote!(get(_: #context, _: #args)),
            paths.private("GetPromptResult"),
        ),
    };
    quote! {
        const _: () = {
            impl #trait_path for #ident {
                #constant
                fn definition(_: &mut #specs) -> #definition {
                    ::core::unreachable!()
                }
                fn #method -> impl ::core::future::Future<
                    Output = ::core::result::Result<#output, #error>,
                > + ::core::marker::Send + 'static {
                    async { ::core::unreachable!() }
                }
            }
        };
    }
}

/// Reports an attribute macro on something other than a function, on its keyword and name.
pub(crate) fn not_a_function(macro_name: &str, item: &TokenStream, errors: &mut Errors) {
    fn head(keyword: impl ToTokens, name: impl ToTokens) -> TokenStream {
        quote!(#keyword #name)
    }
    let (tokens, kind) = match syn::parse2::<syn::Item>(item.clone()) {
        Ok(syn::Item::Struct(item)) => (head(item.struct_token, item.ident), "a struct"),
        Ok(syn::Item::Enum(item)) => (head(item.enum_token, item.ident), "an enum"),
        Ok(syn::Item::Union(item)) => (head(item.union_token, item.ident), "a union"),
        Ok(syn::Item::Trait(item)) => (head(item.trait_token, item.ident), "a trait"),
        Ok(syn::Item::Mod(item)) => (head(item.mod_token, item.ident), "a module"),
        Ok(syn::Item::Const(item)) => (head(item.const_token, item.ident), "a constant"),
        Ok(syn::Item::Static(item)) => (head(item.static_token, item.ident), "a static"),
        Ok(syn::Item::Type(item)) => (head(item.type_token, item.ident), "a type alias"),
        Ok(syn::Item::Impl(item)) => (
            head(item.impl_token, item.self_ty),
            "an `impl` block (a method cannot be a handler either: write a free function)",
        ),
        _ => (item.clone(), "this item"),
    };
    errors.at(
        tokens,
        format!(
            "`#[{macro_name}]` goes on a function, not on {kind}: `fn name(arguments) -> result`"
        ),
    );
}
