//! Doc comments as descriptions.

use proc_macro2::TokenStream;
use quote::quote;

use crate::paths::{self, Std};

/// The text of `#[doc = ...]` attributes as one string expression, `None` when there are none
/// (or all are blank).
///
/// Literal lines lose the single space rustdoc puts after `///`, and blank lines at the ends
/// are dropped. A computed doc (`#[doc = include_str!(..)]`) is spliced in as an expression.
pub(crate) fn description(attrs: &[syn::Attribute]) -> Option<TokenStream> {
    let mut lines: Vec<Line> = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        let syn::Meta::NameValue(meta) = &attr.meta else {
            continue;
        };
        match &meta.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => {
                for line in text.value().split('\n') {
                    let line = line.strip_prefix(' ').unwrap_or(line);
                    lines.push(Line::Text(line.trim_end().to_owned()));
                }
            }
            other => lines.push(Line::Expr(quote!(#other))),
        }
    }
    while matches!(lines.first(), Some(Line::Text(t)) if t.is_empty()) {
        lines.remove(0);
    }
    while matches!(lines.last(), Some(Line::Text(t)) if t.is_empty()) {
        lines.pop();
    }
    if lines.is_empty() {
        return None;
    }
    if lines.iter().all(|l| matches!(l, Line::Text(_))) {
        let text: Vec<String> = lines
            .into_iter()
            .map(|l| match l {
                Line::Text(t) => t,
                Line::Expr(_) => unreachable!(),
            })
            .collect();
        let text = text.join("\n");
        return Some(quote!(#text));
    }
    let mut parts = Vec::new();
    for (index, line) in lines.into_iter().enumerate() {
        if index > 0 {
            parts.push(quote!("\n"));
        }
        parts.push(match line {
            Line::Text(t) => quote!(#t),
            Line::Expr(e) => e,
        });
    }
    let concat = paths::std(Std::Concat);
    Some(quote!(#concat!(#(#parts),*)))
}

enum Line {
    Text(String),
    Expr(TokenStream),
}

/// Whether an attribute is a doc comment.
pub(crate) fn is_doc(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("doc")
}
