//! `#[mcp_resource(uri = "...", mime_type = "...", ...)]`.

use proc_macro2::TokenStream;
use syn::{LitInt, LitStr};

use super::{Common, set_once, string_value};

pub(super) const RESOURCE_KEYS: &str = "uri, name, title, description, mime_type, size, audience, priority, cache_ttl_ms, cache_scope, scopes, crate";

/// The values of `cache_scope`.
pub(crate) const CACHE_SCOPES: &str = "public, private";

/// What a priority is, for error messages.
pub(crate) const PRIORITY: &str =
    "a priority is a number from 0.0 (entirely optional) to 1.0 (effectively required)";

/// What `#[mcp_resource(...)]` said.
#[derive(Default)]
pub(crate) struct ResourceAttr {
    pub(crate) common: Common,
    pub(crate) uri: Option<LitStr>,
    pub(crate) mime_type: Option<LitStr>,
    pub(crate) size: Option<LitInt>,
    /// `"user"`, `"assistant"` or `"user, assistant"`.
    pub(crate) audience: Option<LitStr>,
    pub(crate) priority: Option<Priority>,
    /// `cache_ttl_ms = 60_000`: whole milliseconds, 0 or more.
    pub(crate) cache_ttl_ms: Option<CacheTtl>,
    /// `cache_scope = "public"` or `"private"`.
    pub(crate) cache_scope: Option<LitStr>,
}

/// `cache_ttl_ms = 60_000`.
pub(crate) struct CacheTtl {
    pub(crate) literal: LitInt,
    pub(crate) millis: u64,
}

/// `priority = 0.5` (or `1`, `0`).
pub(crate) struct Priority {
    pub(crate) literal: syn::Lit,
    pub(crate) value: f64,
}

/// Parses the attribute's tokens; the first mistake is an error on its tokens.
pub(crate) fn parse_resource_attr(tokens: TokenStream) -> syn::Result<ResourceAttr> {
    let mut attr = ResourceAttr::default();
    super::parse_keys(tokens, "mcp_resource", "uri", |meta| {
        let key = super::key_of(&meta);
        if attr.common.parse_key(&meta, &key)? {
            return Ok(());
        }
        match key.as_str() {
            "uri" => set_once(&mut attr.uri, &meta, &key, || {
                string_value(&meta, "uri = \"scheme://...\"")
            })?,
            "mime_type" => set_once(&mut attr.mime_type, &meta, &key, || {
                string_value(&meta, "mime_type = \"text/plain\"")
            })?,
            "audience" => set_once(&mut attr.audience, &meta, &key, || {
                string_value(
                    &meta,
                    "audience = \"user\", \"assistant\" or \"user, assistant\"",
                )
            })?,
            "size" => set_once(&mut attr.size, &meta, &key, || size_value(&meta))?,
            "priority" => set_once(&mut attr.priority, &meta, &key, || priority_value(&meta))?,
            "cache_ttl_ms" => set_once(&mut attr.cache_ttl_ms, &meta, &key, || {
                cache_ttl_value(&meta)
            })?,
            "cache_scope" => set_once(&mut attr.cache_scope, &meta, &key, || {
                string_value(&meta, "cache_scope = \"public\" or \"private\"")
            })?,
            _ => return Err(super::unknown_key(&meta, "mcp_resource", RESOURCE_KEYS)),
        }
        Ok(())
    })?;
    Ok(attr)
}

fn size_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<LitInt> {
    let value: syn::Expr = super::value_after(meta, "size = 1024")?.parse()?;
    if let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(size),
        ..
    }) = &value
        && size.base10_parse::<u64>().is_ok()
    {
        return Ok(size.clone());
    }
    Err(syn::Error::new_spanned(
        value,
        "a size is a whole number of bytes: `size = 1024`",
    ))
}

fn cache_ttl_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<CacheTtl> {
    let value: syn::Expr = super::value_after(meta, "cache_ttl_ms = 60_000")?.parse()?;
    if let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(literal),
        ..
    }) = &value
        && let Ok(millis) = literal.base10_parse::<u64>()
    {
        return Ok(CacheTtl {
            literal: literal.clone(),
            millis,
        });
    }
    Err(syn::Error::new_spanned(
        value,
        "a cache lifetime is a whole number of milliseconds, 0 or more: `cache_ttl_ms = 60_000` (one minute)",
    ))
}

fn priority_value(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Priority> {
    let value: syn::Expr = super::value_after(meta, "priority = 0.5")?.parse()?;
    let number = match &value {
        syn::Expr::Lit(syn::ExprLit { lit, .. }) => match lit {
            syn::Lit::Float(float) => float.base10_parse::<f64>().ok(),
            syn::Lit::Int(int) => int.base10_parse::<f64>().ok(),
            _ => None,
        }
        .map(|number| (lit.clone(), number)),
        _ => None,
    };
    match number {
        Some((literal, value)) => Ok(Priority { literal, value }),
        None => Err(syn::Error::new_spanned(
            value,
            format!("{PRIORITY}: `priority = 0.5`"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_priority_is_a_number_written_either_way() {
        let attr = parse_resource_attr(quote::quote!(uri = "x://a", priority = 1)).unwrap();
        assert_eq!(attr.priority.unwrap().value, 1.0);
        let attr = parse_resource_attr(quote::quote!(uri = "x://a", priority = 0.25)).unwrap();
        assert_eq!(attr.priority.unwrap().value, 0.25);
        let error = parse_resource_attr(quote::quote!(priority = "high"))
            .err()
            .unwrap();
        assert!(error.to_string().starts_with("a priority is a number"));
    }

    #[test]
    fn a_cache_lifetime_is_a_whole_number_of_milliseconds() {
        let attr = parse_resource_attr(quote::quote!(cache_ttl_ms = 60_000)).unwrap();
        assert_eq!(attr.cache_ttl_ms.unwrap().millis, 60_000);
        for wrong in [
            quote::quote!(cache_ttl_ms = -1),
            quote::quote!(cache_ttl_ms = 1.5),
            quote::quote!(cache_ttl_ms = "60"),
        ] {
            let error = parse_resource_attr(wrong).err().unwrap();
            assert!(error.to_string().starts_with("a cache lifetime"), "{error}");
        }
    }

    #[test]
    fn string_keys_say_what_they_take() {
        let error = parse_resource_attr(quote::quote!(uri = gifts))
            .err()
            .unwrap();
        assert_eq!(
            error.to_string(),
            "`uri` takes a string literal: `uri = \"scheme://...\"`"
        );
    }
}
