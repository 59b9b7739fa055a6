//! The example servers' binaries, for tests that run them as child processes.

#![allow(dead_code, unreachable_pub)]

use std::path::PathBuf;

/// An example binary; cargo builds examples before it runs integration tests.
pub fn example(name: &str) -> PathBuf {
    let deps = std::env::current_exe().expect("the test binary's path");
    let profile_dir = deps
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>");
    let path = profile_dir.join("examples").join(name);
    assert!(
        path.exists(),
        "{} is not built: `cargo test` builds the examples only when it runs every test target (`cargo build --examples` builds them alone)",
        path.display()
    );
    path
}
