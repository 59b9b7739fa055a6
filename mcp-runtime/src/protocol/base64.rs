//! Standard base64 (RFC 4648, with padding), for binary resource contents and media content,
//! and its strict decoding, for the base64-wrapped values of 2026-07-28 HTTP headers: the
//! `base64` crate's standard engine, which refuses a missing or extra padding and set bits
//! past the last byte.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// Encodes bytes as standard base64 with padding.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Decodes standard base64 strictly: the standard alphabet only, padded to a multiple of four,
/// no whitespace, and no set bits after the last byte; `None` otherwise.
#[cfg_attr(not(any(feature = "http", test)), allow(dead_code))]
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    STANDARD.decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_rfc_4648_test_vectors() {
        for (input, output) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64_encode(input.as_bytes()), output);
            assert_eq!(base64_decode(output).unwrap(), input.as_bytes());
        }
    }

    #[test]
    fn decoding_is_strict() {
        for bad in [
            "Zg",
            "Zg=",
            "Z===",
            "Zh==",
            "Zm9v YmFy",
            "Zg==Zg==",
            "Zm9-",
            "Zm9_",
        ] {
            assert_eq!(base64_decode(bad), None, "{bad}");
        }
    }
}
