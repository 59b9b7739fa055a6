use std::rc::Rc;

use mcp_runtime::prelude::*;

async fn pause() {}

/// Says hello, later.
#[mcp_tool]
async fn hello() -> String {
    let greeting = Rc::new("hello".to_owned());
    pause().await;
    greeting.to_string()
}

fn main() {}
