//! Every path generated code uses, in one place. All are absolute, so a user's own `Result`,
//! `Option` or `mcp_runtime` module cannot capture them; `crate = path` replaces the root.

use proc_macro2::TokenStream;
use quote::quote;

/// The paths of one expansion.
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

    /// `<root>::<name>`: the runtime's public API.
    pub(crate) fn root(&self, name: &str) -> TokenStream {
        let root = &self.root;
        let name = syn::Ident::new(name, proc_macro2::Span::call_site());
        quote!(#root::#name)
    }

    /// `<root>::__private::<name>`.
    pub(crate) fn private(&self, name: &str) -> TokenStream {
        let root = &self.root;
        let name = syn::Ident::new(name, proc_macro2::Span::call_site());
        quote!(#root::__private::#name)
    }
}

pub(crate) fn option() -> TokenStream {
    quote!(::core::option::Option)
}

pub(crate) fn cow() -> TokenStream {
    quote!(::std::borrow::Cow)
}
