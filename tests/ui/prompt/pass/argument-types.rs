use mcp_runtime::prelude::*;

/// The tone of a message.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tone {
    Warm,
    Formal,
}

type Age = u8;

/// A birthday congratulation.
#[mcp_prompt]
fn congratulate(
    /// Who to congratulate.
    name: String,
    /// The tone, warm by default.
    tone: Option<Tone>,
    /// How old they turn, if it should be said.
    age: Option<Age>,
    /// Whether to mention the gift.
    mention_gift: bool,
    /// The message's length, in sentences.
    sentences: u32,
    /// How enthusiastic, from 0 to 1.
    warmth: f64,
) -> String {
    let tone = match tone.unwrap_or(Tone::Warm) {
        Tone::Warm => "warm",
        Tone::Formal => "formal",
    };
    let age = age.map(|age| format!(" turning {age}")).unwrap_or_default();
    format!(
        "Write a {tone} ({warmth}) congratulation of {sentences} sentences for {name}{age}{}.",
        if mention_gift {
            ", mentioning the gift"
        } else {
            ""
        }
    )
}

/// The tone alone.
#[mcp_prompt]
fn tone_only(tone: Tone) -> String {
    match tone {
        Tone::Warm => "warm".to_owned(),
        Tone::Formal => "formal".to_owned(),
    }
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .prompt::<congratulate>()
        .prompt::<tone_only>()
        .build()
        .unwrap();
}
