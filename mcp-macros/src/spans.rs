//! Making rustc's own errors (unsatisfied trait bounds) land on the user's tokens.
//!
//! A stable proc macro cannot join two spans, so `quote_spanned!(ty.span()=> ..)` would point
//! at the first token of `Result<String, MyError>` only. rustc, though, spans an expression
//! from its first token to its last: generated code that *starts* with the first token's span
//! and *ends* with the last token's span makes the error underline the whole type.

use proc_macro2::{Span, TokenStream, TokenTree};
use quote::ToTokens;

/// The spans of the first and last tokens of `tokens` (both the call site when empty).
pub(crate) fn first_last(tokens: &impl ToTokens) -> (Span, Span) {
    let mut iter = tokens.to_token_stream().into_iter();
    let first = iter
        .next()
        .map_or_else(Span::call_site, |token| token.span());
    let last = iter.last().map_or(first, |token| token.span());
    (first, last)
}

/// `tokens` with every span (nested groups included) set to `span`.
pub(crate) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                token = TokenTree::Group(inner);
            } else {
                token.set_span(span);
            }
            token
        })
        .collect()
}
