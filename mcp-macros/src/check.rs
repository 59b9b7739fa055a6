//! What the compiler would not catch, or would explain badly, checked before expanding.

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
        match &attr.name {
            Some(literal) => errors.at(literal, format!("invalid tool name {name:?}: {problem}")),
            None => errors.at(
                &func.sig.ident,
                format!("invalid tool name {name:?}: {problem}; choose one with #[mcp_tool(name = \"...\")]"),
            ),
        }
    }
    if func.description.is_none() && attr.description.is_none() {
        errors.at(
            &func.sig.ident,
            "an MCP tool needs a description, which tells the model when to use it: add a `///` doc comment to the function or `description = \"...\"` to #[mcp_tool]",
        );
    }
}

/// What a handler function's signature may not have, whatever the macro.
fn signature(func: &HandlerFn, errors: &mut Errors) {
    let sig = &func.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.at(
            &sig.generics,
            "an MCP handler cannot be generic: its schema is generated from concrete parameter types; use concrete types (a type alias is fine)",
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
        }
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output {
        if let Some(impl_trait) = find_impl_trait(ty) {
            errors.at(
                impl_trait,
                "an MCP handler cannot return `impl Trait`: its output schema is generated from the return type; name the type (use `async fn` for futures)",
            );
        }
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
}
