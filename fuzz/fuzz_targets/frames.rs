//! stdio framing on arbitrary bytes cut into arbitrary chunks: where the chunks end never
//! changes which messages come out, no message holds a newline or exceeds the limit, and every
//! message is then classified as a transport does (JSON-RPC decoding never panics).
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_runtime::__internals::{LineFramer, parse_message};

fuzz_target!(|input: (u8, Vec<u8>, &[u8])| {
    let (max, cuts, stream) = input;
    let max = usize::from(max) + 1;
    let whole = frames(max, &[stream]);
    let mut chunks = Vec::new();
    let mut rest = stream;
    for cut in cuts {
        if rest.is_empty() {
            break;
        }
        let at = usize::from(cut) % (rest.len() + 1);
        let (chunk, after) = rest.split_at(at);
        chunks.push(chunk);
        rest = after;
    }
    chunks.push(rest);
    let chunked = frames(max, &chunks);
    assert_eq!(whole, chunked, "the chunk boundaries changed the messages");
    for message in whole.iter().flatten() {
        assert!(!message.contains(&b'\n'), "a message holds a newline");
        assert!(message.len() <= max, "a message is longer than the limit");
        let _ = parse_message(message);
    }
});

/// The messages (`None` for one skipped as oversized) framed from `chunks` in turn.
fn frames(max: usize, chunks: &[&[u8]]) -> Vec<Option<Vec<u8>>> {
    let mut framer = LineFramer::new(max);
    let mut out = Vec::new();
    let mut collect = |message: Option<&[u8]>| out.push(message.map(<[u8]>::to_vec));
    for chunk in chunks {
        framer.push(chunk, &mut collect);
    }
    framer.end(&mut collect);
    out
}
