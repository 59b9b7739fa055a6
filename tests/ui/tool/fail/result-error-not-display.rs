use mcp_runtime::prelude::*;

#[derive(Debug)]
enum GreetError {
    EmptyName,
}

/// Greets someone.
#[mcp_tool]
fn greet(name: String) -> Result<String, GreetError> {
    if name.is_empty() {
        return Err(GreetError::EmptyName);
    }
    Ok(format!("Hello, {name}!"))
}

fn main() {}
