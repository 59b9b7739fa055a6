//! What a server's binary carries: the code that reads resources, renders prompts and
//! completes their arguments only when the program makes a resource or a prompt (the
//! runtime's `server/methods/linked.rs`), and the code that seals `requestState` only when a
//! handler can ask the client (`sealed_state/linked.rs`). Checked on the example binaries, by
//! a text that only that code holds, as the linker left them.

#[path = "common/examples.rs"]
mod examples;

use examples::example;

/// A text only `resources/read`'s code holds (what it says of a reader that panicked).
const READS_RESOURCES: &str = "reading `";
/// A text only `prompts/get`'s code holds (what it says of an argument not a string).
const RENDERS_PROMPTS: &str = "a prompt's arguments are all strings";
/// A text only `completion/complete`'s code holds.
const COMPLETES: &str = "No argument named `";
/// A text only the URI template parser holds, which a catalog of resources links in
/// (`resource/registry.rs`).
const PARSES_TEMPLATES: &str = " is reserved by RFC 6570 and not supported";
/// A text only the sealing code holds (a key's id is made with the cipher).
const SEALS: &str = "XChaCha20-Poly1305 encrypts four bytes";

/// Whether the example's read-only data (its `.rodata`, where a string literal the code uses
/// lies) holds `text`.
fn carries(binary: &str, text: &str) -> bool {
    let bytes = std::fs::read(example(binary)).expect("the example's binary reads");
    rodata(&bytes)
        .windows(text.len())
        .any(|window| window == text.as_bytes())
}

/// The `.rodata` section of a 64-bit little-endian ELF file (the examples as built on Linux).
fn rodata(elf: &[u8]) -> &[u8] {
    assert_eq!(
        &elf[..6],
        b"\x7fELF\x02\x01",
        "a 64-bit little-endian ELF file"
    );
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([elf[at], elf[at + 1]]));
    let u64_at = |at: usize| {
        let bytes: [u8; 8] = elf[at..at + 8].try_into().unwrap();
        usize::try_from(u64::from_le_bytes(bytes)).unwrap()
    };
    let u32_at = |at: usize| {
        let bytes: [u8; 4] = elf[at..at + 4].try_into().unwrap();
        usize::try_from(u32::from_le_bytes(bytes)).unwrap()
    };
    // The section headers (ELF-64: e_shoff, e_shentsize, e_shnum, e_shstrndx), each giving
    // its name's offset in the names' section, its offset in the file and its size.
    let (headers, size, count) = (u64_at(0x28), u16_at(0x3A), u16_at(0x3C));
    let header = |index: usize| headers + index * size;
    let names = u64_at(header(u16_at(0x3E)) + 24);
    (0..count)
        .map(header)
        .find(|&at| elf[names + u32_at(at)..].starts_with(b".rodata\0"))
        .map(|at| &elf[u64_at(at + 24)..][..u64_at(at + 32)])
        .expect("the binary has a .rodata section")
}

#[test]
fn a_server_of_tools_alone_carries_no_resource_or_prompt_code() {
    for binary in ["shapes", "printing"] {
        for text in [
            READS_RESOURCES,
            RENDERS_PROMPTS,
            COMPLETES,
            PARSES_TEMPLATES,
        ] {
            assert!(!carries(binary, text), "{binary} carries {text:?}");
        }
    }
}

/// The other side, so that the test above could fail: a server with resources and no
/// prompt carries the resource code and completion (a template may complete) but no prompt
/// code; one with both carries all three.
#[test]
fn a_server_carries_the_code_of_the_kinds_it_has() {
    assert!(carries("files", READS_RESOURCES));
    assert!(carries("files", PARSES_TEMPLATES));
    assert!(carries("files", COMPLETES));
    assert!(!carries("files", RENDERS_PROMPTS));
    for text in [READS_RESOURCES, RENDERS_PROMPTS, COMPLETES] {
        assert!(carries("gifts", text), "gifts lacks {text:?}");
    }
}

/// `shapes` and `printing` have tools alone, none taking a `Context`: nothing can ask the
/// client, so nothing is sealed. A handler taking a `Context` (`companion`'s
/// `confirm_action`), and any resource (`files`) or prompt, carries the sealing code.
#[test]
fn only_a_server_whose_handlers_can_ask_carries_the_sealing_code() {
    for binary in ["shapes", "printing"] {
        assert!(!carries(binary, SEALS), "{binary} carries the sealing code");
    }
    for binary in ["companion", "files", "gifts", "everything"] {
        assert!(carries(binary, SEALS), "{binary} lacks the sealing code");
    }
}
