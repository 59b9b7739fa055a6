//! The checks of `#[mcp_prompt]`.

use crate::ast::HandlerFn;
use crate::attr::prompt::PromptAttr;
use crate::errors::Errors;

/// Checks a prompt function and its attribute.
pub(crate) fn prompt(func: &HandlerFn, attr: &PromptAttr, name: &str, errors: &mut Errors) {
    super::signature(func, errors);
    super::scopes(attr.common.scopes.as_ref(), errors);
    super::no_headers(func, "prompt", errors);
    if let Some(literal) = &attr.common.name
        && name.trim().is_empty()
    {
        errors.at(literal, "a prompt name cannot be empty");
    }
}
