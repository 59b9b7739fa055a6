//! Resource URIs and RFC 6570 URI templates, checked at compile time.
//!
//! The runtime matches templates against URIs; here only the syntax and the variable names
//! matter, so that a mismatch between the template and the function is a compile error.

/// Whether the URI has `{...}` expressions, i.e. is a template.
pub(crate) fn is_template(uri: &str) -> bool {
    uri.contains('{')
}

/// The variable names of a template, in order; or what is wrong with it.
pub(crate) fn template_variables(template: &str) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        if rest.as_bytes()[open] == b'}' {
            return Err("`}` without an opening `{`".to_owned());
        }
        let after = &rest[open + 1..];
        let close = after
            .find('}')
            .ok_or_else(|| "`{` without a closing `}`".to_owned())?;
        let body = &after[..close];
        let list = match body.chars().next() {
            Some('+' | '#' | '.' | '/' | ';' | '?' | '&') => &body[1..],
            Some(op @ ('=' | ',' | '!' | '@' | '|')) => {
                return Err(format!(
                    "operator `{op}` is reserved by RFC 6570 and not supported"
                ));
            }
            _ => body,
        };
        for spec in list.split(',') {
            let name = spec.split(':').next().unwrap_or("").trim_end_matches('*');
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!(
                    "`{{{body}}}` has an invalid variable name {spec:?}; use letters, digits and `_`"
                ));
            }
            if names.iter().any(|n| n == name) {
                return Err(format!("variable `{name}` appears twice"));
            }
            names.push(name.to_owned());
        }
        rest = &after[close + 1..];
    }
    Ok(names)
}

/// What is wrong with a URI (or the literal parts of a template), if anything: it must be
/// absolute (`scheme:rest`) and hold no whitespace.
pub(crate) fn absolute_uri_problem(uri: &str) -> Option<String> {
    let Some((scheme, rest)) = uri.split_once(':') else {
        return Some(
            "a resource URI must be absolute, starting with a scheme such as `file:` or `https:`"
                .to_owned(),
        );
    };
    let valid_scheme = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !valid_scheme {
        return Some(format!(
            "`{scheme}` is not a URI scheme: it starts with a letter and holds only letters, digits, `+`, `-` and `.`"
        ));
    }
    if rest.is_empty() {
        return Some("nothing follows the scheme".to_owned());
    }
    if let Some(c) = uri.chars().find(|c| c.is_whitespace() || c.is_control()) {
        return Some(format!("{c:?} is not allowed in a URI; percent-encode it"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_variables_are_read_in_order() {
        assert_eq!(
            template_variables("gifts://catalog/{category}/{id}{?q,lang}").unwrap(),
            ["category", "id", "q", "lang"]
        );
        assert_eq!(template_variables("file:///{+path}").unwrap(), ["path"]);
        assert!(template_variables("x://{a").is_err());
        assert!(template_variables("x://{a}/{a}").is_err());
        assert!(template_variables("x://{a-b}").is_err());
        assert!(template_variables("x://{=a}").is_err());
    }

    #[test]
    fn uris_must_be_absolute() {
        assert_eq!(
            absolute_uri_problem("mcp://gift-server/resources/gift_catalog"),
            None
        );
        assert_eq!(absolute_uri_problem("file:///tmp/a"), None);
        assert!(absolute_uri_problem("gift_catalog").is_some());
        assert!(absolute_uri_problem("1x://a").is_some());
        assert!(absolute_uri_problem("x://a b").is_some());
    }
}
