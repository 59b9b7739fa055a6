//! RFC 6570 URI templates, read in reverse: given a URI, which template produced it and with
//! which variable values.
//!
//! Supported expressions: `{var}` (simple: no `/`, `?` or `#` in the value), `{+var}`
//! (reserved: may span `/`), `{#var}` (fragment), `{.var}` (label), `{/var}` (path segment),
//! `{;var}` (path parameter), `{?a,b}` and `{&a,b}` (query parameters, in any order, each
//! optional). Values are percent-decoded.

use std::collections::{HashMap, HashSet};
use std::fmt;

/// A parsed URI template.
#[derive(Clone, Debug, PartialEq)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq)]
enum Part {
    Literal(String),
    Expression {
        operator: Operator,
        names: Vec<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Operator {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    PathParameter,
    Query,
    QueryContinuation,
}

/// Why a template could not be parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateError(String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

impl UriTemplate {
    /// Parses a template.
    pub fn parse(text: &str) -> Result<UriTemplate, TemplateError> {
        let mut parts = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            match rest.find('{') {
                Some(0) => {
                    let close = rest.find('}').ok_or_else(|| {
                        TemplateError(format!("`{{` without a closing `}}` in {text:?}"))
                    })?;
                    parts.push(expression(&rest[1..close], text)?);
                    rest = &rest[close + 1..];
                }
                found => {
                    let end = found.unwrap_or(rest.len());
                    let literal = &rest[..end];
                    if literal.contains('}') {
                        return Err(TemplateError(format!(
                            "`}}` without an opening `{{` in {text:?}"
                        )));
                    }
                    parts.push(Part::Literal(literal.to_owned()));
                    rest = &rest[end..];
                }
            }
        }
        Ok(UriTemplate {
            text: text.to_owned(),
            parts,
        })
    }

    /// The variables, in order of appearance.
    #[cfg(test)]
    fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts
            .iter()
            .flat_map(|part| match part {
                Part::Literal(_) => &[][..],
                Part::Expression { names, .. } => &names[..],
            })
            .map(String::as_str)
    }

    /// How specific the template is: its literal characters, more being more specific.
    pub(crate) fn specificity(&self) -> usize {
        self.parts
            .iter()
            .map(|part| match part {
                Part::Literal(text) => text.len(),
                Part::Expression { .. } => 0,
            })
            .sum()
    }

    /// The variable values if `uri` matches, percent-decoded. Query variables that are absent
    /// are absent from the map.
    pub fn match_uri(&self, uri: &str) -> Option<HashMap<String, String>> {
        let mut values = HashMap::new();
        let mut failed = HashSet::new();
        match_parts(&self.parts, uri, &mut values, &mut failed).then_some(values)
    }
}

fn expression(body: &str, template: &str) -> Result<Part, TemplateError> {
    let (operator, list) = match body.chars().next() {
        Some('+') => (Operator::Reserved, &body[1..]),
        Some('#') => (Operator::Fragment, &body[1..]),
        Some('.') => (Operator::Label, &body[1..]),
        Some('/') => (Operator::Path, &body[1..]),
        Some(';') => (Operator::PathParameter, &body[1..]),
        Some('?') => (Operator::Query, &body[1..]),
        Some('&') => (Operator::QueryContinuation, &body[1..]),
        Some('=' | ',' | '!' | '@' | '|') => {
            return Err(TemplateError(format!(
                "operator `{}` in {template:?} is reserved by RFC 6570 and not supported",
                &body[..1]
            )));
        }
        _ => (Operator::Simple, body),
    };
    let mut names = Vec::new();
    for spec in list.split(',') {
        // Explode (`*`) and prefix (`:3`) modifiers do not change which value is read back.
        let name = spec.split(':').next().unwrap_or("").trim_end_matches('*');
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '%');
        if !valid {
            return Err(TemplateError(format!(
                "invalid variable name {spec:?} in {template:?}: use letters, digits and `_`"
            )));
        }
        names.push(name.to_owned());
    }
    Ok(Part::Expression { operator, names })
}

/// The states known not to match: (parts left, bytes of the URI left). Both are suffixes of
/// what `match_uri` was given, so their lengths name them; whether the rest matches never
/// depends on the values read so far. Remembering failures keeps templates whose expressions
/// can split a value several ways (`{a}{b}{c}`) polynomial instead of exponential in the URI's
/// length (found by the `uri_template` fuzz target: 9 adjacent expressions took minutes).
type Failed = HashSet<(usize, usize)>;

fn match_parts(
    parts: &[Part],
    uri: &str,
    values: &mut HashMap<String, String>,
    failed: &mut Failed,
) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return uri.is_empty();
    };
    let state = (parts.len(), uri.len());
    if failed.contains(&state) {
        return false;
    }
    let matched = match_first(first, rest, uri, values, failed);
    if !matched {
        failed.insert(state);
    }
    matched
}

fn match_first(
    first: &Part,
    rest: &[Part],
    uri: &str,
    values: &mut HashMap<String, String>,
    failed: &mut Failed,
) -> bool {
    match first {
        Part::Literal(text) => uri
            .strip_prefix(text.as_str())
            .is_some_and(|remaining| match_parts(rest, remaining, values, failed)),
        Part::Expression { operator, names } => match operator {
            Operator::Query | Operator::QueryContinuation => {
                let lead = if *operator == Operator::Query {
                    '?'
                } else {
                    '&'
                };
                let (query, remaining) = split_query(uri, lead);
                let saved = values.clone();
                for pair in query.split('&').filter(|p| !p.is_empty()) {
                    let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                    if names.iter().any(|n| n == key) {
                        values.insert(key.to_owned(), percent_decode(value));
                    }
                }
                if match_parts(rest, remaining, values, failed) {
                    return true;
                }
                *values = saved;
                false
            }
            _ => match_values(*operator, names, rest, uri, values, failed),
        },
    }
}

/// Splits `?a=1&b=2<rest>` (or `&a=1...`) into the query text and what follows it.
fn split_query(uri: &str, lead: char) -> (&str, &str) {
    let Some(body) = uri.strip_prefix(lead) else {
        return ("", uri);
    };
    let end = body.find('#').unwrap_or(body.len());
    (&body[..end], &body[end..])
}

fn match_values(
    operator: Operator,
    names: &[String],
    rest: &[Part],
    uri: &str,
    values: &mut HashMap<String, String>,
    failed: &mut Failed,
) -> bool {
    let (prefix, separator, stops): (&str, char, &[char]) = match operator {
        Operator::Simple => ("", ',', &['/', '?', '#', ',']),
        Operator::Reserved => ("", ',', &['?', '#', ',']),
        Operator::Fragment => ("#", ',', &[',']),
        Operator::Label => (".", '.', &['/', '?', '#', '.']),
        Operator::Path => ("/", '/', &['/', '?', '#']),
        Operator::PathParameter => (";", ';', &['/', '?', '#', ';']),
        Operator::Query | Operator::QueryContinuation => unreachable!("handled by the caller"),
    };
    let Some(mut remaining) = uri.strip_prefix(prefix) else {
        return false;
    };
    let saved = values.clone();
    for (index, name) in names.iter().enumerate() {
        if index > 0 {
            match remaining.strip_prefix(separator) {
                Some(after) => remaining = after,
                None => {
                    *values = saved;
                    return false;
                }
            }
        }
        if operator == Operator::PathParameter {
            match remaining
                .strip_prefix(name.as_str())
                .and_then(|r| r.strip_prefix('='))
            {
                Some(after) => remaining = after,
                None => {
                    *values = saved;
                    return false;
                }
            }
        }
        let is_last = index + 1 == names.len();
        let limit = remaining.find(stops).unwrap_or(remaining.len());
        if !is_last {
            if limit == 0 {
                *values = saved;
                return false;
            }
            values.insert(name.clone(), percent_decode(&remaining[..limit]));
            remaining = &remaining[limit..];
            continue;
        }
        // The last value: try the longest first, backing off until the rest matches (the
        // value is decoded once, for the split that matched).
        let mut end = limit;
        while end > 0 {
            if remaining.is_char_boundary(end)
                && match_parts(rest, &remaining[end..], values, failed)
            {
                values.insert(name.clone(), percent_decode(&remaining[..end]));
                return true;
            }
            end -= 1;
        }
        *values = saved;
        return false;
    }
    match_parts(rest, remaining, values, failed)
}

/// Decodes `%XX` escapes; invalid escapes are kept as written.
pub(crate) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(hi), Some(lo)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push(hi * 16 + lo);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn hex(byte: u8) -> Option<u8> {
    (byte as char).to_digit(16).map(|d| d as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by the `uri_template` fuzz target: adjacent expressions can split a value many
    /// ways, and trying them all took exponential time (60 characters and nine expressions
    /// would not finish); with the failures remembered this returns at once.
    #[test]
    fn adjacent_expressions_match_in_polynomial_time() {
        let template = UriTemplate::parse("x://{a}{b}{c}{d}{e}{f}{g}{h}{i}!").unwrap();
        let uri = format!("x://{}", "v".repeat(60));
        assert_eq!(template.match_uri(&uri), None);
        let matched = template.match_uri(&format!("{uri}!")).unwrap();
        let total: usize = matched.values().map(String::len).sum();
        assert_eq!(total, 60, "{matched:?}");
    }

    fn matched(template: &str, uri: &str) -> Option<Vec<(String, String)>> {
        let template = UriTemplate::parse(template).unwrap();
        let mut pairs: Vec<_> = template.match_uri(uri)?.into_iter().collect();
        pairs.sort();
        Some(pairs)
    }

    fn pairs(list: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(
            list.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn simple_variables_stop_at_slashes() {
        assert_eq!(
            matched(
                "gifts://catalog/{category}/{id}",
                "gifts://catalog/books/42"
            ),
            pairs(&[("category", "books"), ("id", "42")])
        );
        assert_eq!(
            matched("gifts://catalog/{category}", "gifts://catalog/books/42"),
            None
        );
        assert_eq!(
            matched("gifts://catalog/{category}", "gifts://catalog/"),
            None
        );
    }

    #[test]
    fn reserved_variables_span_slashes() {
        assert_eq!(
            matched("file:///{+path}", "file:///docs/a/b.txt"),
            pairs(&[("path", "docs/a/b.txt")])
        );
        assert_eq!(
            matched("file:///{+path}.md", "file:///a/b.md"),
            pairs(&[("path", "a/b")])
        );
    }

    #[test]
    fn query_variables_are_optional_and_unordered() {
        assert_eq!(
            matched(
                "search://gifts{?q,lang}",
                "search://gifts?lang=pt&q=caf%C3%A9"
            ),
            pairs(&[("lang", "pt"), ("q", "café")])
        );
        assert_eq!(
            matched("search://gifts{?q,lang}", "search://gifts"),
            pairs(&[])
        );
    }

    #[test]
    fn values_are_percent_decoded() {
        assert_eq!(
            matched("x://{name}", "x://hello%20world"),
            pairs(&[("name", "hello world")])
        );
    }

    #[test]
    fn malformed_templates_are_rejected() {
        assert!(UriTemplate::parse("x://{unclosed").is_err());
        assert!(UriTemplate::parse("x://{}").is_err());
        assert!(UriTemplate::parse("x://{a b}").is_err());
        assert!(UriTemplate::parse("x://}").is_err());
        assert!(UriTemplate::parse("x://{=a}").is_err());
    }

    #[test]
    fn variables_are_listed_in_order() {
        let template = UriTemplate::parse("a://{x}/{+y}{?z,w}").unwrap();
        assert_eq!(
            template.variables().collect::<Vec<_>>(),
            ["x", "y", "z", "w"]
        );
    }
}
