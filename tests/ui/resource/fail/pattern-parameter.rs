use mcp_runtime::prelude::*;

/// A price.
#[mcp_resource(uri = "gifts://price/{amount}")]
fn price((amount, currency): (f64, String)) -> String {
    format!("{amount} {currency}")
}

fn main() {}
