use mcp_runtime::prelude::*;

struct Greeter;

impl Greeter {
    /// Says hello.
    #[mcp_tool]
    fn hello() -> String {
        "hello".to_owned()
    }
}

fn main() {
    let _ = Greeter::hello();
}
