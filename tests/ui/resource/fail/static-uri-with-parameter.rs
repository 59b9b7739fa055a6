use mcp_runtime::prelude::*;

/// The catalog, in a language.
#[mcp_resource(uri = "gifts://catalog")]
fn catalog(lang: String) -> String {
    lang
}

fn main() {}
