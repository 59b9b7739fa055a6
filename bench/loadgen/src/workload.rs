//! The requests each scenario sends, and what each reply must say.
//!
//! A scenario cycles through [`VARIANTS`] precomputed requests, so building a request costs the
//! client one copy and an id, and checking a reply one comparison.

use serde::Serialize;

/// Different requests per scenario, used in turn.
pub const VARIANTS: usize = 64;

/// What a reply must carry.
pub enum Expect {
    /// `result.content[0].text` equal to this, and no `isError`.
    Text(String),
    /// `result.tools` with this many entries.
    Tools(usize),
}

/// One request: its method and params; the id is spliced in when sent.
pub struct Variant {
    pub method: &'static str,
    pub params: String,
    pub expect: Expect,
}

/// The `_meta` every request of revision 2026-07-28 carries.
const STATELESS_META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"loadgen","version":"0"}}"#;

/// The variants of tool (or method) `name`, or `None` if there is no such workload; with
/// `stateless`, each request's params carry the `_meta` of revision 2026-07-28.
pub fn variants(name: &str, stateless: bool) -> Option<Vec<Variant>> {
    let mut variants = variants_of(name)?;
    if stateless {
        for variant in &mut variants {
            let mut params: serde_json::Value =
                serde_json::from_str(&variant.params).expect("params are JSON");
            params["_meta"] = serde_json::from_str(STATELESS_META).expect("the meta is JSON");
            variant.params = params.to_string();
        }
    }
    Some(variants)
}

fn variants_of(name: &str) -> Option<Vec<Variant>> {
    let variants = match name {
        "add" => (0..VARIANTS as i64)
            .map(|v| {
                let (a, b) = (v * 7 - 100, v * 13 + 1);
                call(
                    "add",
                    serde_json::json!({"a": a, "b": b}),
                    (a + b).to_string(),
                )
            })
            .collect(),
        "echo" => (0..VARIANTS)
            .map(|v| {
                let text = format!(
                    "hello, world: message {v} {}",
                    "é-\"quoted\"-".repeat(v % 4)
                );
                call("echo", serde_json::json!({"text": text}), text)
            })
            .collect(),
        "summarize" => (0..VARIANTS).map(summarize_variant).collect(),
        "list" => vec![Variant {
            method: "tools/list",
            params: "{}".to_owned(),
            expect: Expect::Tools(3),
        }],
        _ => return None,
    };
    Some(variants)
}

fn call(tool: &str, arguments: serde_json::Value, text: String) -> Variant {
    Variant {
        method: "tools/call",
        params: serde_json::json!({"name": tool, "arguments": arguments}).to_string(),
        expect: Expect::Text(text),
    }
}

/// The servers' `summarize`, written once more to know the expected answer.
#[derive(Serialize)]
struct Summary<'a> {
    name: &'a str,
    kind: &'a str,
    tags: usize,
    first_tag: Option<&'a str>,
    total: f64,
    active: bool,
    note_chars: usize,
    distance: i64,
}

fn summarize_variant(v: usize) -> Variant {
    const TAGS: [&str; 4] = ["red", "green", "blue", "ultraviolet"];
    const KINDS: [&str; 3] = ["alpha", "beta", "gamma"];
    let name = format!("record-{v}");
    let count = v as i64 * 3 - 20;
    let score = 0.25 + v as f64 / 8.0;
    let active = v.is_multiple_of(2);
    let tags: Vec<&str> = TAGS[..v % 5].to_vec();
    let note = v
        .is_multiple_of(3)
        .then(|| format!("a note with ünïcode, number {v}"));
    let kind = KINDS[v % 3];
    let (x, y) = (v as i64 % 7 - 3, 11 - v as i64 % 5);
    let mut record = serde_json::json!({
        "name": name, "count": count, "score": score, "active": active, "tags": tags,
        "kind": kind, "origin": {"x": x, "y": y},
    });
    if let Some(note) = &note {
        record["note"] = serde_json::json!(note);
    }
    let summary = Summary {
        name: &name,
        kind,
        tags: tags.len(),
        first_tag: tags.first().copied(),
        total: count as f64 * score,
        active,
        note_chars: note.as_deref().map_or(0, |n| n.chars().count()),
        distance: x.abs() + y.abs(),
    };
    call(
        "summarize",
        serde_json::json!({"record": record}),
        serde_json::to_string(&summary).expect("a summary serializes"),
    )
}

/// Appends the request with `id` for `variant` to `out`, newline included.
pub fn write_request(out: &mut Vec<u8>, id: u64, variant: &Variant) {
    use std::io::Write;
    let _ = write!(
        out,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"{}","params":{}}}"#,
        variant.method, variant.params
    );
    out.push(b'\n');
}
