use mcp_runtime::prelude::*;

struct Style {
    signature: String,
}

impl Style {
    /// A congratulation, signed.
    #[mcp_prompt]
    fn congratulate(&self, name: String) -> String {
        format!("Congratulate {name}; sign {}.", self.signature)
    }
}

fn main() {
    let style = Style {
        signature: "The shop".to_owned(),
    };
    let _ = style.congratulate("Ada".to_owned());
}
