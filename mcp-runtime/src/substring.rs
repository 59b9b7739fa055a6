//! Finding a byte, and whether a text contains a fixed word, for the framing of lines and
//! the quick looks at a request's raw text (does it claim the stateless era, may it carry
//! answers) made before anything is parsed.
//!
//! A byte is found with memchr's SSE2 searcher on x86-64, which every x86-64 processor runs.
//! `memchr::memchr` would first ask the processor whether it has AVX2 (`cpuid`, several
//! times), and in a virtual machine each `cpuid` leaves to the hypervisor: about 20 us of a
//! stdio server's start, spent before its first reply (BENCHMARKS.md, "What the cold start
//! spends"). SSE2 reads 16 bytes at a step where AVX2 reads 32: searching a line of 1 MiB
//! takes about 25 us instead of 16, beside some 320 us to parse it; the messages of most
//! calls are a few hundred bytes, where the two cost the same.
//!
//! `str::contains` would do for a word, but each codegen unit that inlines it gets its own
//! copy of the standard library's two-way searcher (about 2 KiB each, three copies in a
//! release build of a small server). Here the needle's first byte is found as above and the
//! rest compared in place. The words looked for are short constants, so the worst case, every
//! byte of the text a candidate, is a few comparisons of at most the word's length per byte
//! of a message the size limit bounds.

/// Where the first `byte` in `haystack` is.
#[inline]
pub(crate) fn find_byte(byte: u8, haystack: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(searcher) = memchr::arch::x86_64::sse2::memchr::One::new(byte) {
        return searcher.find(haystack);
    }
    memchr::memchr(byte, haystack)
}

/// Whether `needle` occurs in `haystack` (an empty needle occurs everywhere).
pub(crate) fn contains(haystack: &str, needle: &str) -> bool {
    let (haystack, needle) = (haystack.as_bytes(), needle.as_bytes());
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut from = 0;
    while let Some(found) = find_byte(first, &haystack[from..]) {
        let after = from + found + 1;
        if haystack[after..].starts_with(rest) {
            return true;
        }
        from = after;
    }
    false
}

/// Whether the JSON text `json` may have a member named by one of `words` (or by a name
/// holding one), judged from the raw text before a member-by-member pass, which decodes
/// names: it may if it contains one as written, or if it holds a backslash at all, since an
/// escape can spell a name otherwise (`protocol\u0056ersion` is `protocolVersion`: RFC 8259
/// section 8.3 compares names after escapes are converted). Most messages hold no backslash;
/// those that do are read member by member.
pub(crate) fn may_name(json: &str, words: &[&str]) -> bool {
    words.iter().any(|word| contains(json, word)) || find_byte(b'\\', json.as_bytes()).is_some()
}

#[cfg(test)]
mod tests {
    use super::{contains, find_byte, may_name};

    #[test]
    fn finds_the_first_byte_at_every_place_and_length() {
        // Across the searcher's 16- and 64-byte steps and their unaligned ends.
        for length in 0..200 {
            let mut haystack = vec![b'a'; length];
            assert_eq!(find_byte(b'\n', &haystack), None, "{length}");
            for at in 0..length {
                haystack[at] = b'\n';
                assert_eq!(find_byte(b'\n', &haystack), Some(at), "{at} of {length}");
                assert_eq!(find_byte(b'\n', &haystack[at..]), Some(0));
                // A later one is not the first.
                if at + 1 < length {
                    haystack[length - 1] = b'\n';
                    assert_eq!(find_byte(b'\n', &haystack), Some(at), "{at} of {length}");
                    haystack[length - 1] = b'a';
                }
                haystack[at] = b'a';
            }
        }
    }

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

    #[test]
    fn a_name_may_be_written_with_escapes() {
        let word = ["protocolVersion"];
        assert!(may_name(
            r#"{"io.modelcontextprotocol/protocolVersion":1}"#,
            &word
        ));
        assert!(may_name(
            r#"{"io.modelcontextprotocol/protocol\u0056ersion":1}"#,
            &word
        ));
        assert!(may_name(
            r#"{"requestState":1}"#,
            &["inputResponses", "requestState"]
        ));
        assert!(!may_name(
            r#"{"name":"add","arguments":{"a":"protocol"}}"#,
            &word
        ));
    }
}
