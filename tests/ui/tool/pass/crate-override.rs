//! Generated code reaches the runtime through the path given with `crate = ...`, for crates
//! that use `mcp_runtime` through a re-export; the path may also be written in a string, as
//! serde's `crate = "..."` is.

mod framework {
    pub use mcp_runtime as runtime;
}

use framework::runtime::mcp_tool;

/// Says hello.
#[mcp_tool(crate = crate::framework::runtime)]
fn hello() -> String {
    "hello".to_owned()
}

mod nested {
    use crate::framework::runtime::mcp_tool;

    /// Says goodbye.
    #[mcp_tool(crate = super::framework::runtime)]
    pub(crate) fn goodbye() -> String {
        "goodbye".to_owned()
    }
}

/// Waves.
#[mcp_tool(crate = "crate::framework::runtime")]
fn wave() -> String {
    "o/".to_owned()
}

fn main() {
    framework::runtime::Server::builder(framework::runtime::server_info!())
        .tool::<hello>()
        .tool::<nested::goodbye>()
        .tool::<wave>()
        .build()
        .unwrap();
}
