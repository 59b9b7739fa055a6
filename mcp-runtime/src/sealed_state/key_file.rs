//! Reading a list of keys: a key file (one base64 key per line, the first current; blank lines
//! and `#` comments ignored) or an environment variable (the same keys separated by commas or
//! newlines). Both are strict: a line that is not a 32-byte key is an error naming it, never
//! skipped, since a skipped key is state that no longer opens.

use std::path::Path;

use super::error::{KeyProblem, KeySource, StateKeysError};
use crate::base64::{STANDARD_LENIENT, URL_SAFE_LENIENT};

/// The keys of a key file.
pub(super) fn read_file(path: &Path) -> Result<Vec<[u8; 32]>, StateKeysError> {
    let source = KeySource::File(path.to_owned());
    let text = std::fs::read_to_string(path)
        .map_err(|error| StateKeysError::new(&source, KeyProblem::Read(error)))?;
    let entries = text
        .lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line));
    parse(entries, &source)
}

/// The keys of an environment variable.
pub(super) fn read_env(var: &str) -> Result<Vec<[u8; 32]>, StateKeysError> {
    let source = KeySource::Env(var.to_owned());
    let text = std::env::var(var).map_err(|error| {
        let problem = match error {
            std::env::VarError::NotPresent => KeyProblem::EnvMissing,
            std::env::VarError::NotUnicode(_) => KeyProblem::EnvNotUnicode,
        };
        StateKeysError::new(&source, problem)
    })?;
    parse(items(&text), &source)
}

/// The numbered items of a variable's value: separated by commas or newlines, blank ones not
/// counted.
fn items(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split([',', '\n'])
        .filter(|item| !item.trim().is_empty())
        .enumerate()
        .map(|(index, item)| (index + 1, item))
}

/// The keys of numbered entries, in order; comments and blank entries skipped.
pub(super) fn parse<'a>(
    entries: impl Iterator<Item = (usize, &'a str)>,
    source: &KeySource,
) -> Result<Vec<[u8; 32]>, StateKeysError> {
    let mut keys = Vec::new();
    for (at, entry) in entries {
        let entry = entry.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        // Standard base64 (`openssl rand -base64 32`) or its URL-safe alphabet, padded or not.
        let decoded = STANDARD_LENIENT
            .decode(entry)
            .or_else(|| URL_SAFE_LENIENT.decode(entry))
            .ok_or_else(|| StateKeysError::new(source, KeyProblem::NotBase64 { at }))?;
        let len = decoded.len();
        let key = <[u8; 32]>::try_from(decoded)
            .map_err(|_| StateKeysError::new(source, KeyProblem::WrongLength { at, len }))?;
        keys.push((at, key));
    }
    distinct(keys, source)
}

/// The keys of numbered entries, in order, if there is one and none repeats another.
pub(super) fn distinct(
    keys: impl IntoIterator<Item = (usize, [u8; 32])>,
    source: &KeySource,
) -> Result<Vec<[u8; 32]>, StateKeysError> {
    let mut held: Vec<(usize, [u8; 32])> = Vec::new();
    for (at, key) in keys {
        if let Some(&(first, _)) = held.iter().find(|(_, earlier)| *earlier == key) {
            let problem = KeyProblem::Repeated { at, first };
            return Err(StateKeysError::new(source, problem));
        }
        held.push((at, key));
    }
    if held.is_empty() {
        return Err(StateKeysError::new(source, KeyProblem::NoKeys));
    }
    Ok(held.into_iter().map(|(_, key)| key).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY_1: &str = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE="; // 32 bytes of 1
    const KEY_2: &str = "AgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgI"; // 32 bytes of 2, unpadded

    fn file(text: &str) -> Result<Vec<[u8; 32]>, StateKeysError> {
        let lines = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line));
        parse(lines, &KeySource::File("/etc/mcp/keys".into()))
    }

    #[test]
    fn keys_are_read_in_order_around_comments_and_blank_lines() {
        let text = format!("# current\n{KEY_1}\n\n  # older\n  {KEY_2}  \n");
        assert_eq!(file(&text).unwrap(), vec![[1; 32], [2; 32]]);
    }

    #[test]
    fn url_safe_keys_are_read_too() {
        let key = "-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_8";
        assert_eq!(file(key).unwrap()[0][..3], [0xfb, 0xff, 0xbf]);
    }

    #[test]
    fn a_bad_line_is_named_with_what_a_valid_line_is() {
        let error = file(&format!("{KEY_1}\n\nnot a key!\n")).unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("/etc/mcp/keys, line 3: not base64"),
            "{message}"
        );
        assert!(message.contains("openssl rand -base64 32"), "{message}");
        assert!(message.contains("starting with `#`"), "{message}");

        let short = file(&format!("# keys\n{KEY_1}\nAQID\n"))
            .unwrap_err()
            .to_string();
        assert!(
            short.starts_with("/etc/mcp/keys, line 3: the key is 3 bytes long, not 32"),
            "{short}"
        );

        let repeated = file(&format!("{KEY_1}\n{KEY_2}\n{KEY_1}\n"))
            .unwrap_err()
            .to_string();
        assert!(
            repeated.starts_with("/etc/mcp/keys, line 3: the same key as /etc/mcp/keys, line 1"),
            "{repeated}"
        );
    }

    #[test]
    fn a_file_of_comments_holds_no_key() {
        let error = file("# nothing yet\n\n").unwrap_err();
        assert!(matches!(error.problem(), KeyProblem::NoKeys));
        assert!(
            error
                .to_string()
                .starts_with("the state key file /etc/mcp/keys holds no key"),
            "{error}"
        );
    }

    #[test]
    fn the_key_material_is_never_in_a_message() {
        // A key of 31 bytes: almost right, and secret all the same.
        let secret = "c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0cw==";
        let message = file(secret).unwrap_err().to_string();
        assert!(
            !message.contains(secret) && !message.contains("c2Vj"),
            "{message}"
        );
    }

    #[test]
    fn a_variable_holds_keys_separated_by_commas_or_newlines() {
        let source = KeySource::Env("MCP_STATE_KEYS".to_owned());
        let text = format!(" {KEY_1} ,\n{KEY_2}\n");
        assert_eq!(
            parse(items(&text), &source).unwrap(),
            vec![[1; 32], [2; 32]]
        );
        let message = parse(items(&format!("{KEY_1},,{KEY_2},AQID")), &source)
            .unwrap_err()
            .to_string();
        assert!(
            message.starts_with("environment variable MCP_STATE_KEYS, item 3: the key is 3 bytes"),
            "{message}"
        );
        assert!(
            message.contains("separated by commas or newlines"),
            "{message}"
        );
    }

    #[test]
    fn a_variable_not_set_is_named() {
        let message = read_env("MCP_RUNTIME_TEST_NO_SUCH_VARIABLE")
            .unwrap_err()
            .to_string();
        assert!(
            message
                .starts_with("environment variable MCP_RUNTIME_TEST_NO_SUCH_VARIABLE is not set"),
            "{message}"
        );
    }

    #[test]
    fn a_missing_file_is_named() {
        let path = std::env::temp_dir().join("mcp-runtime-no-such-key-file");
        let message = read_file(&path).unwrap_err().to_string();
        assert!(
            message.starts_with("cannot read the state key file"),
            "{message}"
        );
        assert!(
            message.contains("mcp-runtime-no-such-key-file"),
            "{message}"
        );
    }
}
