//! The checks of `#[mcp_resource]`: the URI or template against the function, the
//! completers, the annotations.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::uri;
use crate::ast::HandlerFn;
use crate::attr::closest_key;
use crate::attr::resource::{CACHE_SCOPES, PRIORITY, ResourceAttr};
use crate::errors::Errors;

/// Checks a resource function and its attribute (`None` when it did not parse: its `uri` is
/// then unknown rather than missing, and nothing is checked against it); returns the URI
/// template's variables.
pub(crate) fn resource(
    func: &HandlerFn,
    attr: Option<&ResourceAttr>,
    attr_tokens: TokenStream,
    errors: &mut Errors,
) -> Vec<String> {
    super::signature(func, errors);
    super::no_headers(func, "resource", errors);
    let Some(attr) = attr else {
        return Vec::new();
    };
    super::scopes(attr.common.scopes.as_ref(), errors);
    let variables = uri_against_function(func, attr, attr_tokens, errors);
    completers(func, &variables, errors);
    annotations(attr, errors);
    cache_scope(attr, errors);
    variables
}

/// `cache_scope` is one of the two words of the specification (2026-07-28, `cacheScope`).
fn cache_scope(attr: &ResourceAttr, errors: &mut Errors) {
    let Some(scope) = &attr.cache_scope else {
        return;
    };
    let value = scope.value();
    if CACHE_SCOPES.split(", ").any(|word| word == value) {
        return;
    }
    let hint = closest_key(&value, CACHE_SCOPES)
        .map(|word| format!(" (did you mean \"{word}\"?)"))
        .unwrap_or_default();
    errors.at(
        scope,
        format!(
            "unknown cache scope {value:?}{hint}: use \"public\" (the same for every user: shared caches may keep it) or \"private\" (per user: only the client that asked may keep it)"
        ),
    );
}

/// Checks the URI or template against the function; returns the template's variables.
fn uri_against_function(
    func: &HandlerFn,
    attr: &ResourceAttr,
    attr_tokens: TokenStream,
    errors: &mut Errors,
) -> Vec<String> {
    let Some(literal) = &attr.uri else {
        let at = if attr_tokens.is_empty() {
            quote!(#[mcp_resource])
        } else {
            attr_tokens
        };
        errors.at(
            at,
            "`#[mcp_resource]` needs a `uri`: the resource's address, `uri = \"gifts://catalog\"`, or a URI template whose `{variables}` are parameters of the function, `uri = \"gifts://catalog/{category}\"`",
        );
        return Vec::new();
    };
    let text = literal.value();
    let variables = if uri::is_template(&text) {
        match uri::template_variables(&text) {
            Ok(variables) => variables,
            Err(problem) => {
                errors.at(literal, format!("invalid URI template: {problem}"));
                return Vec::new();
            }
        }
    } else {
        Vec::new()
    };
    let literal_parts: String = text.split(['{', '}']).step_by(2).collect();
    if let Some(problem) = uri::absolute_uri_problem(&literal_parts) {
        errors.at(literal, format!("invalid resource URI {text:?}: {problem}"));
    }
    // A parameter that is not a plain name has been reported, and may be the one a variable
    // names.
    if func.all_named {
        for variable in &variables {
            if !func
                .params
                .iter()
                .any(|p| super::default_name(&p.ident) == *variable)
            {
                let near = func
                    .params
                    .iter()
                    .map(|p| super::default_name(&p.ident))
                    .filter(|name| !variables.contains(name))
                    .map(|name| (crate::attr::edit_distance(&name, variable), name))
                    .filter(|(distance, _)| *distance <= 2)
                    .min();
                let message = match near {
                    Some((_, name)) => format!(
                        "the URI template's variable `{variable}` has no parameter: did you mean `{{{name}}}`, for the parameter `{name}`?"
                    ),
                    None => format!(
                        "the URI template's variable `{variable}` has no parameter: add a parameter `{variable}: String` (or another type decoded from text) to the function, or remove the variable from the template"
                    ),
                };
                errors.at(literal, message);
            }
        }
    }
    variables
}

/// `#[complete(...)]` suggests values for a URI variable: on any other parameter (a value the
/// runtime supplies) it would have nothing to complete.
fn completers(func: &HandlerFn, variables: &[String], errors: &mut Errors) {
    for param in &func.params {
        let name = super::default_name(&param.ident);
        if let Some(complete) = &param.completer
            && !variables.contains(&name)
        {
            errors.at(
                &complete.attr,
                format!(
                    "`#[complete(...)]` suggests values for a URI template variable, and the `uri` has no `{{{name}}}`: remove it, or add `{{{name}}}` to the template"
                ),
            );
        }
    }
}

fn annotations(attr: &ResourceAttr, errors: &mut Errors) {
    if let Some(audience) = &attr.audience {
        for role in audience.value().split(',') {
            if !matches!(role.trim(), "user" | "assistant") {
                errors.at(
                    audience,
                    format!(
                        "unknown audience {:?}: use \"user\", \"assistant\" or \"user, assistant\"",
                        role.trim()
                    ),
                );
            }
        }
    }
    if let Some(priority) = &attr.priority
        && !(0.0..=1.0).contains(&priority.value)
    {
        errors.at(
            &priority.literal,
            format!(
                "priority {} is out of range: {PRIORITY}",
                priority.literal.to_token_stream()
            ),
        );
    }
}
