//! What the compiler would not catch, or would explain badly, checked before expanding: here
//! what every handler shares, in `tool`, `resource` and `prompt` what each kind adds.

mod prompt;
mod resource;
mod tool;
pub(crate) mod uri;

pub(crate) use prompt::prompt;
pub(crate) use resource::resource;
pub(crate) use tool::{tool, tool_name_problem};

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::ast::HandlerFn;
use crate::attr::Scopes;
use crate::errors::Errors;

/// A second handler attribute on the function (`#[mcp_tool] #[mcp_prompt] fn f`): both would
/// define the handle `f`. Reported on the second, which is taken off the function so that it
/// does not expand too.
pub(crate) fn one_handler_attribute(
    macro_name: &str,
    function: &mut syn::ItemFn,
    errors: &mut Errors,
) {
    const HANDLERS: [&str; 3] = ["mcp_tool", "mcp_resource", "mcp_prompt"];
    function.attrs.retain(|attr| {
        let Some(other) = attr.path().segments.last().map(|s| s.ident.to_string()) else {
            return true;
        };
        if !HANDLERS.contains(&other.as_str()) {
            return true;
        }
        errors.at(
            attr,
            format!(
                "a function is one handler: it already is `#[{macro_name}]`, so it cannot be `#[{other}]` too; write a second function for the {}, which may call this one",
                other.trim_start_matches("mcp_")
            ),
        );
        false
    });
}

/// What a handler function's signature may not have, whatever the macro.
pub(crate) fn signature(func: &HandlerFn, errors: &mut Errors) {
    let sig = &func.sig;
    let only_lifetimes = sig
        .generics
        .params
        .iter()
        .all(|param| matches!(param, syn::GenericParam::Lifetime(_)));
    let borrows = func
        .params
        .iter()
        .any(|param| find_reference(&param.ty).is_some());
    if !sig.generics.params.is_empty() && only_lifetimes {
        // A borrowing parameter is reported below, which says what to take instead.
        if !borrows {
            errors.at(
                &sig.generics,
                "an MCP handler cannot have lifetime parameters: its arguments are decoded into owned values for each call, and what it returns outlives the call; remove them and use owned types (`String`, not `&'a str`)",
            );
        }
    } else if !sig.generics.params.is_empty() {
        errors.at(
            &sig.generics,
            "an MCP handler cannot be generic: its schema is generated from concrete parameter types; use concrete types (a type alias is fine)",
        );
    } else if let Some(where_clause) = &sig.generics.where_clause {
        errors.at(
            where_clause,
            "an MCP handler cannot have a `where` clause: its schema is generated from concrete parameter types; remove it",
        );
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.at(unsafety, "an MCP handler cannot be `unsafe`: clients call it with no safety contract; make the function safe and use `unsafe` blocks inside");
    }
    if let Some(abi) = &sig.abi {
        errors.at(abi, "an MCP handler cannot have an `extern` ABI; remove it");
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(variadic, "an MCP handler cannot be variadic");
    }
    for param in &func.params {
        if let Some(impl_trait) = find_impl_trait(&param.ty) {
            errors.at(
                impl_trait,
                "an MCP handler parameter cannot be `impl Trait`: its schema is generated from a concrete type; name the type",
            );
        } else if let Some(reference) = find_reference(&param.ty) {
            errors.at(reference, borrowed_parameter(reference));
        }
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output
        && let Some(impl_trait) = find_impl_trait(ty)
    {
        errors.at(
            impl_trait,
            "an MCP handler cannot return `impl Trait`: its output schema is generated from the return type; name the type (use `async fn` for futures)",
        );
    }
}

fn find_impl_trait(ty: &syn::Type) -> Option<&syn::TypeImplTrait> {
    struct Finder<'a>(Option<&'a syn::TypeImplTrait>);
    impl<'a> syn::visit::Visit<'a> for Finder<'a> {
        fn visit_type_impl_trait(&mut self, node: &'a syn::TypeImplTrait) {
            self.0.get_or_insert(node);
        }
    }
    let mut finder = Finder(None);
    syn::visit::visit_type(&mut finder, ty);
    finder.0
}

/// The first reference anywhere in a type (`&str`, `Option<&str>`, ...).
fn find_reference(ty: &syn::Type) -> Option<&syn::TypeReference> {
    struct Finder<'a>(Option<&'a syn::TypeReference>);
    impl<'a> syn::visit::Visit<'a> for Finder<'a> {
        fn visit_type_reference(&mut self, node: &'a syn::TypeReference) {
            self.0.get_or_insert(node);
        }
    }
    let mut finder = Finder(None);
    syn::visit::visit_type(&mut finder, ty);
    finder.0
}

/// The error for a parameter whose type borrows, naming the owned type to take instead.
///
/// Arguments are decoded afresh for each call into owned values, so a borrowing type can never
/// be one; rustc's own error ("implementation of `Deserialize` is not general enough") does not
/// say so, or what to write.
fn borrowed_parameter(reference: &syn::TypeReference) -> String {
    let elem = &*reference.elem;
    let owned = match elem {
        syn::Type::Path(path) if path.qself.is_none() && path.path.is_ident("str") => {
            "String".to_owned()
        }
        syn::Type::Slice(slice) => {
            format!("Vec<{}>", compact(&slice.elem))
        }
        _ => compact(elem),
    };
    format!(
        "an MCP handler parameter cannot borrow: each call's arguments are decoded into owned values; take `{owned}` instead of `{}`",
        compact(reference)
    )
}

/// A type as source text, without the spaces `to_string` puts between tokens.
fn compact(tokens: &impl ToTokens) -> String {
    let text = tokens.to_token_stream().to_string();
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars.peek().copied();
            let keep = matches!((prev, next), (Some(p), Some(n)) if (p.is_alphanumeric() || p == '_' || p == ',' || p == ';') && (n.is_alphanumeric() || n == '_' || n == '\'' || n == '&' || n == '(' || n == '['));
            if keep {
                out.push(' ');
            }
            continue;
        }
        out.push(c);
    }
    out
}

/// Checks `scopes = [...]`: a non-empty list of distinct scope tokens (RFC 6749, section 3.3:
/// printable ASCII but space, `"` and `\\`).
pub(crate) fn scopes(scopes: Option<&Scopes>, errors: &mut Errors) {
    let Some(Scopes { list, scopes }) = scopes else {
        return;
    };
    if scopes.is_empty() {
        errors.at(
            list,
            "`scopes = []` asks for no scope: remove the key, or name the scopes a caller needs",
        );
    }
    let mut seen = Vec::new();
    for literal in scopes {
        let scope = literal.value();
        if let Some(problem) = scope_problem(&scope) {
            errors.at(literal, problem);
        } else if seen.contains(&scope) {
            errors.at(
                literal,
                format!("scope {scope:?} is listed twice; keep one"),
            );
        }
        seen.push(scope);
    }
}

/// Why `scope` is not an OAuth scope token.
fn scope_problem(scope: &str) -> Option<String> {
    if scope.is_empty() {
        return Some("a scope cannot be empty".to_owned());
    }
    if scope.contains(' ') {
        return Some(format!(
            "scope {scope:?} has a space, which separates scopes in a token: list each scope as a string of its own"
        ));
    }
    scope
        .chars()
        .find(|&c| !matches!(c, '!' | '#'..='[' | ']'..='~'))
        .map(|bad| {
            format!(
                "{bad:?} cannot be part of a scope (RFC 6749: printable ASCII but space, `\"` and `\\`)"
            )
        })
}

/// Reports an attribute macro on something other than a function, on its keyword and name.
/// `#[header(...)]` on a prompt's or a resource's parameter: only a tool's arguments travel in
/// HTTP headers (revision 2026-07-28's `x-mcp-header` is a tool schema keyword).
pub(crate) fn no_headers(func: &HandlerFn, kind: &str, errors: &mut Errors) {
    for header in func.params.iter().filter_map(|param| param.header.as_ref()) {
        errors.at(
            &header.attr,
            format!(
                "`#[header(...)]` mirrors a tool's argument into an HTTP header; a {kind}'s arguments have no such header: remove it"
            ),
        );
    }
}

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

/// The name a function gets by default: its identifier without `r#`.
pub(crate) fn default_name(ident: &syn::Ident) -> String {
    let text = ident.to_token_stream().to_string();
    text.strip_prefix("r#").map(str::to_owned).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_borrowed_parameter_is_told_the_owned_type_to_take() {
        let message = |ty: syn::TypeReference| borrowed_parameter(&ty);
        assert!(message(syn::parse_quote!(&str)).ends_with("take `String` instead of `&str`"));
        assert!(
            message(syn::parse_quote!(&'a [u8])).ends_with("take `Vec<u8>` instead of `&'a [u8]`")
        );
        assert!(
            message(syn::parse_quote!(&mut HashMap<String, Point>)).ends_with(
                "take `HashMap<String, Point>` instead of `&mut HashMap<String, Point>`"
            )
        );
    }

    #[test]
    fn scopes_are_oauth_scope_tokens() {
        assert_eq!(scope_problem("notes:write"), None);
        assert_eq!(scope_problem("https://api.example.com/read"), None);
        assert!(scope_problem("").unwrap().contains("empty"));
        assert!(
            scope_problem("a b")
                .unwrap()
                .contains("a string of its own")
        );
        assert!(scope_problem("a\"b").unwrap().contains("'\"'"));
        assert!(scope_problem("café").unwrap().contains("'é'"));
    }

    #[test]
    fn references_are_found_inside_parameter_types() {
        let ty: syn::Type = syn::parse_quote!(Option<Vec<&str>>);
        assert!(find_reference(&ty).is_some());
        let ty: syn::Type = syn::parse_quote!(Option<Vec<String>>);
        assert!(find_reference(&ty).is_none());
    }
}
