//! `#[mcp_resource(uri = "...", mime_type = "...", ...)]`.

use proc_macro2::TokenStream;
use syn::parse::Parser;
use syn::{LitFloat, LitInt, LitStr};

const RESOURCE_KEYS: &str =
    "uri, name, title, description, mime_type, size, audience, priority, crate";

/// What `#[mcp_resource(...)]` said.
#[derive(Default)]
pub(crate) struct ResourceAttr {
    pub(crate) uri: Option<LitStr>,
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) mime_type: Option<LitStr>,
    pub(crate) size: Option<LitInt>,
    /// `"user"`, `"assistant"` or `"user, assistant"`.
    pub(crate) audience: Option<LitStr>,
    pub(crate) priority: Option<LitFloat>,
    pub(crate) krate: Option<syn::Path>,
}

/// Parses the attribute's tokens; the first mistake is an error on its tokens.
pub(crate) fn parse_resource_attr(tokens: TokenStream) -> syn::Result<ResourceAttr> {
    let mut attr = ResourceAttr::default();
    let parser = syn::meta::parser(|meta| {
        let key = super::key_of(&meta);
        macro_rules! once {
            ($slot:expr) => {{
                if $slot.is_some() {
                    return Err(syn::Error::new_spanned(
                        &meta.path,
                        format!("`{key}` is given twice; keep one"),
                    ));
                }
                $slot = Some(meta.value()?.parse()?);
            }};
        }
        match key.as_str() {
            "uri" => once!(attr.uri),
            "name" => once!(attr.name),
            "title" => once!(attr.title),
            "description" => once!(attr.description),
            "mime_type" => once!(attr.mime_type),
            "size" => once!(attr.size),
            "audience" => once!(attr.audience),
            "priority" => once!(attr.priority),
            "crate" => once!(attr.krate),
            _ => return Err(super::unknown_key(&meta, "mcp_resource", RESOURCE_KEYS)),
        }
        Ok(())
    });
    parser.parse2(tokens)?;
    Ok(attr)
}
