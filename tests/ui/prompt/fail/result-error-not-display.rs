use mcp_runtime::prelude::*;

#[derive(Debug)]
struct NoName;

/// A congratulation.
#[mcp_prompt]
fn congratulate(name: String) -> Result<String, NoName> {
    if name.is_empty() {
        return Err(NoName);
    }
    Ok(format!("Congratulate {name}."))
}

fn main() {}
