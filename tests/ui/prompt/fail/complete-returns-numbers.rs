use mcp_runtime::prelude::*;

fn ages(_prefix: &str) -> Vec<u32> {
    vec![18, 21, 30]
}

/// A congratulation.
#[mcp_prompt]
fn congratulate(#[complete(ages)] age: u32) -> String {
    format!("Congratulate on turning {age}.")
}

fn main() {}
