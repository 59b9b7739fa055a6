//! Code generation: one engine ([`handler`]) for the three macros, each of which describes
//! what its kind of handler adds ([`Kind`], [`Body`]) in its own file. Every function takes and
//! returns `proc_macro2::TokenStream`, so expansions are unit-tested.
//!
//! For `fn suggest_gifts(..)` the expansion is the function as written, a braced struct
//! `suggest_gifts` (the handle: it lives in the type namespace, so it does not clash with the
//! function, and it is what `ServerBuilder::tool::<suggest_gifts>()` names), and the trait impl
//! and registration, nested in the struct's one field so that they exist only where the struct
//! does: on a function inside an `impl` block, where no struct can be, the expansion is one
//! error instead of one per generated item.

mod prompt;
mod resource;
mod tool;

pub(crate) use prompt::prompt;
pub(crate) use resource::resource;
pub(crate) use tool::tool;

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};

use crate::ast::{Complete, HandlerFn, Param};
use crate::check;
use crate::errors::Errors;
use crate::paths::{self, Paths, Runtime, Std};
use crate::spans;

/// What one kind of handler generates around the shared parts, known even when there are
/// errors (a stub impl of the trait is then generated from it).
pub(crate) struct Kind {
    /// `"tool"`: in the handle's doc, which also names `ServerBuilder::<noun>`.
    pub(crate) noun: &'static str,
    /// The handler's name (or URI), in the handle's doc.
    pub(crate) name: String,
    /// The runtime trait the handle implements.
    pub(crate) trait_name: Runtime,
    /// The trait's constants: `const NAME: &'static str = "add";`, and `SCOPES` when the
    /// attribute names scopes.
    pub(crate) constant: TokenStream,
    /// What `definition` fills in (as `__mcp_specs`).
    pub(crate) specs: Runtime,
    /// What `definition` returns.
    pub(crate) definition: Runtime,
    /// The method a request calls.
    pub(crate) method: &'static str,
    /// The method's inputs after the context (`__mcp_ctx`): each variable's name and type.
    pub(crate) inputs: Vec<(&'static str, TokenStream)>,
    /// The output of the future the method returns.
    pub(crate) output: TokenStream,
    /// The trait's constant naming what runs a call to its end with no future, for a
    /// function that is not `async` (`CALL_AT_ONCE`), if the kind has one.
    pub(crate) at_once: Option<&'static str>,
    /// Items beside the handle, in the user's module (a tool's name guard).
    pub(crate) beside: TokenStream,
}

/// What one kind of handler generates when the function has no errors.
pub(crate) struct Body {
    /// For each parameter: the statement declaring it in `definition` (to `__mcp_specs`), and
    /// the expression obtaining it for one request (an `Option`, from `__mcp_ctx` and the
    /// inputs, its error recorded in `__mcp_errors`).
    pub(crate) params: Vec<(TokenStream, TokenStream)>,
    /// The value `definition` returns.
    pub(crate) definition: TokenStream,
    /// What a request gets when a parameter could not be obtained.
    pub(crate) rejected: TokenStream,
    /// The output, from the function's result `__mcp_value`.
    pub(crate) convert: TokenStream,
    /// Items beside the trait impl (a tool's output schema cache).
    pub(crate) items: TokenStream,
}

/// What every handler macro reads first: the function, its attribute (`None` when it did not
/// parse: the error is recorded), and its parameters.
pub(crate) struct Read<A> {
    pub(crate) function: syn::ItemFn,
    pub(crate) attr: Option<A>,
    pub(crate) handler: HandlerFn,
    pub(crate) errors: Errors,
}

/// Reads `#[<macro_name>(attr)] item`; `Err` holds the whole expansion when nothing more can
/// be generated: the item is not a function, or it is a method, which sits in an `impl`
/// block where a struct cannot (emitting the handle would only add errors to the one about
/// `self`).
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
            check::not_a_function(macro_name, &item, &mut errors);
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
    check::one_handler_attribute(macro_name, &mut function, &mut errors);
    let handler = HandlerFn::take(&mut function, &mut errors);
    if function.sig.receiver().is_some() {
        let errors = errors.into_compile_errors();
        return Err(quote!(#function #errors));
    }
    Ok(Read {
        function,
        attr,
        handler,
        errors,
    })
}

/// The expansion: the function as written, its handle holding the trait impl (or, after an
/// error, a stub impl, so that uses of the handle add no errors of their own), and the errors.
pub(crate) fn handler(
    function: &syn::ItemFn,
    handler: &HandlerFn,
    kind: &Kind,
    body: Option<Body>,
    errors: Errors,
    paths: &Paths,
) -> TokenStream {
    let implementation = match body {
        Some(body) if errors.is_empty() => trait_impl(handler, kind, body, paths),
        _ => stub_impl(handler, kind, paths),
    };
    let handle = handle(handler, kind, implementation);
    let beside = &kind.beside;
    let errors = errors.into_compile_errors();
    quote! {
        #function
        #handle
        #beside
        #errors
    }
}

/// `pub struct name { .. }`, in the type namespace only, its field's type holding `items`.
///
/// Its head carries the attribute's span: on a function inside an `impl` block, where a
/// struct cannot be, rustc's one error ("struct is not supported in `impl`s: consider moving
/// [it] out") underlines the attribute.
fn handle(handler: &HandlerFn, kind: &Kind, items: TokenStream) -> TokenStream {
    let ident = &handler.sig.ident;
    let vis = spans::respan(
        handler.vis.to_token_stream(),
        proc_macro2::Span::call_site(),
    );
    let doc = format!(
        "The MCP {noun} `{name}`, generated on [`{ident}()`]: pass it to `ServerBuilder::{noun}::<{ident}>()`.",
        noun = kind.noun,
        name = kind.name,
        ident = check::default_name(ident),
    );
    quote! {
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #vis struct #ident {
            // The impl and the registration are not local to the field, but belong to the
            // handle they sit in.
            #[allow(non_local_definitions)]
            __mcp_impl: [(); {
                const _: () = { #items };
                0
            }],
        }
    }
}

/// The trait impl, the registration and the kind's items.
fn trait_impl(handler: &HandlerFn, kind: &Kind, body: Body, paths: &Paths) -> TokenStream {
    let ident = &handler.sig.ident;
    let option = paths::std(Std::Option);
    let trait_path = paths.runtime(kind.trait_name);
    let specs = paths.runtime(kind.specs);
    let definition_type = paths.runtime(kind.definition);
    let arg_errors = paths.runtime(Runtime::ArgErrors);
    let inventory = paths.runtime(Runtime::Inventory);
    let registration = paths.runtime(Runtime::Registration);
    let register = syn::Ident::new(kind.noun, proc_macro2::Span::call_site());
    let Body {
        params,
        definition,
        rejected,
        convert,
        items,
    } = body;
    let (describe, extract): (Vec<_>, Vec<_>) = params.into_iter().unzip();
    let locals: Vec<syn::Ident> = (0..extract.len())
        .map(|i| format_ident!("__mcp_arg_{}", i))
        .collect();
    let names = handler.params.iter().map(|p| check::default_name(&p.ident));
    let await_call = handler.sig.asyncness.map(|_| quote!(.await));
    let ret = handler.return_type();
    let statements = quote! {
        let mut __mcp_errors = #arg_errors::new();
        #(let #locals = __mcp_errors.check(#names, #extract);)*
        let (#(#option::Some(#locals),)*) = (#(#locals,)*) else {
            return #rejected;
        };
        let __mcp_value: #ret = #ident(#(#locals),*) #await_call;
        #convert
    };
    let constant = &kind.constant;
    let method = syn::Ident::new(kind.method, proc_macro2::Span::call_site());
    let inputs = method_inputs(kind, paths, |name| quote!(mut #name));
    let AtOnce {
        function: run,
        constant: at_once,
        statements,
    } = match kind.at_once {
        Some(constant) if handler.sig.asyncness.is_none() => {
            at_once(kind, constant, &inputs, statements, paths)
        }
        _ => AtOnce {
            function: TokenStream::new(),
            constant: TokenStream::new(),
            statements,
        },
    };
    let (future_type, future) = future(handler, &kind.output, statements);
    quote! {
        #items
        #run

        // Serving a handler its author deprecated is not a use of it.
        #[automatically_derived]
        #[allow(deprecated)]
        #[diagnostic::do_not_recommend]
        impl #trait_path for #ident {
            #constant
            #at_once

            fn definition(__mcp_specs: &mut #specs) -> #definition_type {
                #(#describe)*
                #definition
            }

            #[allow(unused_mut, unused_variables)]
            fn #method(#inputs) -> #future_type {
                #future
            }
        }

        #inventory::submit! {
            #registration::#register::<#ident>()
        }
    }
}

/// The method's inputs: the context, then the kind's, each bound by `binding(name)`.
fn method_inputs(
    kind: &Kind,
    paths: &Paths,
    binding: impl Fn(syn::Ident) -> TokenStream,
) -> TokenStream {
    let context = paths.runtime(Runtime::Context);
    let inputs = std::iter::once(("__mcp_ctx", context))
        .chain(kind.inputs.iter().cloned())
        .map(|(name, ty)| {
            let binding = binding(syn::Ident::new(name, proc_macro2::Span::call_site()));
            quote!(#binding: #ty)
        });
    quote!(#(#inputs),*)
}

/// For a function that is not `async`, under a kind whose trait has the constant of
/// [`Kind::at_once`] (`constant`): a function beside the impl that runs `statements`, the
/// constant holding it, and what the method's future then runs (a call of it).
fn at_once(
    kind: &Kind,
    constant: &str,
    inputs: &TokenStream,
    statements: TokenStream,
    paths: &Paths,
) -> AtOnce {
    let option = paths::std(Std::Option);
    let output = &kind.output;
    let context = paths.runtime(Runtime::Context);
    let types = kind.inputs.iter().map(|(_, ty)| ty);
    let names = kind
        .inputs
        .iter()
        .map(|(name, _)| syn::Ident::new(name, proc_macro2::Span::call_site()));
    let constant = syn::Ident::new(constant, proc_macro2::Span::call_site());
    let run = quote!(__mcp_call_at_once);
    AtOnce {
        function: quote! {
            // Serving a handler its author deprecated is not a use of it.
            #[allow(deprecated, unused_mut, unused_variables)]
            fn #run(#inputs) -> #output {
                #statements
            }
        },
        constant: quote! {
            const #constant: #option<fn(#context #(, #types)*) -> #output> = #option::Some(#run);
        },
        statements: quote!(#run(__mcp_ctx #(, #names)*)),
    }
}

/// What [`at_once`] generates.
struct AtOnce {
    function: TokenStream,
    constant: TokenStream,
    statements: TokenStream,
}

/// The method's return type and the future it returns, running `statements`.
///
/// A future that is not `Send` is reported on both: for an `async fn` they start at `async`
/// and end at the function's name, so the error underlines `async fn name` rather than the
/// attribute.
fn future(
    handler: &HandlerFn,
    output: &TokenStream,
    statements: TokenStream,
) -> (TokenStream, TokenStream) {
    let future = paths::std(Std::Future);
    let send = paths::std(Std::Send);
    match &handler.sig.asyncness {
        Some(asyncness) => {
            let ident = &handler.sig.ident;
            let start = quote_spanned!(asyncness.span=> impl);
            let end = syn::Lifetime::new("'static", ident.span());
            let mut block = proc_macro2::Group::new(proc_macro2::Delimiter::Brace, statements);
            block.set_span(ident.span());
            (
                quote!(#start #future<Output = #output> + #send + #end),
                quote_spanned!(asyncness.span=> async move #block),
            )
        }
        None => (
            quote!(impl #future<Output = #output> + #send + 'static),
            quote!(async move { #statements }),
        ),
    }
}

/// After an error: an impl of the kind's trait that compiles without looking at the function.
fn stub_impl(handler: &HandlerFn, kind: &Kind, paths: &Paths) -> TokenStream {
    let ident = &handler.sig.ident;
    let trait_path = paths.runtime(kind.trait_name);
    let specs = paths.runtime(kind.specs);
    let definition = paths.runtime(kind.definition);
    let future = paths::std(Std::Future);
    let send = paths::std(Std::Send);
    let unreachable = paths::std(Std::Unreachable);
    let constant = &kind.constant;
    let method = syn::Ident::new(kind.method, proc_macro2::Span::call_site());
    let inputs = method_inputs(kind, paths, |_| quote!(_));
    let output = &kind.output;
    quote! {
        impl #trait_path for #ident {
            #constant
            fn definition(_: &mut #specs) -> #definition {
                #unreachable!()
            }
            fn #method(#inputs) -> impl #future<Output = #output> + #send + 'static {
                async { #unreachable!() }
            }
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
    let phantom = paths::std(Std::PhantomData);
    let marker_open = spans::respan(quote!(#phantom::<), first);
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
    let option = paths::std(Std::Option);
    let Some(Complete { path, .. }) = complete else {
        return quote!(#option::None);
    };
    let (first, last) = spans::first_last(path);
    let trait_path = spans::respan(paths.runtime(Runtime::CompleteFn), first);
    let method = syn::Ident::new("into_completer", last);
    let args = quote_spanned!(last=> (#path));
    quote!(#option::Some(#trait_path::#method #args))
}

/// `Some(value)`, or `None`.
/// `identity` (the kind's `NAME` or `URI` constant), followed by `SCOPES` when the attribute
/// names scopes.
pub(crate) fn constants(identity: TokenStream, common: &crate::attr::Common) -> TokenStream {
    let scopes = common
        .scopes
        .iter()
        .flat_map(|scopes| &scopes.scopes)
        .collect::<Vec<_>>();
    if scopes.is_empty() {
        return identity;
    }
    quote! {
        #identity
        const SCOPES: &'static [&'static str] = &[#(#scopes),*];
    }
}

pub(crate) fn option(value: Option<impl ToTokens>) -> TokenStream {
    let option = paths::std(Std::Option);
    match value {
        Some(value) => quote!(#option::Some(#value)),
        None => quote!(#option::None),
    }
}

/// `Some(Cow::Borrowed(text))`, or `None`.
pub(crate) fn option_cow(text: Option<impl ToTokens>) -> TokenStream {
    let cow = paths::std(Std::Cow);
    option(text.map(|text| quote!(#cow::Borrowed(#text))))
}

/// The description: the attribute's, else the doc comment's.
pub(crate) fn description(
    attr: Option<&syn::LitStr>,
    doc: Option<&TokenStream>,
) -> Option<TokenStream> {
    attr.map(ToTokens::to_token_stream).or_else(|| doc.cloned())
}

/// How the runtime's return-value engine picks the kind of a return type for a handler whose
/// rules are `returns` (`ToolReturns`, `ResourceReturns`): by autoref specialisation,
/// `(&&&&&&&&&&Probe::<Rules, Ret>::new()).__mcp_return_kind()` with the kind traits in scope.
pub(crate) struct Probe {
    pub(crate) returns: Runtime,
}

impl Probe {
    /// `Convert::<Rules, Ret>::method(&kind, args)`, the kind found by the probe; the path and
    /// its first argument spanned from the return type's first token to its last, so that an
    /// unsupported return type is reported there, once.
    pub(crate) fn call(
        &self,
        ret: &syn::Type,
        method: &str,
        args: TokenStream,
        paths: &Paths,
    ) -> TokenStream {
        let probe = paths.runtime(Runtime::Probe);
        let kinds = paths.runtime(Runtime::ReturnKinds);
        let returns = paths.runtime(self.returns);
        let kind_traits = paths::RETURN_KINDS
            .iter()
            .map(|name| syn::Ident::new(name, proc_macro2::Span::call_site()));
        let (first, last) = spans::first_last(ret);
        let open = spans::respan(paths.runtime(Runtime::Convert), first);
        let method = syn::Ident::new(method, last);
        let close = quote_spanned!(last=> >::#method);
        let amp = quote_spanned!(first=> &);
        let kind = syn::Ident::new("__mcp_kind", last);
        quote! {{
            let __mcp_kind = {
                #[allow(unused_imports)]
                use #kinds::{#(#kind_traits as _),*};
                (&&&&&&&&&&#probe::<#returns, #ret>::new()).__mcp_return_kind()
            };
            #open::<#returns, #ret #close(#amp #kind, #args)
        }}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind() -> Kind {
        Kind {
            noun: "prompt",
            name: "hello".to_owned(),
            trait_name: Runtime::Prompt,
            constant: quote!(
                const NAME: &'static str = "hello";
            ),
            specs: Runtime::ArgumentSpecs,
            definition: Runtime::PromptDefinition,
            method: "get",
            inputs: vec![("__mcp_args", quote!(Args))],
            output: quote!(Out),
            at_once: None,
            beside: quote!(),
        }
    }

    fn read(item: TokenStream) -> Read<()> {
        read_handler("mcp_prompt", quote!(), item, |_| Ok(()))
            .ok()
            .unwrap()
    }

    #[test]
    fn a_stub_takes_the_kinds_inputs_and_looks_at_nothing() {
        let read = read(quote!(
            fn hello(name: String) -> String {
                name
            }
        ));
        let out = stub_impl(&read.handler, &kind(), &Paths::new(None)).to_string();
        assert!(
            out.contains(
                &quote!(fn get(_: ::mcp_runtime::__private::Context, _: Args)).to_string()
            ),
            "{out}"
        );
        assert!(!out.contains("hello ("), "{out}");
    }

    #[test]
    fn the_body_obtains_every_parameter_before_calling_the_function() {
        let read = read(quote!(
            async fn hello(a: A, b: B) -> String {
                a
            }
        ));
        let body = Body {
            params: vec![
                (quote!(describe_a;), quote!(extract_a)),
                (quote!(describe_b;), quote!(extract_b)),
            ],
            definition: quote!(Definition),
            rejected: quote!(Rejected),
            convert: quote!(Converted),
            items: quote!(),
        };
        let out = trait_impl(&read.handler, &kind(), body, &Paths::new(None)).to_string();
        let expected = quote! {
            let __mcp_arg_0 = __mcp_errors.check("a", extract_a);
            let __mcp_arg_1 = __mcp_errors.check("b", extract_b);
        };
        assert!(out.contains(&expected.to_string()), "{out}");
        assert!(out.contains(&quote!(return Rejected;).to_string()), "{out}");
        assert!(
            out.contains(&quote!(hello(__mcp_arg_0, __mcp_arg_1).await; Converted).to_string()),
            "{out}"
        );
        assert!(
            out.contains(&quote!(describe_a; describe_b; Definition).to_string()),
            "{out}"
        );
    }

    #[test]
    fn errors_give_a_stub_and_the_errors() {
        let mut read = read(quote!(
            fn hello() {}
        ));
        read.errors.at(quote!(x), "wrong");
        let body = Body {
            params: Vec::new(),
            definition: quote!(Definition),
            rejected: quote!(Rejected),
            convert: quote!(Converted),
            items: quote!(),
        };
        let out = handler(
            &read.function,
            &read.handler,
            &kind(),
            Some(body),
            read.errors,
            &Paths::new(None),
        )
        .to_string();
        assert!(out.contains("compile_error"));
        assert!(!out.contains("Converted"));
        assert!(out.contains("unreachable"));
    }

    #[test]
    fn the_impl_sits_in_the_handle_so_a_function_in_an_impl_block_gives_one_error() {
        let out = tool(
            quote!(),
            quote!(
                /// Says hello.
                fn hello() -> String {
                    String::new()
                }
            ),
        );
        let file: syn::File = syn::parse2(out).unwrap();
        // The function, the handle, and the name guard, which is a named constant and so
        // also valid in an `impl` block: the handle is the one item that is not.
        let kinds: Vec<&str> = file
            .items
            .iter()
            .map(|item| match item {
                syn::Item::Fn(_) => "fn",
                syn::Item::Struct(_) => "struct",
                syn::Item::Const(item) if item.ident != "_" => "named const",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["fn", "struct", "named const"]);
    }
}
