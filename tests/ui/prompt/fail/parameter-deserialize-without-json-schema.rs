use mcp_runtime::prelude::*;

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Warm,
    Formal,
}

/// A congratulation.
#[mcp_prompt]
fn congratulate(tone: Tone) -> String {
    match tone {
        Tone::Warm => "warm".to_owned(),
        Tone::Formal => "formal".to_owned(),
    }
}

fn main() {}
