//! Sealing and opening through `StateKeys`, with hostile input: tampered, transplanted,
//! expired, oversized, malformed, sealed with unknown or retired keys.

use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};

use super::Binding;
use super::error::{SealError, StateRefusal};
use super::state_keys::{EXPIRY_LEEWAY, StateKeys};

const LIFETIME: Duration = Duration::from_secs(600);

fn t0() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

fn arguments() -> Value {
    json!({"city": "Paris", "days": 3, "options": {"units": "metric", "alerts": [true, null]}})
}

fn binding(arguments: &Value) -> Binding<'_> {
    Binding {
        method: "tools/call",
        name: "forecast",
        arguments: Some(arguments),
        audience: "https://weather.example/mcp",
        caller: None,
    }
}

fn fixed_keys(seed: u8) -> StateKeys {
    StateKeys::from_keys([[seed; 32]]).unwrap()
}

#[test]
fn a_sealed_state_opens_to_its_payload() {
    let keys = fixed_keys(1);
    let args = arguments();
    for payload in [
        &b""[..],
        b"x",
        br#"{"round":2,"answers":{"ok":true}}"#,
        &[0u8; 1000],
    ] {
        let sealed = keys.seal(&binding(&args), payload, LIFETIME, t0()).unwrap();
        assert_eq!(keys.open(&binding(&args), &sealed, t0()).unwrap(), payload);
        // Opening is read-only: the same state opens again (single use is not promised).
        assert_eq!(
            keys.open(&binding(&args), &sealed, t0() + secs(1)).unwrap(),
            payload
        );
    }
}

#[test]
fn two_seals_of_the_same_payload_differ() {
    let keys = fixed_keys(1);
    let args = arguments();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..100 {
        let sealed = keys.seal(&binding(&args), b"same", LIFETIME, t0()).unwrap();
        assert!(seen.insert(sealed));
    }
}

#[test]
fn changing_any_character_of_the_string_is_refused() {
    let keys = fixed_keys(1);
    let args = arguments();
    let sealed = keys
        .seal(&binding(&args), b"payload", LIFETIME, t0())
        .unwrap();
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.v";
    for position in 0..sealed.len() {
        for replacement in [
            alphabet[position % alphabet.len()],
            alphabet[(position * 7 + 3) % alphabet.len()],
            b'A',
            b'_',
        ] {
            let mut tampered = sealed.clone().into_bytes();
            if tampered[position] == replacement {
                continue;
            }
            tampered[position] = replacement;
            let tampered = String::from_utf8(tampered).unwrap();
            let refusal = keys.open(&binding(&args), &tampered, t0()).unwrap_err();
            assert!(
                matches!(
                    refusal,
                    StateRefusal::Forged | StateRefusal::Malformed | StateRefusal::UnknownKey
                ),
                "position {position}: {refusal:?}"
            );
        }
    }
    // The conformance suite's tampering: a suffix.
    let suffixed = format!("{sealed}-TAMPERED");
    assert!(keys.open(&binding(&args), &suffixed, t0()).is_err());
    // Cut short, or extended by whole base64 groups.
    for cut in [1, 2, 3, 4, 10, sealed.len() - 11] {
        assert!(
            keys.open(&binding(&args), &sealed[..sealed.len() - cut], t0())
                .is_err()
        );
    }
    assert_eq!(
        keys.open(&binding(&args), &format!("{sealed}AAAA"), t0()),
        Err(StateRefusal::Forged)
    );
}

/// On a protected server a state is bound to the caller it was issued to: another caller, or
/// none, sending it back with the same request is refused (SECURITY.md, "Sealed
/// requestState").
#[test]
fn a_state_issued_to_one_caller_is_refused_from_another() {
    let keys = fixed_keys(1);
    let args = arguments();
    let alice = Binding {
        caller: Some("https://issuer.example alice"),
        ..binding(&args)
    };
    let sealed = keys.seal(&alice, b"payload", LIFETIME, t0()).unwrap();
    assert_eq!(keys.open(&alice, &sealed, t0()).unwrap(), b"payload");
    for other in [
        Some("https://issuer.example bob"),
        Some("https://other-issuer.example alice"),
        Some(""),
        None,
    ] {
        let transplanted = Binding {
            caller: other,
            ..binding(&args)
        };
        assert_eq!(
            keys.open(&transplanted, &sealed, t0()),
            Err(StateRefusal::Forged),
            "{other:?}"
        );
    }
}

#[test]
fn a_state_opened_for_another_request_is_refused_as_forged() {
    let keys = fixed_keys(1);
    let args = arguments();
    let sealed = keys
        .seal(&binding(&args), b"payload", LIFETIME, t0())
        .unwrap();
    let other_args =
        json!({"city": "Lyon", "days": 3, "options": {"units": "metric", "alerts": [true, null]}});
    let float_days = json!({"city": "Paris", "days": 3.0, "options": {"units": "metric", "alerts": [true, null]}});
    let transplanted = [
        Binding {
            method: "prompts/get",
            ..binding(&args)
        },
        Binding {
            name: "forecast2",
            ..binding(&args)
        },
        Binding {
            arguments: Some(&other_args),
            ..binding(&args)
        },
        Binding {
            arguments: Some(&float_days),
            ..binding(&args)
        },
        Binding {
            arguments: None,
            ..binding(&args)
        },
        Binding {
            audience: "https://other.example/mcp",
            ..binding(&args)
        },
        Binding {
            caller: Some("https://issuer.example alice"),
            ..binding(&args)
        },
    ];
    for other in transplanted {
        assert_eq!(
            keys.open(&other, &sealed, t0()),
            Err(StateRefusal::Forged),
            "{other:?}"
        );
    }
    // The same arguments written in another key order are the same request.
    let reordered: Value = serde_json::from_str(
        r#"{"options":{"alerts":[true,null],"units":"metric"},"days":3,"city":"Paris"}"#,
    )
    .unwrap();
    assert_eq!(
        keys.open(&binding(&reordered), &sealed, t0()).unwrap(),
        b"payload"
    );
}

#[test]
fn a_state_past_its_expiry_is_refused_and_one_within_the_leeway_is_accepted() {
    let keys = fixed_keys(1);
    let args = arguments();
    let sealed = keys
        .seal(&binding(&args), b"payload", LIFETIME, t0())
        .unwrap();
    let expiry = t0() + LIFETIME;
    assert!(keys.open(&binding(&args), &sealed, expiry).is_ok());
    assert!(
        keys.open(&binding(&args), &sealed, expiry + EXPIRY_LEEWAY)
            .is_ok()
    );
    let late = EXPIRY_LEEWAY + Duration::from_millis(1);
    assert_eq!(
        keys.open(&binding(&args), &sealed, expiry + late),
        Err(StateRefusal::Expired { by: late })
    );
    let refusal = keys
        .open(&binding(&args), &sealed, expiry + secs(3600))
        .unwrap_err();
    assert_eq!(refusal.reason(), "expired");
    assert!(
        refusal.to_string().contains("expired 3600s ago"),
        "{refusal}"
    );
    // A zero lifetime expires at once (past the leeway).
    let brief = keys
        .seal(&binding(&args), b"payload", Duration::ZERO, t0())
        .unwrap();
    assert!(keys.open(&binding(&args), &brief, t0() + secs(6)).is_err());
    // A lifetime too long for the clock saturates instead of wrapping into the past.
    let forever = keys
        .seal(&binding(&args), b"payload", Duration::MAX, t0())
        .unwrap();
    assert!(
        keys.open(&binding(&args), &forever, t0() + secs(1 << 40))
            .is_ok()
    );
}

#[test]
fn an_oversized_state_is_refused_from_its_length_alone() {
    let keys = fixed_keys(1);
    let args = arguments();
    let huge = "v1.".to_owned() + &"A".repeat(10 * 1024 * 1024);
    let started = Instant::now();
    for _ in 0..1000 {
        assert_eq!(
            keys.open(&binding(&args), &huge, t0()),
            Err(StateRefusal::TooLarge {
                limit: StateKeys::DEFAULT_MAX_LEN
            })
        );
    }
    // A thousand refusals of 10 MB: no decoding (which would take seconds), only a length.
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "{:?}",
        started.elapsed()
    );

    let limit = StateKeys::DEFAULT_MAX_LEN;
    let at_limit = "x".repeat(limit);
    assert_eq!(
        keys.open(&binding(&args), &at_limit, t0()),
        Err(StateRefusal::Malformed)
    );
    let over = "x".repeat(limit + 1);
    let refusal = keys.open(&binding(&args), &over, t0()).unwrap_err();
    assert_eq!(refusal, StateRefusal::TooLarge { limit });
    assert_eq!(refusal.reason(), "too_large");
    assert!(refusal.to_string().contains("65536 bytes"), "{refusal}");
}

#[test]
fn the_limit_is_a_setting_and_sealing_past_it_fails_instead_of_issuing_an_unopenable_state() {
    let keys = fixed_keys(1).with_max_len(200);
    let args = arguments();
    let fits = keys
        .seal(&binding(&args), &[7; 80], LIFETIME, t0())
        .unwrap();
    assert!(fits.len() <= 200);
    assert_eq!(keys.open(&binding(&args), &fits, t0()).unwrap(), [7; 80]);
    let error = keys
        .seal(&binding(&args), &[7; 200], LIFETIME, t0())
        .unwrap_err();
    assert!(matches!(error, SealError::TooLarge { limit: 200, len } if len > 200));
    assert!(
        error.to_string().contains("over the limit of 200 bytes"),
        "{error}"
    );
    // The largest payload that fits opens; one byte more is not sealed.
    let largest = (0..200)
        .rev()
        .find(|&n| {
            keys.seal(&binding(&args), &vec![0; n], LIFETIME, t0())
                .is_ok()
        })
        .unwrap();
    let sealed = keys
        .seal(&binding(&args), &vec![0; largest], LIFETIME, t0())
        .unwrap();
    assert!(
        sealed.len() > 195 && sealed.len() <= 200,
        "{}",
        sealed.len()
    );
    assert_eq!(
        keys.open(&binding(&args), &sealed, t0()).unwrap(),
        vec![0; largest]
    );
    let one_more = keys.seal(&binding(&args), &vec![0; largest + 1], LIFETIME, t0());
    assert!(matches!(one_more, Err(SealError::TooLarge { .. })));
}

#[test]
fn malformed_strings_are_refused_as_malformed() {
    let keys = fixed_keys(1);
    let args = arguments();
    let sealed = keys
        .seal(&binding(&args), b"payload", LIFETIME, t0())
        .unwrap();
    let kid = &sealed[3..9];
    let body = &sealed[10..];
    let malformed = [
        String::new(),
        "AEAD-protected blob".to_owned(),
        "v1".to_owned(),
        "v1.".to_owned(),
        format!("v2.{kid}.{body}"),
        format!("V1.{kid}.{body}"),
        format!("v1{kid}.{body}"),
        format!("v1.{kid}{body}"),
        format!("v1.{kid}:{body}"),
        format!("v1.{}.{body}", &kid[..5]),
        format!("v1.{kid}A.{body}"),
        format!("v1.{kid}."),
        format!("v1.{kid}.AAAA"),
        format!("v1.{kid}.{body}="),
        format!("v1.{kid}.{body}+"),
        format!("v1.{kid}.{}/", &body[..body.len() - 1]),
        format!("v1.{kid}.{} ", &body[..body.len() - 1]),
        format!("v1.{kid}.{}", &body[..body.len() - 1]).replace('A', "é"),
        format!("v1.!!!!!!.{body}"),
        "v1.......".to_owned(),
        format!("v1.{kid}.{}", "A".repeat(53)),
    ];
    for string in malformed {
        let refusal = keys.open(&binding(&args), &string, t0()).unwrap_err();
        assert!(
            matches!(refusal, StateRefusal::Malformed),
            "{string:?}: {refusal:?}"
        );
    }
    assert_eq!(StateRefusal::Malformed.reason(), "malformed");
}

#[test]
fn a_state_sealed_with_a_key_this_server_does_not_hold_is_refused_as_unknown() {
    let ours = fixed_keys(1);
    let theirs = fixed_keys(2);
    let args = arguments();
    let sealed = theirs
        .seal(&binding(&args), b"payload", LIFETIME, t0())
        .unwrap();
    let refusal = ours.open(&binding(&args), &sealed, t0()).unwrap_err();
    assert_eq!(refusal, StateRefusal::UnknownKey);
    assert_eq!(refusal.reason(), "unknown_key");
    // Another process's random key, too (sealing linked in as a handler that asks links it).
    super::link_sealing();
    let sealed = StateKeys::random()
        .seal(&binding(&args), b"p", LIFETIME, t0())
        .unwrap();
    assert_eq!(
        StateKeys::random().open(&binding(&args), &sealed, t0()),
        Err(StateRefusal::UnknownKey)
    );
}

/// Random keys are drawn when first used, once for the keys and every clone of them: a clone
/// made before the first seal opens what the original sealed, and the same state again.
#[test]
fn random_keys_are_drawn_once_for_every_clone() {
    let args = json!({"q": 1});
    // Random keys seal once something that asks has linked sealing in.
    super::link_sealing();
    let keys = StateKeys::random();
    let clone = keys.clone();
    let sealed = keys.seal(&binding(&args), b"p", LIFETIME, t0()).unwrap();
    assert_eq!(clone.open(&binding(&args), &sealed, t0()).unwrap(), b"p");
    assert_eq!(keys.open(&binding(&args), &sealed, t0()).unwrap(), b"p");
    assert_eq!(format!("{keys:?}"), format!("{clone:?}"));
}

#[test]
fn instances_sharing_keys_open_each_others_states() {
    let one = fixed_keys(1);
    let other = StateKeys::from_keys([[1; 32]]).unwrap();
    let args = arguments();
    let sealed = one
        .seal(&binding(&args), b"payload", LIFETIME, t0())
        .unwrap();
    assert_eq!(
        other.open(&binding(&args), &sealed, t0()).unwrap(),
        b"payload"
    );
    // A clone shares the ring.
    assert_eq!(
        one.clone().open(&binding(&args), &sealed, t0()).unwrap(),
        b"payload"
    );
}

#[test]
fn after_a_new_key_is_prepended_old_states_open_and_new_ones_use_the_new_key() {
    let old = StateKeys::from_keys([[1; 32]]).unwrap();
    let args = arguments();
    let before = old
        .seal(&binding(&args), b"before", LIFETIME, t0())
        .unwrap();
    let rotated = StateKeys::from_keys([[2; 32], [1; 32]]).unwrap();
    assert_eq!(
        rotated.open(&binding(&args), &before, t0()).unwrap(),
        b"before"
    );
    let after = rotated
        .seal(&binding(&args), b"after", LIFETIME, t0())
        .unwrap();
    assert_ne!(after[3..9], before[3..9], "sealed with the new key");
    // An instance not yet rotated refuses it; one holding both opens both.
    assert_eq!(
        old.open(&binding(&args), &after, t0()),
        Err(StateRefusal::UnknownKey)
    );
    assert_eq!(
        rotated.open(&binding(&args), &after, t0()).unwrap(),
        b"after"
    );
}

#[test]
fn the_debug_form_names_key_ids_and_never_keys() {
    let keys = StateKeys::from_keys([[0xab; 32]]).unwrap();
    let shown = format!("{keys:?}");
    assert!(
        shown.contains("seals") && shown.contains("max_len: 65536"),
        "{shown}"
    );
    assert!(
        !shown.contains("171") && !shown.to_lowercase().contains("abab"),
        "{shown}"
    );
}

/// A key file in the temporary directory, removed when dropped.
struct KeyFile(PathBuf);

impl KeyFile {
    fn new(name: &str) -> KeyFile {
        let path = std::env::temp_dir().join(format!(
            "mcp-runtime-state-keys-{name}-{}",
            std::process::id()
        ));
        KeyFile(path)
    }

    /// Replaces the file the way deployments do: written aside, renamed into place (a new
    /// inode, so the change is seen whatever the clock's resolution).
    fn write(&self, lines: &[&str]) {
        let aside = self.0.with_extension("new");
        std::fs::write(&aside, lines.join("\n") + "\n").unwrap();
        std::fs::rename(&aside, &self.0).unwrap();
    }
}

impl Drop for KeyFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn base64_key(seed: u8) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode([seed; 32])
}

#[test]
fn a_watched_file_rotates_and_a_removed_key_opens_only_during_its_grace() {
    let file = KeyFile::new("rotate");
    let (k1, k2, k3) = (base64_key(1), base64_key(2), base64_key(3));
    file.write(&["# the first line seals", &k1]);
    let grace = secs(300);
    let keys = StateKeys::watch_file(&file.0, grace).unwrap();
    let args = arguments();
    let sealed_1 = keys.seal(&binding(&args), b"one", LIFETIME, t0()).unwrap();
    assert_eq!(keys.open(&binding(&args), &sealed_1, t0()).unwrap(), b"one");

    // A new first line: it seals from the next check on, and the old key still opens.
    file.write(&[&k2, &k1]);
    let t1 = t0() + secs(2);
    let sealed_2 = keys.seal(&binding(&args), b"two", LIFETIME, t1).unwrap();
    assert_eq!(
        sealed_2[3..9],
        fixed_keys(2)
            .seal(&binding(&args), b"", LIFETIME, t1)
            .unwrap()[3..9]
    );
    assert_eq!(keys.open(&binding(&args), &sealed_1, t1).unwrap(), b"one");

    // Key 1 removed: it opens during the grace period, counted from the check that saw it.
    file.write(&[&k2]);
    let t2 = t1 + secs(2);
    assert_eq!(keys.open(&binding(&args), &sealed_1, t2).unwrap(), b"one");
    assert_eq!(
        keys.open(&binding(&args), &sealed_1, t2 + grace - secs(1))
            .unwrap(),
        b"one"
    );
    assert_eq!(
        keys.open(&binding(&args), &sealed_1, t2 + grace),
        Err(StateRefusal::UnknownKey)
    );
    assert_eq!(
        keys.open(&binding(&args), &sealed_2, t2 + grace).unwrap(),
        b"two"
    );

    // A file that becomes invalid or disappears changes nothing.
    let t3 = t2 + grace + secs(2);
    let sealed_3 = keys.seal(&binding(&args), b"three", LIFETIME, t3).unwrap();
    file.write(&[&k3, "not a key"]);
    let t4 = t3 + secs(5);
    // Twice: once read while the file may be settling, once after.
    for now in [t4, t4 + secs(3)] {
        assert_eq!(
            keys.open(&binding(&args), &sealed_3, now).unwrap(),
            b"three"
        );
    }
    std::fs::remove_file(&file.0).unwrap();
    let t5 = t4 + secs(10);
    assert_eq!(keys.open(&binding(&args), &sealed_3, t5).unwrap(), b"three");
    let sealed_5 = keys.seal(&binding(&args), b"five", LIFETIME, t5).unwrap();
    assert_eq!(sealed_5[3..9], sealed_3[3..9], "still sealed with key 2");

    // Valid again: key 3 seals.
    file.write(&[&k3, &k2]);
    let t6 = t5 + secs(2);
    let sealed_6 = keys.seal(&binding(&args), b"six", LIFETIME, t6).unwrap();
    assert_eq!(
        fixed_keys(3).open(&binding(&args), &sealed_6, t6).unwrap(),
        b"six"
    );
}

#[test]
fn a_watched_file_is_looked_at_at_most_once_a_second() {
    let file = KeyFile::new("throttle");
    file.write(&[&base64_key(1)]);
    let keys = StateKeys::watch_file(&file.0, secs(60)).unwrap();
    let args = arguments();
    // The first use looks (the file may still be settling: it is read again a second later).
    let first = keys.seal(&binding(&args), b"", LIFETIME, t0()).unwrap();
    file.write(&[&base64_key(2)]);
    // Within the second: not looked at, key 1 still seals.
    let soon = keys
        .seal(
            &binding(&args),
            b"",
            LIFETIME,
            t0() + Duration::from_millis(900),
        )
        .unwrap();
    assert_eq!(soon[3..9], first[3..9]);
    let later = keys
        .seal(
            &binding(&args),
            b"",
            LIFETIME,
            t0() + Duration::from_millis(1000),
        )
        .unwrap();
    assert_ne!(later[3..9], first[3..9]);
}

#[test]
fn a_file_rewritten_in_place_within_the_same_second_is_seen() {
    // No rename: the same inode, perhaps the same modification time and length. The check
    // after a recent change reads the file again.
    let file = KeyFile::new("in-place");
    std::fs::write(&file.0, base64_key(1)).unwrap();
    let keys = StateKeys::watch_file(&file.0, secs(60)).unwrap();
    let args = arguments();
    let first = keys.seal(&binding(&args), b"", LIFETIME, t0()).unwrap();
    std::fs::write(&file.0, base64_key(2)).unwrap();
    let after = keys
        .seal(&binding(&args), b"", LIFETIME, t0() + secs(1))
        .unwrap();
    assert_eq!(
        fixed_keys(2).open(&binding(&args), &after, t0()).unwrap(),
        b""
    );
    assert_ne!(after[3..9], first[3..9]);
}

#[test]
fn watching_a_file_that_is_invalid_now_fails_naming_the_line() {
    let file = KeyFile::new("invalid");
    file.write(&[&base64_key(1), "", "# older", "AQID"]);
    let message = StateKeys::watch_file(&file.0, secs(60))
        .unwrap_err()
        .to_string();
    assert!(
        message.contains(&format!(
            "{}, line 4: the key is 3 bytes long",
            file.0.display()
        )),
        "{message}"
    );
    let message = StateKeys::from_file(&file.0).unwrap_err().to_string();
    assert!(message.contains("line 4"), "{message}");
}

/// A small deterministic generator, so a failing case can be replayed.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

#[test]
fn random_payloads_round_trip_and_random_bit_flips_in_the_body_are_forged() {
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;

    let keys = fixed_keys(1);
    let mut random = XorShift(0x9e37_79b9_7f4a_7c15);
    for case in 0..300 {
        let len = random.below(600);
        let payload = random.bytes(len);
        let args = json!({ "n": random.next() % 1000, "s": format!("{case}") });
        let sealed = keys
            .seal(&binding(&args), &payload, LIFETIME, t0())
            .unwrap();
        assert_eq!(
            keys.open(&binding(&args), &sealed, t0()).unwrap(),
            payload,
            "case {case}"
        );

        // Flip one bit of the decoded body (nonce, ciphertext or tag) and encode it again.
        let (header, body) = sealed.split_at(10);
        let mut body = URL_SAFE_NO_PAD.decode(body).unwrap();
        let bit = random.below(body.len() * 8);
        body[bit / 8] ^= 1 << (bit % 8);
        let flipped = format!("{header}{}", URL_SAFE_NO_PAD.encode(&body));
        assert_eq!(
            keys.open(&binding(&args), &flipped, t0()),
            Err(StateRefusal::Forged),
            "case {case}, bit {bit}"
        );
    }
}

#[test]
fn arbitrary_strings_are_refused_without_panicking() {
    let keys = fixed_keys(1);
    let args = arguments();
    let sealed = keys
        .seal(&binding(&args), b"payload", LIFETIME, t0())
        .unwrap();
    let pieces = [
        "v1.",
        ".",
        &sealed[3..9],
        "A",
        "-",
        "_",
        "=",
        "é",
        "\0",
        "v1",
        &sealed[10..20],
    ];
    let mut random = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..5000 {
        let parts = random.below(8);
        let string: String = (0..parts)
            .map(|_| pieces[random.below(pieces.len())])
            .collect();
        assert!(
            keys.open(&binding(&args), &string, t0()).is_err(),
            "{string:?}"
        );
    }
}

#[test]
fn keys_can_be_shared_between_threads() {
    fn shared<T: Send + Sync + 'static>() {}
    shared::<StateKeys>();
}
