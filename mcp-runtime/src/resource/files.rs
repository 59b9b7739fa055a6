//! Serving files safely: a URI variable must never lead outside the folder it is meant for.

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
