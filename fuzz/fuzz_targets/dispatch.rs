//! The dispatcher fed arbitrary message sequences: each input line is one raw message to a
//! fresh session (requests, notifications, replies, garbage). Nothing may panic, the session
//! must still answer `ping` afterwards, and closing it must end every request it started.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| mcp_fuzz::dispatch_lines(data));
