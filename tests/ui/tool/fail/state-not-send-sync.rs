use std::rc::Rc;

use mcp_runtime::prelude::*;

/// Counts calls.
#[mcp_tool]
fn count(counter: State<Rc<std::cell::Cell<u32>>>) -> String {
    counter.set(counter.get() + 1);
    counter.get().to_string()
}

fn main() {}
