use mcp_runtime::prelude::*;

/// Sets a temperature.
#[mcp_tool]
fn set_temperature(#[header("Degrees")] degrees: f64) -> String {
    format!("{degrees}")
}

fn main() {}
