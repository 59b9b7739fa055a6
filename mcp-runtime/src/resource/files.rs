//! Serving files safely: a URI variable must never lead outside the folder it is meant for,
//! and reading what it names must never block the server (a FIFO, a device).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::handler_error::HandlerError;

/// `root` joined with the relative path `requested`, refusing anything that could leave
/// `root`: absolute paths, `..` components, and symbolic links pointing outside it.
///
/// The file must exist (a missing one is "Resource not found"), since only an existing path can
/// be checked for links.
///
/// ```
/// # let root = std::env::temp_dir();
/// use mcp_runtime::safe_join;
/// assert!(safe_join(&root, "../etc/passwd").is_err());
/// assert!(safe_join(&root, "/etc/passwd").is_err());
/// ```
pub fn safe_join(root: &Path, requested: &str) -> Result<PathBuf, HandlerError> {
    let relative = Path::new(requested);
    let escapes = relative.components().any(|c| {
        matches!(
            c,
            Component::ParentDir | Component::RootDir | Component::Prefix(_)
        )
    });
    if escapes || requested.contains('\0') {
        return Err(HandlerError::invalid_params(format!(
            "`{requested}` is not a path inside the served folder"
        )));
    }
    let root = root
        .canonicalize()
        .map_err(|e| HandlerError::internal(format!("the served folder is unavailable: {e}")))?;
    let joined = root.join(relative);
    let resolved = joined.canonicalize().map_err(HandlerError::from)?;
    if !resolved.starts_with(&root) {
        return Err(HandlerError::invalid_params(format!(
            "`{requested}` leads outside the served folder"
        )));
    }
    Ok(resolved)
}

/// The contents of the regular file `requested` inside `root`, checked as [`safe_join`] does;
/// anything else (a folder, a FIFO, a socket, a device) is refused without being waited on,
/// and so is a file of more than `max_bytes`.
///
/// The file is opened without blocking and checked through the open handle, so a FIFO swapped
/// in after the check cannot stall the read either, and no more than `max_bytes` are read from
/// a file that grows meanwhile. Nor can a link swapped in after the check lead outside `root`:
/// the open follows no link at the end of the path, and (on Linux) the file opened is checked
/// to lie inside `root`, whatever a folder on the way became meanwhile.
///
/// ```
/// # let root = std::env::temp_dir();
/// use mcp_runtime::read_file;
/// assert!(read_file(&root, "../etc/passwd", 1 << 20).is_err());
/// assert!(read_file(&root, ".", 1 << 20).is_err()); // a folder
/// ```
pub fn read_file(root: &Path, requested: &str, max_bytes: u64) -> Result<Vec<u8>, HandlerError> {
    let path = safe_join(root, requested)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Opening a FIFO for reading waits for a writer unless non-blocking; the path has no link
    // left in it, so a link at its end now was put there since it was checked.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOFOLLOW,
    );
    let file = options.open(&path)?;
    if !opened_inside(&file, root) {
        return Err(HandlerError::invalid_params(format!(
            "`{requested}` leads outside the served folder"
        )));
    }
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(HandlerError::invalid_params(format!(
            "`{requested}` is not a regular file"
        )));
    }
    let too_big = || {
        HandlerError::invalid_params(format!(
            "`{requested}` is larger than the {max_bytes} bytes this server reads"
        ))
    };
    if metadata.len() > max_bytes {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big());
    }
    Ok(bytes)
}

/// Whether `file` lies inside `root`, by what the system says the open descriptor is (on
/// Linux, `/proc/self/fd`): a folder of the checked path may have been swapped for a link
/// before the open. Where the system cannot say, the check made before the open stands.
fn opened_inside(file: &std::fs::File, root: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let opened = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()));
        if let (Ok(opened), Ok(root)) = (opened, root.canonicalize()) {
            return opened.starts_with(root);
        }
    }
    let _ = (file, root);
    true
}

/// The regular files under `root`, as `/`-separated paths relative to it, sorted: for completing
/// a path argument. Symbolic links are never followed out of `root`: a link to a regular file
/// inside `root` is listed under its own name, any other link (outside, to a folder, a loop) is
/// left out, and folders are entered only as themselves, so every walk ends. FIFOs, sockets
/// and devices are left out. At most `max_entries` entries are looked at, so a huge folder
/// gives a partial list rather than a stalled server.
///
/// ```
/// # let root = std::env::temp_dir().join(format!("mcp-list-files-doc-{}", std::process::id()));
/// std::fs::create_dir_all(root.join("notes")).unwrap();
/// std::fs::write(root.join("notes/today.md"), "# Today").unwrap();
/// assert_eq!(mcp_runtime::list_files(&root, 10_000), ["notes/today.md"]);
/// # std::fs::remove_dir_all(&root).ok();
/// ```
pub fn list_files(root: &Path, max_entries: usize) -> Vec<String> {
    let root = match root.canonicalize() {
        Ok(root) => root,
        Err(error) => {
            // A folder that is not there lists nothing, and says so (at most once a second).
            static UNREADABLE: crate::limit_log::LimitLog = crate::limit_log::LimitLog::new();
            UNREADABLE.hit(|| unreadable_root(root, &error));
            return Vec::new();
        }
    };
    let mut found = Vec::new();
    let mut budget = max_entries;
    let mut folders = vec![root.clone()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            if budget == 0 {
                found.sort();
                return found;
            }
            budget -= 1;
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let listed = if kind.is_dir() {
                folders.push(path.clone());
                false
            } else if kind.is_symlink() {
                // `canonicalize` fails on a loop; `metadata` looks at the target without
                // opening it.
                path.canonicalize().is_ok_and(|target| {
                    target.starts_with(&root)
                        && std::fs::metadata(&target).is_ok_and(|m| m.is_file())
                })
            } else {
                kind.is_file()
            };
            if listed && let Ok(relative) = path.strip_prefix(&root) {
                found.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// The line that says why `list_files` lists nothing from `root`.
fn unreadable_root(root: &Path, error: &std::io::Error) -> String {
    format!(
        "list_files: cannot read the folder `{}` ({error}): nothing is listed",
        root.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_that_is_not_there_lists_nothing_and_is_named() {
        let missing = std::env::temp_dir().join(format!("mcp-no-such-{}", std::process::id()));
        assert!(list_files(&missing, 10).is_empty());
        let error = missing.canonicalize().unwrap_err();
        let line = unreadable_root(&missing, &error);
        assert!(
            line.contains(&missing.display().to_string()) && line.contains("nothing is listed"),
            "{line}"
        );
    }

    /// SECURITY.md, "The `files` example": the file a descriptor is open on is checked
    /// against the root, so a folder swapped for a link between the check and the open is
    /// caught (the swap itself is a race; what it leads to is a file opened outside).
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_opened_outside_the_root_is_told_apart() {
        let base = std::env::temp_dir().join(format!("mcp-opened-inside-{}", std::process::id()));
        let (root, outside) = (base.join("root"), base.join("outside"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("in.txt"), "in").unwrap();
        std::fs::write(outside.join("secret.txt"), "secret").unwrap();
        let inside = std::fs::File::open(root.join("in.txt")).unwrap();
        assert!(opened_inside(&inside, &root));
        let elsewhere = std::fs::File::open(outside.join("secret.txt")).unwrap();
        assert!(!opened_inside(&elsewhere, &root));
        // A sibling whose name begins with the root's is outside too.
        let sibling = base.join("root-2");
        std::fs::create_dir_all(&sibling).unwrap();
        std::fs::write(sibling.join("x"), "x").unwrap();
        assert!(!opened_inside(
            &std::fs::File::open(sibling.join("x")).unwrap(),
            &root
        ));
        // A link at the end of the path is not followed.
        std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("link.txt")).unwrap();
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        assert!(options.open(root.join("link.txt")).is_err());
        std::fs::remove_dir_all(&base).ok();
    }

    #[test]
    fn paths_inside_the_root_are_allowed_and_escapes_are_not() {
        let root = std::env::temp_dir().join(format!("mcp-safe-join-{}", std::process::id()));
        std::fs::create_dir_all(root.join("docs")).unwrap();
        std::fs::write(root.join("docs/a.txt"), "a").unwrap();
        assert!(
            safe_join(&root, "docs/a.txt")
                .unwrap()
                .ends_with("docs/a.txt")
        );
        assert!(safe_join(&root, "docs/../../x").is_err());
        assert!(safe_join(&root, "/etc/passwd").is_err());
        let missing = safe_join(&root, "docs/missing.txt").unwrap_err();
        assert_eq!(missing.rpc_error().code, -32002);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", root.join("link")).ok();
            assert!(safe_join(&root, "link/hostname").is_err());
        }
        std::fs::remove_dir_all(&root).ok();
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_are_read_and_a_fifo_never_blocks() {
        let root = std::env::temp_dir().join(format!("mcp-read-file-{}", std::process::id()));
        std::fs::create_dir_all(root.join("docs")).unwrap();
        std::fs::write(root.join("docs/a.txt"), "a").unwrap();
        let fifo = root.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo (coreutils) runs");
        std::os::unix::fs::symlink(&fifo, root.join("to-pipe")).unwrap();
        assert_eq!(read_file(&root, "docs/a.txt", 1).unwrap(), b"a");
        let too_big = read_file(&root, "docs/a.txt", 0).unwrap_err();
        let too_big = too_big.rpc_error();
        assert!(
            too_big.message.contains("larger than the 0 bytes"),
            "{too_big:?}"
        );
        for special in ["pipe", "to-pipe", "docs"] {
            let error = read_file(&root, special, 1 << 20).unwrap_err();
            assert_eq!(error.rpc_error().code, -32602, "{special}");
        }
        std::fs::remove_dir_all(&root).ok();
    }

    #[cfg(unix)]
    #[test]
    fn listing_stays_inside_the_root_and_ends_on_loops() {
        use std::os::unix::fs::symlink;
        let base = std::env::temp_dir().join(format!("mcp-list-files-{}", std::process::id()));
        let root = base.join("served");
        std::fs::create_dir_all(root.join("docs/deep")).unwrap();
        std::fs::create_dir_all(base.join("outside")).unwrap();
        std::fs::write(base.join("outside/secret.txt"), "s").unwrap();
        std::fs::write(root.join("docs/a.txt"), "a").unwrap();
        std::fs::write(root.join("docs/deep/b.txt"), "b").unwrap();
        symlink(base.join("outside"), root.join("out-dir")).unwrap();
        symlink(base.join("outside/secret.txt"), root.join("out-file")).unwrap();
        symlink(root.join("docs/a.txt"), root.join("in-file")).unwrap();
        // Two loops: each folder links back to the root and to the other.
        symlink(&root, root.join("docs/loop")).unwrap();
        symlink(root.join("docs"), root.join("docs/deep/loop")).unwrap();
        symlink(root.join("self"), root.join("self")).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("pipe"))
            .status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo (coreutils) runs");
        assert_eq!(
            list_files(&root, 10_000),
            ["docs/a.txt", "docs/deep/b.txt", "in-file"]
        );
        assert!(list_files(&root, 2).len() <= 2);
        std::fs::remove_dir_all(&base).ok();
    }
}
