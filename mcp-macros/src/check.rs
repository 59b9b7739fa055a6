//! What the compiler would not catch, or would explain badly, checked before expanding.

pub(crate) mod uri;

use quote::ToTokens;

use crate::ast::HandlerFn;
use crate::attr::ToolAttr;
use crate::errors::Errors;

/// The longest tool name the specification allows.
const MAX_TOOL_NAME: usize = 128;

/// Checks a tool function and its attribute.
pub(crate) fn tool(func: &HandlerFn, attr: &ToolAttr, name: &str, errors: &mut Errors) {
    signature(func, errors);
    if let Some(problem) = tool_name_problem(name) {
        // A name too long to read is underlined, not repeated.
        let shown = if name.chars().count() > 64 {
            String::new()
        } else {
            format!(" {name:?}")
        };
        match &attr.name {
            Some(literal) => errors.at(literal, format!("invalid tool name{shown}: {problem}")),
            None => errors.at(
                &func.sig.ident,
                format!(
                    "invalid tool name{shown}: {problem}; choose another with `#[mcp_tool(name = \"...\")]`"
                ),
            ),
        }
    }
    for param in &func.params {
        if let Some(complete) = &param.completer {
            errors.at(
                &complete.attr,
                "`#[complete(...)]` suggests values for a prompt argument or a URI template variable; MCP has no completion for tool arguments: remove it",
            );
        }
    }
    if func.description.is_none() && attr.description.is_none() {
        errors.at(
            &func.sig.ident,
            "an MCP tool needs a description, which tells the model when to use it: add a `///` doc comment to the function or `description = \"...\"` to `#[mcp_tool]`",
        );
    }
}

/// What a handler function's signature may not have, whatever the macro.
pub(crate) fn signature(func: &HandlerFn, errors: &mut Errors) {
    let sig = &func.sig;
    if !sig.generics.params.is_empty() {
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
    if let Some(unsafety) = &sig.unsafety {
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

/// Why `name` breaks the specification's rule (1 to 128 of `A-Za-z0-9_.-`), if it does.
pub(crate) fn tool_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("a tool name cannot be empty".to_owned());
    }
    if name.len() > MAX_TOOL_NAME {
        return Some(format!(
            "a tool name has at most {MAX_TOOL_NAME} characters, this one has {}",
            name.chars().count()
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')))
    {
        return Some(format!(
            "{bad:?} is not allowed; a tool name uses only ASCII letters, digits, `_`, `.` and `-`"
        ));
    }
    None
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
    fn tool_names_follow_the_specification() {
        assert_eq!(tool_name_problem("suggest_gifts"), None);
        assert_eq!(tool_name_problem("a.b-c_D9"), None);
        assert!(tool_name_problem("").is_some());
        assert!(tool_name_problem("has space").is_some());
        assert!(tool_name_problem("café").is_some());
        assert!(tool_name_problem(&"x".repeat(129)).is_some());
        assert_eq!(tool_name_problem(&"x".repeat(128)), None);
    }

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
    fn references_are_found_inside_parameter_types() {
        let ty: syn::Type = syn::parse_quote!(Option<Vec<&str>>);
        assert!(find_reference(&ty).is_some());
        let ty: syn::Type = syn::parse_quote!(Option<Vec<String>>);
        assert!(find_reference(&ty).is_none());
    }
}
