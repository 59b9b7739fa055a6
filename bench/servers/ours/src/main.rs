//! The benchmark server written with mcp-runtime: `#[mcp_tool]` functions in `tools.rs`,
//! served over stdio.

mod tools;

fn main() -> Result<(), mcp_runtime::Error> {
    mcp_runtime::server!().run()
}
