//! The layers of `mcp-runtime` as ARCHITECTURE.md draws them, checked against the code: every
//! top-level module is in the drawing once, each imports only from its own row or the rows
//! below it, and no two modules import from each other, directly or around a loop.
//!
//! What counts as an import is every `crate::module` path outside comments (a `use`, a path in
//! an expression or a type, a `deserialize_with = "crate::..."` string), a `crate::Name` the
//! crate root re-exports from `module`, and a `super::` path that climbs out of its top-level
//! module. Macro invocations (`crate::server_info!`) are not imports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The rows of the drawing, top first: each row's module names (`transport/`, `sharded.rs`)
/// without their `/` or `.rs`.
fn drawn_rows() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).unwrap();
    let section = text
        .split("## The layers of `mcp-runtime`")
        .nth(1)
        .expect("ARCHITECTURE.md has a section `The layers of `mcp-runtime``");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the layers section draws the layers in a ```text block");
    let mut rows = Vec::new();
    for line in block.lines() {
        // A row starts in the third column with its modules, separated by single spaces and
        // ended by two spaces (then what the row holds); other lines continue a row.
        let Some(rest) = line.strip_prefix("  ") else {
            continue;
        };
        if !rest.starts_with(|c: char| c.is_ascii_lowercase()) {
            continue;
        }
        let names = rest.split("  ").next().unwrap();
        let row: Vec<String> = names
            .split(' ')
            .map(|name| {
                let module = name
                    .strip_suffix('/')
                    .or_else(|| name.strip_suffix(".rs"))
                    .filter(|m| {
                        m.starts_with(|c: char| c.is_ascii_lowercase())
                            && m.chars().all(|c| {
                                c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
                            })
                    });
                module
                    .unwrap_or_else(|| {
                        panic!("`{name}` in the layer row {line:?} is not a module (`name/` or `name.rs`)")
                    })
                    .to_owned()
            })
            .collect();
        rows.push(row);
    }
    rows
}

/// The top-level modules of `mcp-runtime/src`, each with its files.
fn modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut modules = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
        if path.is_dir() {
            let mut files = Vec::new();
            rust_files(&path, &mut files);
            modules.insert(name, files);
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" {
            modules.insert(name, vec![path]);
        }
    }
    modules
}

fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The names the crate root re-exports (`pub use module::{A, B};`), and from which module.
fn root_names(lib: &str, modules: &BTreeMap<String, Vec<PathBuf>>) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in lib.split("pub use ").skip(1) {
        let statement = statement.split(';').next().unwrap();
        let module = statement.split("::").next().unwrap().trim();
        if !modules.contains_key(module) {
            continue; // the macros, schemars, serde
        }
        for name in identifiers(statement).skip(1) {
            names.insert(name.to_owned(), module.to_owned());
        }
    }
    names
}

fn identifiers(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty() && !matches!(*word, "as" | "self"))
}

/// Code without its `//` comments (doc comments included).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // `://` is a URL in a string, not a comment.
            Some(at) if !line[..at].ends_with(':') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Code without its `#[cfg(test)] mod ... { ... }` blocks (or `cfg(all(test, ...))`): a module's unit tests may build a
/// whole server; what the crate is built from is what is layered.
fn without_test_modules(code: &str) -> String {
    let mut kept = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(") {
        let end = at + rest[at..].find(']').map_or(rest.len() - at, |i| i + 1);
        let condition = &rest[at..end];
        let for_tests =
            identifiers(condition).any(|word| word == "test") && !condition.contains("not(test");
        let after = rest[end..].trim_start();
        let is_module = after.starts_with("mod ") || after.starts_with("pub(crate) mod ");
        let open = after.find('{');
        let (true, true, Some(open)) = (for_tests, is_module, open) else {
            kept.push_str(&rest[..end]);
            rest = &rest[end..];
            continue;
        };
        kept.push_str(&rest[..at]);
        let body = &after[open..];
        rest = &body[block_end(body)..];
    }
    kept.push_str(rest);
    kept
}

/// The length of the `{ ... }` block `text` starts with, skipping string and character
/// literals.
fn block_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The top-level modules named by `code`, the code of a file `depth` modules below the root.
fn imports(
    code: &str,
    depth: usize,
    names: &BTreeMap<String, String>,
    modules: &BTreeMap<String, Vec<PathBuf>>,
) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let is_path_start = !rest[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        rest = &rest[at + "crate::".len()..];
        if !is_path_start {
            continue;
        }
        // `crate::{a::X, B}`: the first segment of each path in the group.
        let firsts: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                group
                    .split(',')
                    .filter_map(|path| identifiers(path.trim()).next())
                    .collect()
            }
            None => {
                let name = identifiers(rest).next().unwrap_or("");
                let after =
                    rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
                if !rest.starts_with(name) || after.starts_with('!') {
                    continue;
                }
                vec![name]
            }
        };
        for name in firsts {
            if modules.contains_key(name) {
                found.insert(name.to_owned());
            } else if let Some(module) = names.get(name) {
                found.insert(module.clone());
            }
        }
    }
    // `super::super::x` from a file `depth` modules down climbs to the root when it has
    // `depth` `super`s.
    let climb = "super::".repeat(depth);
    let mut rest = code;
    while let Some(at) = rest.find(&climb) {
        let before_ok =
            !rest[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':');
        rest = &rest[at + climb.len()..];
        let name = identifiers(rest).next().unwrap_or("");
        if before_ok && rest.starts_with(name) && name != "super" && modules.contains_key(name) {
            found.insert(name.to_owned());
        }
    }
    found
}

#[test]
fn imports_point_down_the_layers_of_architecture_md() {
    let src = Path::new(ROOT).join("mcp-runtime/src");
    let modules = modules(&src);
    let rows = drawn_rows();

    let mut row_of = BTreeMap::new();
    for (index, row) in rows.iter().enumerate() {
        for module in row {
            assert!(
                modules.contains_key(module),
                "ARCHITECTURE.md draws `{module}`, which is not a module of mcp-runtime/src"
            );
            assert!(
                row_of.insert(module.clone(), index).is_none(),
                "ARCHITECTURE.md draws `{module}` twice"
            );
        }
    }
    let undrawn: Vec<_> = modules
        .keys()
        .filter(|m| !row_of.contains_key(*m))
        .collect();
    assert!(
        undrawn.is_empty(),
        "modules missing from the layers of ARCHITECTURE.md: {undrawn:?}"
    );

    let lib = without_comments(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let names = root_names(&lib, &modules);
    assert!(
        names.get("Context").map(String::as_str) == Some("context")
            && names.get("ServerHandle").map(String::as_str) == Some("server"),
        "the re-exports of lib.rs were not read: {names:?}"
    );

    let mut graph = Graph::new();
    let mut upward = Vec::new();
    for (module, files) in &modules {
        for file in files {
            let relative = file.strip_prefix(&src).unwrap();
            // `a.rs` and `a/mod.rs` are one module below the root; `a/b.rs`, two.
            let depth = relative.components().count()
                - usize::from(relative.file_name().is_some_and(|f| f == "mod.rs"));
            let code = without_comments(&std::fs::read_to_string(file).unwrap());
            let code = without_test_modules(&code);
            for import in imports(&code, depth, &names, &modules) {
                if &import == module {
                    continue;
                }
                if row_of[&import] < row_of[module] {
                    upward.push(format!(
                        "{} imports `{import}`, drawn above `{module}`",
                        relative.display()
                    ));
                }
                graph.entry(module.clone()).or_default().insert(import);
            }
        }
    }
    assert!(
        upward.is_empty(),
        "imports that point up the layers of ARCHITECTURE.md:\n{}",
        upward.join("\n")
    );

    // Within a row, modules may import each other, but never around a loop.
    if let Some(cycle) = cycle(&graph) {
        panic!("an import cycle: {}", cycle.join(" -> "));
    }
}

type Graph = BTreeMap<String, BTreeSet<String>>;

/// A loop of imports in `graph`, if there is one: its modules, the first repeated at the end.
fn cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == module) {
            let mut cycle = path[start..].to_vec();
            cycle.push(module.to_owned());
            return Some(cycle);
        }
        if done.contains(module) {
            return None;
        }
        path.push(module.to_owned());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(module.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|module| visit(module, graph, &mut Vec::new(), &mut done))
}

#[test]
fn a_cycle_is_seen() {
    let graph = |edges: &[(&str, &str)]| {
        let mut graph = Graph::new();
        for (from, to) in edges {
            graph
                .entry(from.to_string())
                .or_default()
                .insert(to.to_string());
        }
        graph
    };
    assert_eq!(cycle(&graph(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
    assert_eq!(
        cycle(&graph(&[("a", "b"), ("b", "c"), ("c", "a")])),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
}

#[test]
fn an_upward_import_is_seen() {
    let mut modules = BTreeMap::new();
    for name in ["context", "server", "outbound"] {
        modules.insert(name.to_owned(), Vec::new());
    }
    let mut names = BTreeMap::new();
    names.insert("ServerHandle".to_owned(), "server".to_owned());
    let code = without_comments(
        "use crate::server::Session; // crate::outbound\n\
         fn f() -> crate::ServerHandle { crate::server_info!() }\n\
         use super::super::outbound::Outbound;\n\
         /// [`x`](crate::outbound::X)\n",
    );
    let found = imports(&code, 2, &names, &modules);
    let expected: BTreeSet<String> = ["server", "outbound"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, expected);
    let found = imports(
        "use crate::{context::Context, ServerHandle};",
        1,
        &names,
        &modules,
    );
    let expected: BTreeSet<String> = ["context", "server"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(found, expected);
    let code = without_test_modules(
        "use crate::outbound::O;\n#[cfg(test)]\nmod tests {\n    use crate::server::S;\n    const C: char = '{';\n}\nfn after() {}\n#[cfg(all(test, unix))]\nmod more { use crate::server::T; }",
    );
    assert_eq!(code, "use crate::outbound::O;\n\nfn after() {}\n");
    let found = imports(
        "use crate::context_free::X; let a = mycrate::server::Y; use super::server::Z;",
        2,
        &names,
        &modules,
    );
    assert!(found.is_empty(), "{found:?}");
}
