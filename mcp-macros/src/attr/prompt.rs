//! `#[mcp_prompt(name = "...", title = "...")]`.

use proc_macro2::TokenStream;

use super::Common;

pub(super) const PROMPT_KEYS: &str = "name, title, description, scopes, crate";

/// What `#[mcp_prompt(...)]` said.
#[derive(Default)]
pub(crate) struct PromptAttr {
    pub(crate) common: Common,
}

/// Parses the attribute's tokens; the first mistake is an error on its tokens.
pub(crate) fn parse_prompt_attr(tokens: TokenStream) -> syn::Result<PromptAttr> {
    let mut attr = PromptAttr::default();
    super::parse_keys(tokens, "mcp_prompt", "name", |meta| {
        let key = super::key_of(&meta);
        if !attr.common.parse_key(&meta, &key)? {
            return Err(super::unknown_key(&meta, "mcp_prompt", PROMPT_KEYS));
        }
        Ok(())
    })?;
    Ok(attr)
}
