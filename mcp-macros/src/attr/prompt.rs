//! `#[mcp_prompt(name = "...", title = "...")]`.

use proc_macro2::TokenStream;
use syn::LitStr;
use syn::parse::Parser;

use super::{set_once, string_value};

pub(super) const PROMPT_KEYS: &str = "name, title, description, crate";

/// What `#[mcp_prompt(...)]` said.
#[derive(Default)]
pub(crate) struct PromptAttr {
    pub(crate) name: Option<LitStr>,
    pub(crate) title: Option<LitStr>,
    pub(crate) description: Option<LitStr>,
    pub(crate) krate: Option<syn::Path>,
}

/// Parses the attribute's tokens; the first mistake is an error on its tokens.
pub(crate) fn parse_prompt_attr(tokens: TokenStream) -> syn::Result<PromptAttr> {
    let mut attr = PromptAttr::default();
    let parser = syn::meta::parser(|meta| {
        let key = super::key_of(&meta);
        match key.as_str() {
            "name" => set_once(&mut attr.name, &meta, &key, || {
                string_value(&meta, "name = \"...\"")
            })?,
            "title" => set_once(&mut attr.title, &meta, &key, || {
                string_value(&meta, "title = \"...\"")
            })?,
            "description" => set_once(&mut attr.description, &meta, &key, || {
                string_value(&meta, "description = \"...\"")
            })?,
            "crate" => set_once(&mut attr.krate, &meta, &key, || meta.value()?.parse())?,
            _ => return Err(super::unknown_key(&meta, "mcp_prompt", PROMPT_KEYS)),
        }
        Ok(())
    });
    parser.parse2(tokens)?;
    Ok(attr)
}
