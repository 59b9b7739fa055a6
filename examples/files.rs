//! Serves the files of one folder as resources, safely: a URI can never reach outside it.
//!
//! ```text
//! cargo run --release --example files -- ./some/folder
//! ```
//!
//! `files:///{+path}` is a URI template whose `path` may span slashes; `read_file` (with
//! `safe_join`'s checks) refuses `..`, absolute paths and symbolic links that lead out of the folder, so
//! `files:///../../etc/passwd` is an error, not a leak, and reads regular files only: a FIFO
//! or a device in the folder is refused at once, never waited on. Completion (`list_files`)
//! lists only files inside the folder, follows no link out of it and ends on link loops.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use mcp_runtime::prelude::*;
use mcp_runtime::{list_files, read_file};

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
    let bytes = read_file(root(), &path, MAX_FILE_BYTES)?;
    let uri = format!("files:///{path}");
    Ok(match String::from_utf8(bytes) {
        Ok(text) => ResourceContents::Text {
            uri,
            mime_type: Some(mime_type(Path::new(&path)).to_owned()),
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

/// The largest file served, in bytes (a larger one is refused rather than held in memory).
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// How many entries completion looks at, at most, in a large folder.
const MAX_LISTED_ENTRIES: usize = 10_000;

/// Every file path under the folder, for completion.
fn paths(_prefix: &str) -> Vec<String> {
    list_files(root(), MAX_LISTED_ENTRIES)
}

fn main() -> Result<(), mcp_runtime::Error> {
    // The first argument that is neither an option nor `--http`'s address; `run` reads those.
    let mut args = std::env::args().skip(1);
    let mut folder = None;
    while let Some(arg) = args.next() {
        if arg == "--http" {
            args.next();
        } else if !arg.starts_with('-') {
            folder.get_or_insert(arg);
        }
    }
    let folder = folder.unwrap_or_else(|| ".".to_owned());
    let folder = PathBuf::from(&folder).canonicalize().map_err(|error| {
        std::io::Error::new(
            error.kind(),
            format!("cannot serve the folder `{folder}`: {error}"),
        )
    })?;
    eprintln!("serving the files of {}", folder.display());
    ROOT.set(folder).expect("set once");
    mcp_runtime::server!().name("files").run()
}
