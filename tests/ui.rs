//! Compile-time behaviour of `#[mcp_tool]`: what it accepts (`ui/tool/pass`) and the one
//! error each mistake gives (`ui/tool/fail`, one mistake per file, named for it).
//!
//! The `.stderr` snapshots are for the workspace's pinned compiler (`rust-version`).
//! Regenerate them with `TRYBUILD=overwrite cargo test --test ui` and review the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/tool/pass/*.rs");
    cases.compile_fail("tests/ui/tool/fail/*.rs");
}
