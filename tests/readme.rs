//! The README's Rust examples are what a user pastes: mcp-runtime's doctests compile (and run)
//! them (`ReadmeDoctests` in `mcp-runtime/src/lib.rs`), and this test keeps them pasteable:
//! no rustdoc hidden line (`# ...`), which a reader would not see, and no `ignore`d block,
//! which nothing would check.

/// One fenced code block: where it starts, its fence info (`rust,no_run`) and its lines.
struct Block<'a> {
    start: usize,
    info: &'a str,
    lines: Vec<(usize, &'a str)>,
}

/// Each Rust code block of `markdown`.
fn rust_blocks(markdown: &str) -> Vec<Block<'_>> {
    let mut blocks = Vec::new();
    let mut open: Option<Block<'_>> = None;
    for (number, line) in markdown.lines().enumerate().map(|(i, line)| (i + 1, line)) {
        match (open.take(), line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    start: number,
                    info,
                    lines: Vec::new(),
                })
            }
            (None, None) => {}
            (Some(block), Some(_)) => blocks.push(block),
            (Some(mut block), None) => {
                block.lines.push((number, line));
                open = Some(block);
            }
        }
    }
    assert!(open.is_none(), "a code block of the README is not closed");
    blocks
        .into_iter()
        // rustdoc reads a block without a language, or whose first word is `rust`, as Rust.
        .filter(|block| block.info.is_empty() || block.info.split(',').next() == Some("rust"))
        .collect()
}

#[test]
fn readme_rust_blocks_have_no_hidden_lines_and_none_is_ignored() {
    let readme = include_str!("../README.md");
    let blocks = rust_blocks(readme);
    assert!(
        blocks.len() >= 5,
        "the README's Rust examples were not found"
    );
    let mut problems = Vec::new();
    for Block { start, info, lines } in &blocks {
        if info.split(',').any(|word| word.trim() == "ignore") {
            problems.push(format!(
                "line {start}: `ignore`d (use `no_run` for a server, or compile it)"
            ));
        }
        for (number, line) in lines {
            let trimmed = line.trim_start();
            if trimmed == "#" || trimmed.starts_with("# ") {
                problems.push(format!("line {number}: a hidden line, `{trimmed}`"));
            }
        }
    }
    assert!(problems.is_empty(), "README.md:\n{}", problems.join("\n"));
}

#[test]
fn hidden_lines_and_ignored_blocks_are_found() {
    let markdown = "```rust\nfn main() {}\n#   let hidden = 1;\n```\n\n```rust,ignore\nx\n```\n\n```json\n# not rust\n```\n";
    let blocks = rust_blocks(markdown);
    assert_eq!(blocks.len(), 2);
    assert_eq!(blocks[0].lines[1], (3, "#   let hidden = 1;"));
    assert_eq!(blocks[1].info, "rust,ignore");
}
