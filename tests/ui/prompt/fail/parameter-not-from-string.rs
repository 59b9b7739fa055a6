use mcp_runtime::prelude::*;

struct Recipient {
    name: String,
}

/// A congratulation.
#[mcp_prompt]
fn congratulate(recipient: Recipient) -> String {
    format!("Congratulate {}.", recipient.name)
}

fn main() {}
