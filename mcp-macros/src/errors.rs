//! Collecting every error of one macro invocation, to report them together.

use proc_macro2::TokenStream;
use quote::ToTokens;

/// The errors found so far.
#[derive(Default)]
pub(crate) struct Errors {
    errors: Vec<syn::Error>,
}

impl Errors {
    /// Records an error spanning `tokens`.
    pub(crate) fn at(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.errors.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error.
    pub(crate) fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// Every error as `compile_error!` invocations.
    pub(crate) fn into_compile_errors(self) -> TokenStream {
        self.errors
            .into_iter()
            .map(|error| error.to_compile_error())
            .collect()
    }
}
