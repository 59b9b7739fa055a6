//! Compile-time behaviour of `#[mcp_tool]`, `#[mcp_resource]` and `#[mcp_prompt]`: what each
//! accepts (`ui/<macro>/pass`, built and run: each `main` builds a server) and the one error
//! each mistake gives (`ui/<macro>/fail`, one mistake per file, named for it).
//!
//! The `.stderr` snapshots are for the compiler `rust-toolchain.toml` pins (also the MSRV).
//! Regenerate them with `TRYBUILD=overwrite cargo test --test ui` and review the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    for handler in ["tool", "resource", "prompt"] {
        cases.pass(format!("tests/ui/{handler}/pass/*.rs"));
        cases.compile_fail(format!("tests/ui/{handler}/fail/*.rs"));
    }
}
