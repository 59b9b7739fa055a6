//! `#[mcp_prompt(name = "...", title = "...")]`.

use proc_macro2::TokenStream;
use syn::LitStr;
use syn::parse::Parser;

use super::{duplicate_key, string_value};

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
        macro_rules! once {
            ($slot:expr, $value:expr) => {{
                if $slot.is_some() {
                    return Err(duplicate_key(&meta, &key));
                }
                $slot = Some($value);
            }};
        }
        match key.as_str() {
            "name" => once!(attr.name, string_value(&meta, "name = \"...\"")?),
            "title" => once!(attr.title, string_value(&meta, "title = \"...\"")?),
            "description" => once!(
                attr.description,
                string_value(&meta, "description = \"...\"")?
            ),
            "crate" => once!(attr.krate, meta.value()?.parse()?),
            _ => return Err(super::unknown_key(&meta, "mcp_prompt", PROMPT_KEYS)),
        }
        Ok(())
    });
    parser.parse2(tokens)?;
    Ok(attr)
}
