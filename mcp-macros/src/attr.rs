//! The attribute's arguments: `#[mcp_tool(name = "...", read_only, ...)]`.

pub(crate) mod prompt;
pub(crate) mod resource;

use proc_macro2::TokenStream;
use syn::LitStr;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;

/// The keys `#[mcp_tool]` accepts, as listed in error messages.
const TOOL_KEYS: &str = "name, title, description, read_only, destructive, idempotent, open_world, task_support, scopes, crate";

/// What `#[mcp_tool(...)]` said.
#[derive(Default)]
pub(crate) struct ToolAttr {
    pub(crate) common: Common,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
    /// `task_support = "optional"` or `"required"`: its calls may run as tasks.
    pub(crate) task_support: Option<LitStr>,
}

/// The keys every macro takes: `name`, `title`, `description`, `scopes`, `crate`.
#[derive(Default)]
pub(crate) struct Common {
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) scopes: Option<Scopes>,
    pub(crate) krate: Option<syn::Path>,
}

/// `scopes = ["notes:read", "notes:write"]`: the OAuth scopes a caller needs.
pub(crate) struct Scopes {
    /// The list as written, for an error about the whole of it.
    pub(crate) list: syn::ExprArray,
    pub(crate) scopes: Vec<LitStr>,
}

impl Common {
    /// Reads `key` when it is one of the common keys; `Ok(false)` when it is not.
    pub(crate) fn parse_key(&mut self, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<bool> {
        match key {
            "name" => set_once(&mut self.name, meta, key, || {
                string_value(meta, "name = \"...\"")
            })?,
            "title" => set_once(&mut self.title, meta, key, || {
                string_value(meta, "title = \"...\"")
            })?,
            "description" => set_once(&mut self.description, meta, key, || {
                string_value(meta, "description = \"...\"")
            })?,
            "scopes" => set_once(&mut self.scopes, meta, key, || scopes_value(meta))?,
            "crate" => set_once(&mut self.krate, meta, key, || crate_value(meta))?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The handler's name: `name = "..."`, else the function's.
    pub(crate) fn name_or(&self, ident: &syn::Ident) -> String {
        self.name
            .as_ref()
            .map_or_else(|| crate::check::default_name(ident), LitStr::value)
    }
}

/// The key a meta item names (empty for a path that is not one identifier).
pub(crate) fn key_of(meta: &ParseNestedMeta<'_>) -> String {
    meta.path
        .get_ident()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The error for a key given twice, on its second occurrence.
pub(crate) fn duplicate_key(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Error {
    syn::Error::new_spanned(&meta.path, format!("`{key}` is given twice; keep one"))
}

/// Stores the value of `key` in `slot` (computing it only then), or reports the key as given
/// twice.
pub(crate) fn set_once<T>(
    slot: &mut Option<T>,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    value: impl FnOnce() -> syn::Result<T>,
) -> syn::Result<()> {
    if slot.is_some() {
        return Err(duplicate_key(meta, key));
    }
    *slot = Some(value()?);
    Ok(())
}

/// What follows `key =`; a key without `=` (`title`, `title("...")`) is an error on the key
/// showing `example`, the key written with a value (with the value given in parentheses, if
/// any).
pub(crate) fn value_after<'a>(
    meta: &'a ParseNestedMeta<'_>,
    example: &str,
) -> syn::Result<syn::parse::ParseStream<'a>> {
    if meta.input.peek(syn::Token![=]) {
        return meta.value();
    }
    let key = key_of(meta);
    let message = match meta.input.fork().parse::<proc_macro2::Group>() {
        Ok(group) if group.delimiter() == proc_macro2::Delimiter::Parenthesis => format!(
            "`{key}` takes a value after `=`, not in parentheses: `{key} = {}`",
            group.stream()
        ),
        _ => format!("`{key}` takes a value after `=`: `{example}`"),
    };
    Err(syn::Error::new_spanned(&meta.path, message))
}

/// Parses the attribute's arguments with `parser` (one call per `key` or `key = value`); an
/// argument that is a bare literal (`#[mcp_tool("greet")]`) is an error on it saying which
/// key it is probably meant for (`usual`: `name`).
pub(crate) fn parse_keys(
    tokens: TokenStream,
    macro_name: &str,
    usual: &str,
    parser: impl FnMut(ParseNestedMeta<'_>) -> syn::Result<()>,
) -> syn::Result<()> {
    let mut at_key = true;
    for token in tokens.clone() {
        match token {
            proc_macro2::TokenTree::Literal(literal) if at_key => {
                return Err(syn::Error::new(
                    literal.span(),
                    format!(
                        "`#[{macro_name}]` takes `key = value` pairs, not a bare value: `#[{macro_name}({usual} = {literal})]`"
                    ),
                ));
            }
            proc_macro2::TokenTree::Punct(punct) if punct.as_char() == ',' => at_key = true,
            _ => at_key = false,
        }
    }
    syn::meta::parser(parser).parse2(tokens)
}

/// The path after `crate =`, written as a path (`crate = my_reexport::mcp_runtime`) or, as
/// serde's attribute takes it, in a string literal.
fn crate_value(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::Path> {
    let value = value_after(meta, "crate = path::to::mcp_runtime")?;
    if value.peek(LitStr) {
        let text: LitStr = value.parse()?;
        return text.parse().map_err(|_| {
            syn::Error::new_spanned(
                &text,
                "`crate` takes a path to the runtime crate: `crate = path::to::mcp_runtime`",
            )
        });
    }
    value.parse()
}

/// The string literal after `key =`; anything else is an error showing `example`.
pub(crate) fn string_value(meta: &ParseNestedMeta<'_>, example: &str) -> syn::Result<LitStr> {
    let key = key_of(meta);
    let value: syn::Expr = value_after(meta, example)?.parse()?;
    match value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) => Ok(text),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{key}` takes a string literal: `{example}`"),
        )),
    }
}

/// The list after `scopes =`: string literals in brackets.
fn scopes_value(meta: &ParseNestedMeta<'_>) -> syn::Result<Scopes> {
    const EXAMPLE: &str = "scopes = [\"notes:write\"]";
    let value: syn::Expr = value_after(meta, EXAMPLE)?.parse()?;
    let syn::Expr::Array(list) = value else {
        return Err(syn::Error::new_spanned(
            value,
            format!("`scopes` takes a list of string literals: `{EXAMPLE}`"),
        ));
    };
    let scopes = list
        .elems
        .iter()
        .map(|scope| match scope {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(scope),
                ..
            }) => Ok(scope.clone()),
            other => Err(syn::Error::new_spanned(
                other,
                format!("each scope is a string literal: `{EXAMPLE}`"),
            )),
        })
        .collect::<syn::Result<_>>()?;
    Ok(Scopes { list, scopes })
}

/// The keys of each macro, to tell a key given to the wrong one.
const KEYS_OF: [(&str, &str); 3] = [
    ("mcp_tool", TOOL_KEYS),
    ("mcp_resource", resource::RESOURCE_KEYS),
    ("mcp_prompt", prompt::PROMPT_KEYS),
];

/// The error for an unknown key of `#[<macro_name>]`, on the key, with a "did you mean" (or
/// the macro whose key it is).
pub(crate) fn unknown_key(
    meta: &ParseNestedMeta<'_>,
    macro_name: &str,
    keys: &'static str,
) -> syn::Error {
    let shown = quote::ToTokens::to_token_stream(&meta.path)
        .to_string()
        .replace(' ', "");
    let hint = closest_key(&shown, keys)
        .map(|key| format!(" (did you mean `{key}`?)"))
        .or_else(|| {
            (shown == "annotations" && keys == TOOL_KEYS).then(|| {
                " (each hint is a key of its own: `read_only`, `destructive`, `idempotent`, `open_world`)"
                    .to_owned()
            })
        })
        .or_else(|| {
            KEYS_OF
                .iter()
                .find(|(other, other_keys)| {
                    *other != macro_name && other_keys.split(", ").any(|key| key == shown)
                })
                .map(|(other, _)| format!(" (it is a key of `#[{other}]`)"))
        })
        .unwrap_or_default();
    syn::Error::new_spanned(
        &meta.path,
        format!("unknown `{macro_name}` key `{shown}`{hint}; the keys are: {keys}"),
    )
}

/// The key (or other word of the comma-separated `keys`) `unknown` was probably meant to be:
/// same letters but for case, separators and a `Hint` suffix (the protocol's `readOnlyHint`
/// is `read_only`), or one or two edits away.
pub(crate) fn closest_key(unknown: &str, keys: &'static str) -> Option<&'static str> {
    let squash = |key: &str| {
        key.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect::<String>()
    };
    let keys = keys.split(", ");
    let unknown_squashed = squash(unknown);
    let without_hint = unknown_squashed
        .strip_suffix("hint")
        .unwrap_or(&unknown_squashed);
    keys.clone()
        .find(|key| {
            let key = squash(key);
            key == unknown_squashed || key == without_hint
        })
        .or_else(|| {
            keys.map(|key| (edit_distance(key, unknown), key))
                .filter(|(d, _)| *d <= 2)
                .min()
                .map(|(_, key)| key)
        })
}

/// Levenshtein distance.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// Parses the attribute's tokens; the first mistake is an error on its tokens.
pub(crate) fn parse_tool_attr(tokens: TokenStream) -> syn::Result<ToolAttr> {
    let mut attr = ToolAttr::default();
    parse_keys(tokens, "mcp_tool", "name", |meta| {
        let key = key_of(&meta);
        if attr.common.parse_key(&meta, &key)? {
            return Ok(());
        }
        match key.as_str() {
            "read_only" => set_once(&mut attr.read_only, &meta, &key, || hint_value(&meta))?,
            "destructive" => set_once(&mut attr.destructive, &meta, &key, || hint_value(&meta))?,
            "idempotent" => set_once(&mut attr.idempotent, &meta, &key, || hint_value(&meta))?,
            "open_world" => set_once(&mut attr.open_world, &meta, &key, || hint_value(&meta))?,
            "task_support" => set_once(&mut attr.task_support, &meta, &key, || {
                string_value(&meta, "task_support = \"optional\"")
            })?,
            _ => return Err(unknown_key(&meta, "mcp_tool", TOOL_KEYS)),
        }
        Ok(())
    })?;
    Ok(attr)
}

/// A hint: the bare key (`read_only`) for `true`, or `key = true` / `key = false`.
fn hint_value(meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
    if !meta.input.peek(syn::Token![=]) {
        return Ok(true);
    }
    let key = key_of(meta);
    let value: syn::Expr = meta.value()?.parse()?;
    match value {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(value),
            ..
        }) => Ok(value.value),
        other => Err(syn::Error::new_spanned(
            other,
            format!("`{key}` takes `true` or `false`: `{key}` alone means `true`, `{key} = false`"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_suggest_the_key_they_resemble() {
        assert_eq!(closest_key("readonly", TOOL_KEYS), Some("read_only"));
        assert_eq!(closest_key("ReadOnly", TOOL_KEYS), Some("read_only"));
        assert_eq!(closest_key("descripton", TOOL_KEYS), Some("description"));
        assert_eq!(closest_key("openworld", TOOL_KEYS), Some("open_world"));
        assert_eq!(closest_key("timeout", TOOL_KEYS), None);
        // The protocol's names of the hints.
        assert_eq!(closest_key("readOnlyHint", TOOL_KEYS), Some("read_only"));
        assert_eq!(closest_key("openWorldHint", TOOL_KEYS), Some("open_world"));
        assert_eq!(
            closest_key("destructive_hint", TOOL_KEYS),
            Some("destructive")
        );
    }

    #[test]
    fn a_key_of_another_macro_is_named_as_such() {
        let error = prompt::parse_prompt_attr(quote::quote!(uri = "x://a"))
            .err()
            .unwrap();
        assert!(
            error
                .to_string()
                .contains("(it is a key of `#[mcp_resource]`)")
        );
        let error = parse_tool_attr(quote::quote!(mime_type = "text/plain"))
            .err()
            .unwrap();
        assert!(
            error
                .to_string()
                .contains("(it is a key of `#[mcp_resource]`)")
        );
    }

    #[test]
    fn every_mistake_in_the_attribute_is_reported_on_its_key() {
        let error = parse_tool_attr(quote::quote!(name = "a", name = "b"))
            .err()
            .unwrap();
        assert_eq!(error.to_string(), "`name` is given twice; keep one");
        let error = parse_tool_attr(quote::quote!(name = 5)).err().unwrap();
        assert_eq!(
            error.to_string(),
            "`name` takes a string literal: `name = \"...\"`"
        );
        let error = parse_tool_attr(quote::quote!(read_only = "yes"))
            .err()
            .unwrap();
        assert!(error.to_string().contains("`read_only = false`"));
        assert_eq!(
            parse_tool_attr(quote::quote!(open_world = false, idempotent))
                .unwrap()
                .open_world,
            Some(false)
        );
        let error = parse_tool_attr(quote::quote!(readonly)).err().unwrap();
        assert!(error.to_string().contains("did you mean `read_only`?"));
        let error = parse_tool_attr(quote::quote!(annotations(read_only_hint = true)))
            .err()
            .unwrap();
        assert!(
            error.to_string().contains("each hint is a key of its own"),
            "{error}"
        );
        let error = parse_tool_attr(quote::quote!(title)).err().unwrap();
        assert_eq!(
            error.to_string(),
            "`title` takes a value after `=`: `title = \"...\"`"
        );
        let error = parse_tool_attr(quote::quote!("greet")).err().unwrap();
        assert!(
            error
                .to_string()
                .contains("`#[mcp_tool(name = \"greet\")]`"),
            "{error}"
        );
        let error = parse_tool_attr(quote::quote!(read_only, "greet"))
            .err()
            .unwrap();
        assert!(error.to_string().contains("not a bare value"), "{error}");
        let parsed = parse_tool_attr(quote::quote!(crate = "crate::runtime")).unwrap();
        assert_eq!(
            quote::ToTokens::to_token_stream(&parsed.common.krate.unwrap()).to_string(),
            "crate :: runtime"
        );
    }
}
