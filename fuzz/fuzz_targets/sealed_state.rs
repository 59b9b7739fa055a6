//! The sealing of `requestState` (revision 2026-07-28's input-required results) against
//! hostile text: arbitrary text never opens; a state sealed for a request opens for it, with
//! its payload, and for nothing else: not with any one character changed, cut short or
//! lengthened, not for another method, name, arguments, audience or caller, not under keys
//! that do not hold its key, and not past its expiry (SECURITY.md, "Sealed requestState").
#![no_main]

use std::time::{Duration, SystemTime};

use libfuzzer_sys::fuzz_target;
use mcp_runtime::__internals::{STATE_EXPIRY_LEEWAY, StateRequest, StateSeal};
use serde_json::json;

const CURRENT: [u8; 32] = [7; 32];
const OLDER: [u8; 32] = [9; 32];
const LIFETIME: Duration = Duration::from_secs(600);
/// Where the URL-safe base64 alphabet of the sealed string, and a few other characters, are
/// taken from for a changed character.
const REPLACEMENTS: &[u8] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ v";
/// Up to this length every character of a sealed state is changed in turn; above it, a
/// sample.
const EVERY_POSITION_UP_TO: usize = 160;

fuzz_target!(|data: &[u8]| {
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    let ring = StateSeal::new([CURRENT, OLDER]).expect("two distinct keys");
    let arguments = json!({"city": "Paris", "days": 3});
    let request = StateRequest {
        method: "tools/call",
        name: "forecast",
        arguments: Some(&arguments),
        audience: "https://weather.example/mcp",
        caller: None,
    };

    // Arbitrary text is no state.
    let text = String::from_utf8_lossy(data);
    assert!(
        ring.open(&request, &text, now).is_err(),
        "arbitrary text opened: {text:?}"
    );

    // The input, split: a selector, the payload, and a name for the request.
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let split = rest.len().min(usize::from(selector) * 4);
    let (payload, name) = rest.split_at(split);
    let name = String::from_utf8_lossy(name);
    let request = StateRequest {
        name: &name,
        ..request
    };
    let Some(sealed) = ring.seal(&request, payload, LIFETIME, now) else {
        // Over the length a state may have: refused when sealing, as it would be when opened.
        return;
    };
    assert_eq!(ring.open(&request, &sealed, now).as_deref(), Ok(payload));

    // Any one character changed.
    let positions: Vec<usize> = if sealed.len() <= EVERY_POSITION_UP_TO {
        (0..sealed.len()).collect()
    } else {
        (0..16)
            .map(|i| (usize::from(selector) * 31 + i * sealed.len() / 16) % sealed.len())
            .chain([sealed.len() - 1])
            .collect()
    };
    for (turn, at) in positions.into_iter().enumerate() {
        let was = sealed.as_bytes()[at];
        let mut pick = (usize::from(selector) + turn * 7) % REPLACEMENTS.len();
        if REPLACEMENTS[pick] == was {
            pick = (pick + 1) % REPLACEMENTS.len();
        }
        let mut changed = sealed.clone().into_bytes();
        changed[at] = REPLACEMENTS[pick];
        let changed = String::from_utf8(changed).expect("ASCII for ASCII");
        assert!(
            ring.open(&request, &changed, now).is_err(),
            "{sealed} opened with character {at} changed: {changed}"
        );
    }

    // Cut short, or lengthened.
    for cut in [1, 2, 3, 4, sealed.len() / 2] {
        if cut <= sealed.len() {
            let short = &sealed[..sealed.len() - cut];
            assert!(ring.open(&request, short, now).is_err(), "{short} opened");
        }
    }
    for extra in ["A", "AA", "AAAA", "=", "\n"] {
        let long = format!("{sealed}{extra}");
        assert!(ring.open(&request, &long, now).is_err(), "{long:?} opened");
    }

    // Another request.
    let other_arguments = json!({"city": "Paris", "days": 4});
    let other_name = format!("{name}x");
    for other in [
        StateRequest {
            method: "prompts/get",
            ..request
        },
        StateRequest {
            name: &other_name,
            ..request
        },
        StateRequest {
            arguments: Some(&other_arguments),
            ..request
        },
        StateRequest {
            arguments: None,
            ..request
        },
        StateRequest {
            audience: "https://other.example/mcp",
            ..request
        },
        StateRequest {
            caller: Some("https://issuer.example alice"),
            ..request
        },
    ] {
        assert_eq!(
            ring.open(&other, &sealed, now),
            Err("forged"),
            "{sealed} opened for {other:?}"
        );
    }

    // Keys that do not hold its key; keys that still hold it as an older one.
    let elsewhere = StateSeal::new([[8; 32]]).expect("one key");
    assert_eq!(elsewhere.open(&request, &sealed, now), Err("unknown_key"));
    let rotated = StateSeal::new([[8; 32], CURRENT]).expect("two distinct keys");
    assert_eq!(rotated.open(&request, &sealed, now).as_deref(), Ok(payload));

    // In time up to its expiry and the leeway, not a millisecond after.
    let last = now + LIFETIME + STATE_EXPIRY_LEEWAY;
    assert_eq!(ring.open(&request, &sealed, last).as_deref(), Ok(payload));
    assert_eq!(
        ring.open(&request, &sealed, last + Duration::from_millis(1)),
        Err("expired")
    );
});
