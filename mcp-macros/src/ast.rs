//! The function under the attribute, as the expansion needs it.

use proc_macro2::TokenStream;

use crate::docs;
use crate::errors::Errors;

/// A function's parameter that can become an argument or a supplied value.
pub(crate) struct Param {
    /// Its name, which is also the argument's name.
    pub(crate) ident: syn::Ident,
    pub(crate) ty: syn::Type,
    /// Its `///` comment, as a string expression.
    pub(crate) description: Option<TokenStream>,
    /// `#[complete(function)]`: the function that suggests values.
    pub(crate) completer: Option<Complete>,
    /// `#[header("Name")]`: the HTTP header the argument is mirrored into.
    pub(crate) header: Option<Header>,
}

/// A parameter's `#[header("Name")]` (revision 2026-07-28's `x-mcp-header`).
pub(crate) struct Header {
    /// The attribute as written, where a misplaced one is reported.
    pub(crate) attr: syn::Attribute,
    /// The header's name, after `Mcp-Param-`.
    pub(crate) name: syn::LitStr,
}

/// A parameter's `#[complete(path)]`.
pub(crate) struct Complete {
    /// The attribute as written, where a misplaced one is reported.
    pub(crate) attr: syn::Attribute,
    /// The function it names.
    pub(crate) path: syn::Path,
}

/// The annotated function.
pub(crate) struct HandlerFn {
    pub(crate) sig: syn::Signature,
    pub(crate) vis: syn::Visibility,
    pub(crate) params: Vec<Param>,
    /// The function's doc comment, as a string expression.
    pub(crate) description: Option<TokenStream>,
    /// Whether every parameter is a plain name (no `self`, no pattern): only then do the
    /// names say which parameters exist.
    pub(crate) all_named: bool,
}

/// The path in `#[complete(path)]`; more than one such attribute is an error.
fn completer(attrs: Vec<syn::Attribute>, errors: &mut Errors) -> Option<Complete> {
    let mut found = None;
    for attr in attrs {
        match attr.parse_args::<syn::Path>() {
            Ok(path) if found.is_none() => found = Some(Complete { attr, path }),
            Ok(_) => errors.at(&attr, "a parameter takes one `#[complete(...)]`; keep one"),
            Err(_) => errors.at(
                &attr,
                "`#[complete]` needs the function that suggests values: `#[complete(my_completer)]`, with `fn my_completer(prefix: &str) -> Vec<String>`",
            ),
        }
    }
    found
}

/// The name in `#[header("Name")]`; more than one such attribute is an error.
fn header(attrs: Vec<syn::Attribute>, errors: &mut Errors) -> Option<Header> {
    let mut found = None;
    for attr in attrs {
        match attr.parse_args::<syn::LitStr>() {
            Ok(name) if found.is_none() => found = Some(Header { attr, name }),
            Ok(_) => errors.at(&attr, "a parameter takes one `#[header(...)]`; keep one"),
            Err(_) => errors.at(
                &attr,
                "`#[header]` needs the header's name: `#[header(\"Region\")]` sends the argument as `Mcp-Param-Region` too",
            ),
        }
    }
    found
}

/// Whether `attr` is one of serde's or schemars' field attributes, which mean nothing on a
/// parameter (nothing derives there): reported, with what to write instead.
fn derive_attribute(attr: &syn::Attribute, errors: &mut Errors) -> bool {
    let instead = if attr.path().is_ident("serde") {
        "an argument is decoded by its type alone: for one the client may leave out, take an `Option<T>` (and `.unwrap_or(...)` it in the body)"
    } else if attr.path().is_ident("schemars") {
        "an argument's schema comes from its type alone: say its bounds in its `///` comment, or take a type of your own whose field carries the attribute"
    } else {
        return false;
    };
    let name = attr
        .path()
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default();
    errors.at(
        attr,
        format!(
            "`#[{name}(...)]` does nothing on a handler parameter: {instead}; a parameter takes `///` comments, `#[complete(...)]` and `#[header(...)]`"
        ),
    );
    true
}

impl HandlerFn {
    /// Reads the function, taking the `///` comments off its parameters (Rust rejects them
    /// there once the macro has run). Receivers and pattern parameters are reported.
    pub(crate) fn take(item: &mut syn::ItemFn, errors: &mut Errors) -> HandlerFn {
        let mut params = Vec::new();
        let mut all_named = true;
        for input in &mut item.sig.inputs {
            match input {
                syn::FnArg::Receiver(receiver) => {
                    all_named = false;
                    errors.at(
                        &*receiver,
                        "an MCP handler must be a free function, not a method: there is no `self` when a client calls it; move it out of the `impl` block and pass what it needs as `State<T>`",
                    );
                }
                syn::FnArg::Typed(typed) => {
                    let (ours, other): (Vec<_>, Vec<_>) = typed.attrs.drain(..).partition(|a| {
                        docs::is_doc(a)
                            || a.path().is_ident("complete")
                            || a.path().is_ident("header")
                    });
                    typed.attrs = other;
                    typed.attrs.retain(|attr| !derive_attribute(attr, errors));
                    let (complete_attrs, rest): (Vec<_>, Vec<_>) = ours
                        .into_iter()
                        .partition(|a| a.path().is_ident("complete"));
                    let (header_attrs, doc_attrs): (Vec<_>, Vec<_>) =
                        rest.into_iter().partition(|a| a.path().is_ident("header"));
                    let description = docs::description(&doc_attrs);
                    let completer = completer(complete_attrs, errors);
                    let header = header(header_attrs, errors);
                    match &*typed.pat {
                        syn::Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => {
                            params.push(Param {
                                ident: pat.ident.clone(),
                                ty: (*typed.ty).clone(),
                                description,
                                completer,
                                header,
                            });
                        }
                        syn::Pat::Wild(wild) => {
                            all_named = false;
                            errors.at(
                                wild,
                                "an MCP handler parameter needs a name: an argument's name is its name in the schema, and a value the runtime supplies (`Context`, `State<T>`) may have any, such as `_ctx` when the function does not use it",
                            );
                        }
                        other => {
                            all_named = false;
                            errors.at(
                                other,
                                "an MCP handler parameter must be a plain name: the name becomes the argument's name in the schema; take the value whole and destructure it inside the function",
                            );
                        }
                    }
                }
            }
        }
        HandlerFn {
            sig: item.sig.clone(),
            vis: item.vis.clone(),
            params,
            description: docs::description(&item.attrs),
            all_named,
        }
    }

    /// The return type as written, `()` when there is none.
    pub(crate) fn return_type(&self) -> syn::Type {
        match &self.sig.output {
            syn::ReturnType::Default => syn::parse_quote!(()),
            syn::ReturnType::Type(_, ty) => (**ty).clone(),
        }
    }
}
