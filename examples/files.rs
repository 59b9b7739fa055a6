//! Serves the files of one folder as resources, safely: a URI can never reach outside it.
//!
//! ```text
//! cargo run --release --example files -- ./some/folder
//! ```
//!
//! `files:///{+path}` is a URI template whose `path` may span slashes; `safe_join` refuses
//! `..`, absolute paths and symbolic links that lead out of the folder, so
//! `files:///../../etc/passwd` is an error, not a leak.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mcp_runtime::prelude::*;
use mcp_runtime::safe_join;

/// The folder being served.
static ROOT: OnceLock<PathBuf> = OnceLock::new();

fn root() -> &'static Path {
    ROOT.get().expect("main sets the folder first")
}

/// A file of the served folder, by its path inside the folder.
#[mcp_resource(uri = "files:///{+path}")]
fn file(
    /// The path inside the folder, e.g. `notes/today.md`.
    #[complete(paths)]
    path: String,
) -> Result<ResourceContents, HandlerError> {
    let full = safe_join(root(), &path)?;
    let bytes = std::fs::read(&full)?;
    let uri = format!("files:///{path}");
    Ok(match String::from_utf8(bytes) {
        Ok(text) => ResourceContents::Text {
            uri,
            mime_type: Some(mime_type(&full).to_owned()),
            text,
        },
        Err(binary) => ResourceContents::blob(uri, "application/octet-stream", binary.as_bytes()),
    })
}

fn mime_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("md") => "text/markdown",
        Some("json") => "application/json",
        Some("html") => "text/html",
        _ => "text/plain",
    }
}

/// Every file path under the folder, for completion.
fn paths(_prefix: &str) -> Vec<String> {
    fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, base, out);
            } else if let Ok(relative) = path.strip_prefix(base) {
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    walk(root(), root(), &mut out);
    out.sort();
    out
}

fn main() -> Result<(), mcp_runtime::Error> {
    let folder = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--") && a.parse::<std::net::SocketAddr>().is_err())
        .unwrap_or_else(|| ".".to_owned());
    let folder = PathBuf::from(folder).canonicalize()?;
    eprintln!("serving the files of {}", folder.display());
    ROOT.set(folder).expect("set once");
    mcp_runtime::server!().name("files").run()
}
