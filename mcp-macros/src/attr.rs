//! The attribute's arguments: `#[mcp_tool(name = "...", read_only, ...)]`.

use proc_macro2::TokenStream;
use syn::LitStr;
use syn::parse::Parser;

/// The keys `#[mcp_tool]` accepts, as listed in error messages.
const TOOL_KEYS: &str =
    "name, title, description, read_only, destructive, idempotent, open_world, crate";

/// What `#[mcp_tool(...)]` said.
#[derive(Default)]
pub(crate) struct ToolAttr {
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
    pub(crate) krate: Option<syn::Path>,
}

/// Parses the attribute's tokens; the first mistake is an error on its tokens.
pub(crate) fn parse_tool_attr(tokens: TokenStream) -> syn::Result<ToolAttr> {
    let mut attr = ToolAttr::default();
    let parser = syn::meta::parser(|meta| {
        let key = meta
            .path
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        let duplicate = || meta.error(format!("`{key}` is given twice"));
        match key.as_str() {
            "name" | "title" | "description" => {
                let value: LitStr = meta.value()?.parse()?;
                let slot = match key.as_str() {
                    "name" => &mut attr.name,
                    "title" => &mut attr.title,
                    _ => &mut attr.description,
                };
                if slot.is_some() {
                    return Err(duplicate());
                }
                *slot = Some(value);
            }
            "read_only" | "destructive" | "idempotent" | "open_world" => {
                let value = if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::LitBool>()?.value
                } else {
                    true
                };
                let slot = match key.as_str() {
                    "read_only" => &mut attr.read_only,
                    "destructive" => &mut attr.destructive,
                    "idempotent" => &mut attr.idempotent,
                    _ => &mut attr.open_world,
                };
                if slot.is_some() {
                    return Err(duplicate());
                }
                *slot = Some(value);
            }
            "crate" => {
                if attr.krate.is_some() {
                    return Err(duplicate());
                }
                attr.krate = Some(meta.value()?.parse()?);
            }
            _ => {
                let shown = quote::ToTokens::to_token_stream(&meta.path).to_string();
                return Err(meta.error(format!(
                    "unknown `mcp_tool` key `{}`; the keys are: {TOOL_KEYS}",
                    shown.replace(' ', "")
                )));
            }
        }
        Ok(())
    });
    parser.parse2(tokens)?;
    Ok(attr)
}
