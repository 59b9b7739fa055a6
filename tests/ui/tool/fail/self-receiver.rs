use mcp_runtime::prelude::*;

struct Greeter {
    greeting: String,
}

impl Greeter {
    /// Greets someone.
    #[mcp_tool]
    fn greet(&self, name: String) -> String {
        format!("{}, {name}!", self.greeting)
    }
}

fn main() {
    let greeter = Greeter {
        greeting: "Hello".to_owned(),
    };
    let _ = greeter.greet("world".to_owned());
}
