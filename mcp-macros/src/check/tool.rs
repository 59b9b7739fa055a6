//! The checks of `#[mcp_tool]`.

use crate::ast::HandlerFn;
use crate::attr::ToolAttr;
use crate::errors::Errors;

/// The longest tool name the specification allows.
const MAX_TOOL_NAME: usize = 128;

/// Checks a tool function and its attribute.
pub(crate) fn tool(func: &HandlerFn, attr: &ToolAttr, name: &str, errors: &mut Errors) {
    super::signature(func, errors);
    super::scopes(attr.common.scopes.as_ref(), errors);
    if let Some(support) = &attr.task_support
        && !matches!(support.value().as_str(), "optional" | "required")
    {
        errors.at(
            support,
            format!(
                "`task_support` is \"optional\" (a call becomes a task when the client declares the tasks extension) or \"required\" (only as a task), not {:?}",
                support.value()
            ),
        );
    }
    if let Some(problem) = tool_name_problem(name) {
        // A name too long to read is underlined, not repeated.
        let shown = if name.chars().count() > 64 {
            String::new()
        } else {
            format!(" {name:?}")
        };
        match &attr.common.name {
            Some(literal) => errors.at(literal, format!("invalid tool name{shown}: {problem}")),
            None => errors.at(
                &func.sig.ident,
                format!(
                    "invalid tool name{shown}: {problem}; choose another with `#[mcp_tool(name = \"...\")]`"
                ),
            ),
        }
    }
    // Each header name (lowercase) with the parameter mirrored into it.
    let mut headers: Vec<(String, &syn::Ident)> = Vec::new();
    for param in &func.params {
        let Some(header) = &param.header else {
            continue;
        };
        let name = header.name.value();
        let lowercase = name.to_ascii_lowercase();
        if let Some(problem) = header_name_problem(&name) {
            errors.at(&header.name, problem);
        } else if let Some((_, first)) = headers.iter().find(|(taken, _)| *taken == lowercase) {
            errors.at(
                &header.name,
                format!(
                    "`{first}` is mirrored into `Mcp-Param-{name}` already (header names ignore case): give `{}` a header of its own",
                    param.ident
                ),
            );
        } else {
            headers.push((lowercase, &param.ident));
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
    if func.description.is_none() && attr.common.description.is_none() {
        errors.at(
            &func.sig.ident,
            "an MCP tool needs a description, which tells the model when to use it: add a `///` doc comment to the function or `description = \"...\"` to `#[mcp_tool]`",
        );
    }
}

/// Why `name` cannot name a header (`Mcp-Param-<name>`), if it cannot: it must be an RFC 9110
/// token (server/tools "x-mcp-header").
fn header_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some(
            "a header name cannot be empty: `#[header(\"Region\")]` sends the argument as `Mcp-Param-Region`"
                .to_owned(),
        );
    }
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    name.chars().find(|c| !tchar(*c)).map(|bad| {
        format!(
            "{bad:?} cannot be in an HTTP header name: use letters, digits and `!#$%&'*+-.^_`|~` (an RFC 9110 token)"
        )
    })
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
