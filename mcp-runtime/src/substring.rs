//! Whether a text contains a fixed word, for the quick looks at a request's raw text (does it
//! claim the stateless era, may it carry answers) made before anything is parsed.
//!
//! `str::contains` would do, but each codegen unit that inlines it gets its own copy of the
//! standard library's two-way searcher (about 2 KiB each, three copies in a release build of
//! a small server). Here the needle's first byte is found with `memchr`, whose code the
//! binary holds anyway for framing lines, and the rest compared in place. The words looked
//! for are short constants, so the worst case, every byte of the text a candidate, is a few
//! comparisons of at most the word's length per byte of a message the size limit bounds.

/// Whether `needle` occurs in `haystack` (an empty needle occurs everywhere).
pub(crate) fn contains(haystack: &str, needle: &str) -> bool {
    let (haystack, needle) = (haystack.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    memchr::memchr_iter(first, haystack).any(|at| haystack[at + 1..].starts_with(rest))
}

#[cfg(test)]
mod tests {
    use super::contains;

    #[test]
    fn finds_a_word_wherever_it_stands_as_str_contains_does() {
        let texts = [
            "",
            "p",
            "protocolVersion",
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#,
            "pprotocolVersionn",
            "protocolVersio",
            "rotocolVersion",
            "xxprotocolversion",
            "ppppppppppppppp",
            "protocolVersionprotocolVersion",
            "é protocolVersion ü",
        ];
        for text in texts {
            for needle in ["", "p", "protocolVersion", "inputResponses", "ü"] {
                assert_eq!(
                    contains(text, needle),
                    text.contains(needle),
                    "{needle:?} in {text:?}"
                );
            }
        }
    }

    #[test]
    fn a_text_of_near_misses_is_read_to_its_end() {
        let text = "protocolVersio".repeat(10_000);
        assert!(!contains(&text, "protocolVersion"));
        assert!(contains(&(text + "n"), "protocolVersion"));
    }
}
