//! The ids the runtime issues for what a client names again later: a legacy HTTP session's
//! `Mcp-Session-Id` and a task's `taskId`. Each is 128 random bits from the operating system
//! in lowercase hex: unguessable, so an id is all a client needs to name what it holds, and
//! of one form, so that an id of any other form is no id this runtime issued, and is refused
//! as unknown before it is looked up anywhere. Redis keys are made of them
//! (`mcp:session:NAME:ID`, `mcp:task:NAME:ID`): an id holding a `:` would name another
//! server's keys, and an id of any length would cost a round trip of any size.

/// How many hex digits an issued id has.
const DIGITS: usize = 32;

/// A new id.
pub(crate) fn new() -> String {
    let mut bytes = [0u8; DIGITS / 2];
    getrandom::fill(&mut bytes).expect("the operating system provides random bytes");
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Whether `id` has the form of an id [`new`] makes: 32 lowercase hex digits.
pub(crate) fn has_issued_form(id: &str) -> bool {
    id.len() == DIGITS
        && id
            .bytes()
            .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_issued_id_has_its_form_and_no_other_id_does() {
        let issued = new();
        assert!(has_issued_form(&issued), "{issued}");
        assert_ne!(new(), issued);
        let hostile = [
            String::new(),
            "0123".to_owned(),
            format!("staging:{}", &issued[8..]),
            format!("{issued}:1"),
            issued.to_uppercase(),
            format!("{}g", &issued[1..]),
            format!("{}é", &issued[2..]),
            format!("{issued}0"),
            "a".repeat(10_000),
            format!("{}*", &issued[1..]),
        ];
        for id in hostile {
            assert!(!has_issued_form(&id), "{id}");
        }
    }
}
