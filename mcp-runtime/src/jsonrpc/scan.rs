//! JSON text read for its structure alone: where an object's members and their values lie,
//! every value checked to be JSON (RFC 8259), nothing decoded.
//!
//! What the runtime reads of a message is mostly structure: which members the envelope, the
//! params, `_meta` and a tool's arguments have, and where their values are. Read through
//! serde's visitors, that structure was about two fifths of a small `tools/call`'s
//! instructions. Here it is located by a scanner of our own; the values a handler needs are
//! then decoded by serde_json, each from its own text.
//!
//! The scanner accepts exactly the texts serde_json accepts when it skips a value (as it does
//! for a [`RawValue`](serde_json::value::RawValue)): the unit tests below and the `json_scan`
//! fuzz target hold it to that. It checks a `\u` escape's form, not what it stands for; a
//! string written with escapes that a reader needs is decoded by serde_json ([`decoded`]),
//! which then judges the escape as it always did. Nesting has no depth limit here (no
//! recursion: a stack of bits), as serde_json has none when it skips a value.

use std::borrow::Cow;

use super::Text;

/// The text is not JSON (what is wrong is for serde_json to say: callers that report it read
/// the text again with serde_json).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Malformed;

/// A member's name, as written.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Name<'a> {
    text: &'a str,
    /// Where its opening and closing quotes are in `text`.
    open: usize,
    close: usize,
    /// Whether it is written with an escape (then [`Name::raw`] is not yet the name).
    pub(crate) escaped: bool,
}

impl<'a> Name<'a> {
    /// The name as written between its quotes.
    pub(crate) fn raw(&self) -> &'a str {
        &self.text[self.raw_range()]
    }

    /// Where [`Name::raw`] lies in the text scanned.
    pub(crate) fn raw_range(&self) -> std::ops::Range<usize> {
        self.open + 1..self.close
    }

    /// The name's bytes, to be matched against the names a reader knows: as written when
    /// written without escapes, decoded otherwise; `None` if an escape stands for no
    /// character.
    pub(crate) fn bytes(&self) -> Option<Cow<'a, [u8]>> {
        match self.escaped {
            false => Some(Cow::Borrowed(self.raw().as_bytes())),
            true => match self.decoded()? {
                Cow::Owned(name) => Some(Cow::Owned(name.into_bytes())),
                Cow::Borrowed(name) => Some(Cow::Borrowed(name.as_bytes())),
            },
        }
    }

    /// The name, decoded if written with escapes; `None` if an escape stands for no
    /// character (a lone surrogate), which serde_json refuses in a name.
    pub(crate) fn decoded(&self) -> Option<Cow<'a, str>> {
        match self.escaped {
            false => Some(Cow::Borrowed(self.raw())),
            true => decoded(&self.text[self.open..self.close + 1]),
        }
    }
}

/// A member's name, as [`Members::next_listed_name`] tells it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Listed<'a> {
    /// The name is the listed name at this index, written as it is.
    At(usize),
    /// Any other name, or a listed one written with an escape.
    Other(Name<'a>),
}

/// One member of an object.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Member<'a> {
    pub(crate) name: Name<'a>,
    /// The value's JSON text, checked, without surrounding white space.
    pub(crate) value: &'a str,
}

/// The JSON string `quoted` (checked JSON text), decoded; `None` if it is not a string or an
/// escape in it stands for no character. A string without escapes is its text between the
/// quotes, borrowed.
pub(crate) fn decoded(quoted: &str) -> Option<Cow<'_, str>> {
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    if !inner.contains('\\') {
        return Some(Cow::Borrowed(inner));
    }
    let Text(decoded) = serde_json::from_str(quoted).ok()?;
    Some(decoded)
}

/// The members of a JSON object, in order, each checked as it is reached. A member's value is
/// skipped ([`Members::value`]) or, when it is an object, read member by member itself
/// ([`Members::nested`]), so that no part of the text is scanned twice.
pub(crate) struct Members<'a> {
    text: &'a str,
    /// Where the object's `{` is.
    start: usize,
    /// Where the scan is: after `{`, at a member's value (after [`Members::next_name`]),
    /// after a value, or (`done`) just past the object's `}`.
    at: usize,
    first: bool,
    done: bool,
}

impl<'a> Members<'a> {
    /// The members of the object `text` begins with (after white space); `None` if it begins
    /// with anything else.
    pub(crate) fn of(text: &'a str) -> Option<Members<'a>> {
        Members::at(text, skip_space(text.as_bytes(), 0))
    }

    /// The members of the object at `start` of `text`, if there is one.
    fn at(text: &'a str, start: usize) -> Option<Members<'a>> {
        (text.as_bytes().get(start) == Some(&b'{')).then_some(Members {
            text,
            start,
            at: start + 1,
            first: true,
            done: false,
        })
    }

    /// The next member's name; `Ok(None)` past the last one. Its value is to be read next,
    /// by [`Members::value`] or [`Members::nested`].
    pub(crate) fn next_name(&mut self) -> Result<Option<Name<'a>>, Malformed> {
        match self.next_open_quote()? {
            Some(open) => self.name_at(open).map(Some),
            None => Ok(None),
        }
    }

    /// [`Members::next_name`] for a reader that looks for the names `listed`: a name written
    /// as one of them is told by its bytes alone, without its end being searched for first
    /// (the long `_meta` keys of revision 2026-07-28 are most of a request's name bytes).
    /// Every other name, a listed one written with escapes included, is
    /// [`Listed::Other`], for the reader to decode and match as [`Members::next_name`]'s.
    /// Each listed name must be one a JSON string holds as it is (no `"`, `\` or control
    /// character).
    pub(crate) fn next_listed_name(
        &mut self,
        listed: &[&str],
    ) -> Result<Option<Listed<'a>>, Malformed> {
        let Some(open) = self.next_open_quote()? else {
            return Ok(None);
        };
        let bytes = self.text.as_bytes();
        let contents = &bytes[open + 1..];
        for (index, name) in listed.iter().enumerate() {
            debug_assert!(name.bytes().all(|byte| PLAIN[usize::from(byte)]), "{name}");
            // The quote that closes the name first: most other names fail there, unread.
            if contents.get(name.len()) == Some(&b'"') && contents.starts_with(name.as_bytes()) {
                self.at = value_start(bytes, open + 1 + name.len() + 1)?;
                return Ok(Some(Listed::At(index)));
            }
        }
        self.name_at(open).map(|name| Some(Listed::Other(name)))
    }

    /// Where the next member's name opens, past the `,` before it; `Ok(None)` past the last
    /// member.
    fn next_open_quote(&mut self) -> Result<Option<usize>, Malformed> {
        if self.done {
            return Ok(None);
        }
        let bytes = self.text.as_bytes();
        let mut at = skip_space(bytes, self.at);
        let first = std::mem::replace(&mut self.first, false);
        match bytes.get(at) {
            Some(b'"') if first => {}
            Some(b',') if !first => {
                at = skip_space(bytes, at + 1);
                if bytes.get(at) != Some(&b'"') {
                    return Err(Malformed);
                }
            }
            Some(b'}') => {
                self.at = at + 1;
                self.done = true;
                return Ok(None);
            }
            _ => return Err(Malformed),
        }
        Ok(Some(at))
    }

    /// The name whose opening quote is at `open`, read to its end and past the `:` after it.
    fn name_at(&mut self, open: usize) -> Result<Name<'a>, Malformed> {
        let bytes = self.text.as_bytes();
        let (close, escaped) = string_end(bytes, open + 1)?;
        self.at = value_start(bytes, close + 1)?;
        Ok(Name {
            text: self.text,
            open,
            close,
            escaped,
        })
    }

    /// The value of the member just named, skipped: its JSON text, checked.
    pub(crate) fn value(&mut self) -> Result<&'a str, Malformed> {
        let range = self.value_range()?;
        Ok(&self.text[range])
    }

    /// [`Members::value`], as where its text lies in the text scanned.
    pub(crate) fn value_range(&mut self) -> Result<std::ops::Range<usize>, Malformed> {
        let start = self.at;
        self.at = value_end(self.text.as_bytes(), start)?;
        Ok(start..self.at)
    }

    /// The members of the value of the member just named, if it is an object. Once they
    /// have been read to the end, [`Members::resume`] takes the scan past them.
    pub(crate) fn nested(&self) -> Option<Members<'a>> {
        Members::at(self.text, self.at)
    }

    /// Goes on past `nested` (read to its end): the JSON text of that value.
    pub(crate) fn resume(&mut self, nested: &Members<'a>) -> &'a str {
        debug_assert!(nested.done && nested.start == self.at);
        self.at = nested.at;
        nested.object()
    }

    /// The next member, its value skipped; `Ok(None)` past the last one.
    #[allow(clippy::should_implement_trait)] // Fallible: an iterator of results would be read with `?` per item anyway.
    pub(crate) fn next(&mut self) -> Result<Option<Member<'a>>, Malformed> {
        let Some(name) = self.next_name()? else {
            return Ok(None);
        };
        Ok(Some(Member {
            name,
            value: self.value()?,
        }))
    }

    /// Where the object's `{` is in the text scanned.
    pub(crate) fn start(&self) -> usize {
        self.start
    }

    /// Where the object ends, just past its `}` (once read to its end).
    pub(crate) fn end(&self) -> usize {
        self.at
    }

    /// The object's JSON text (once read to its end).
    pub(crate) fn object(&self) -> &'a str {
        &self.text[self.start..self.at]
    }
}

/// Whether `text` is one JSON object and nothing else but white space.
pub(crate) fn is_object(text: &str) -> bool {
    let Some(mut members) = Members::of(text) else {
        return false;
    };
    loop {
        match members.next() {
            Ok(Some(_)) => {}
            Ok(None) => return only_space(&text[members.end()..]),
            Err(Malformed) => return false,
        }
    }
}

/// Whether `text` holds only JSON's white space.
pub(crate) fn only_space(text: &str) -> bool {
    skip_space(text.as_bytes(), 0) == text.len()
}

/// JSON's white space (RFC 8259, section 2).
#[inline]
fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

#[inline]
fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && is_space(bytes[at]) {
        at += 1;
    }
    at
}

/// After a member's name (`at` just past its closing quote): white space, `:`, white space;
/// where the value begins.
#[inline]
fn value_start(bytes: &[u8], at: usize) -> Result<usize, Malformed> {
    let at = skip_space(bytes, at);
    if bytes.get(at) != Some(&b':') {
        return Err(Malformed);
    }
    Ok(skip_space(bytes, at + 1))
}

/// A member's name and the `:` after it, from its opening quote at `at`: where the value
/// begins.
fn member_name(bytes: &[u8], at: usize) -> Result<usize, Malformed> {
    if bytes.get(at) != Some(&b'"') {
        return Err(Malformed);
    }
    let (close, _) = string_end(bytes, at + 1)?;
    value_start(bytes, close + 1)
}

/// Whether a byte may stand in a string as it is: not `"`, not `\`, not a control character.
static PLAIN: [bool; 256] = {
    let mut plain = [true; 256];
    let mut byte = 0;
    while byte < 0x20 {
        plain[byte] = false;
        byte += 1;
    }
    plain[b'"' as usize] = false;
    plain[b'\\' as usize] = false;
    plain
};

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of each byte of `word` (eight bytes, little-endian) that may not stand in a
/// string as it is, exact for the first such byte (a borrow can mark bytes after it).
#[inline]
fn not_plain(word: u64) -> u64 {
    let zero = |word: u64| word.wrapping_sub(ONES) & !word & HIGHS;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    zero(word ^ (ONES * u64::from(b'"'))) | zero(word ^ (ONES * u64::from(b'\\'))) | below_space
}

/// How many of the eight bytes at `at` may stand in a string as they are before the first
/// that may not (8 if all may); `None` if fewer than eight bytes are left.
#[inline]
fn plain_in_word(bytes: &[u8], at: usize) -> Option<usize> {
    let word = <[u8; 8]>::try_from(bytes.get(at..at + 8)?).ok()?;
    Some((not_plain(u64::from_le_bytes(word)).trailing_zeros() / 8) as usize)
}

/// Where the first byte from `at` on that may not stand in a string as it is lies (or the
/// end of `bytes`): eight bytes at a time, then one at a time for the last few.
#[inline]
fn plain_end(bytes: &[u8], mut at: usize) -> usize {
    while let Some(plain) = plain_in_word(bytes, at) {
        if plain < 8 {
            return at + plain;
        }
        at += 8;
    }
    while at < bytes.len() && PLAIN[usize::from(bytes[at])] {
        at += 1;
    }
    at
}

/// The string whose contents begin at `at` (just past its opening quote): where its closing
/// quote is, and whether it holds an escape. Every escape is checked for its form (RFC 8259,
/// section 7); raw control characters are refused.
///
/// Most strings of a message (its members' names, the method, a revision, a tool's name)
/// close within their first nine bytes: that is told here, by one word's test in a few
/// registers; any other string is read on by [`string_end_beyond`], whose loop keeps its
/// masks in registers it must save and restore.
#[inline(never)]
fn string_end(bytes: &[u8], at: usize) -> Result<(usize, bool), Malformed> {
    let Some(plain) = plain_in_word(bytes, at) else {
        return string_end_beyond(bytes, at);
    };
    // The first byte that may not stand as it is, or (none among the eight) the byte just
    // past them: either way the string closes there, unescaped, if it is a quote.
    let first = at + plain;
    if bytes.get(first) == Some(&b'"') {
        return Ok((first, false));
    }
    string_end_beyond(bytes, first)
}

/// [`string_end`] from `at` on, where the bytes before `at` may stand in a string as they
/// are: for a string that the first word read does not close.
#[inline(never)]
fn string_end_beyond(bytes: &[u8], mut at: usize) -> Result<(usize, bool), Malformed> {
    let mut escaped = false;
    loop {
        at = plain_end(bytes, at);
        match bytes.get(at) {
            Some(b'"') => return Ok((at, escaped)),
            Some(b'\\') => {
                escaped = true;
                at = escape_end(bytes, at)?;
            }
            // A control character, or the end of the text.
            _ => return Err(Malformed),
        }
    }
}

/// Just past the escape whose `\` is at `at`.
fn escape_end(bytes: &[u8], at: usize) -> Result<usize, Malformed> {
    match bytes.get(at + 1) {
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(at + 2),
        Some(b'u') => match bytes.get(at + 2..at + 6) {
            Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => Ok(at + 6),
            _ => Err(Malformed),
        },
        _ => Err(Malformed),
    }
}

/// The open arrays and objects around the scan: one bit per level (set: an object), the first
/// 64 levels without allocating.
struct Nesting {
    depth: usize,
    first: u64,
    more: Vec<u64>,
}

impl Nesting {
    fn push(&mut self, object: bool) {
        let (word, bit) = (self.depth / 64, self.depth % 64);
        if word > self.more.len() {
            self.more.push(0);
        }
        let bits = match word {
            0 => &mut self.first,
            _ => &mut self.more[word - 1],
        };
        *bits = (*bits & !(1 << bit)) | (u64::from(object) << bit);
        self.depth += 1;
    }

    /// Whether the innermost open level is an object; `None` at the top.
    fn innermost(&self) -> Option<bool> {
        let level = self.depth.checked_sub(1)?;
        let bits = match level / 64 {
            0 => self.first,
            word => self.more[word - 1],
        };
        Some(bits >> (level % 64) & 1 == 1)
    }
}

/// Where the value that begins at `at` ends (just past it), every part of it checked.
#[inline]
fn value_end(bytes: &[u8], at: usize) -> Result<usize, Malformed> {
    match bytes.get(at) {
        Some(b'"') => Ok(string_end(bytes, at + 1)?.0 + 1),
        Some(b'-' | b'0'..=b'9') => number_end(bytes, at),
        Some(b'{' | b'[') => nested_end(bytes, at),
        Some(b't') => literal(bytes, at, b"true"),
        Some(b'f') => literal(bytes, at, b"false"),
        Some(b'n') => literal(bytes, at, b"null"),
        _ => Err(Malformed),
    }
}

/// [`value_end`] of an object or an array (at `at`). Kept apart, so that the strings,
/// numbers and literals `value_end` mostly reads do not pay for its state and registers.
#[inline(never)]
fn nested_end(bytes: &[u8], mut at: usize) -> Result<usize, Malformed> {
    let mut nesting = Nesting {
        depth: 0,
        first: 0,
        more: Vec::new(),
    };
    loop {
        // A value begins at `at`.
        match bytes.get(at) {
            Some(&open @ (b'{' | b'[')) => {
                let object = open == b'{';
                at = skip_space(bytes, at + 1);
                if bytes.get(at) == Some(if object { &b'}' } else { &b']' }) {
                    at += 1;
                } else {
                    nesting.push(object);
                    if object {
                        at = member_name(bytes, at)?;
                    }
                    continue;
                }
            }
            _ => at = value_end(bytes, at)?,
        }
        // A value ended: close what it ends, or go on to the next element or member.
        loop {
            let Some(object) = nesting.innermost() else {
                return Ok(at);
            };
            at = skip_space(bytes, at);
            match (bytes.get(at), object) {
                (Some(b','), true) => {
                    at = member_name(bytes, skip_space(bytes, at + 1))?;
                    break;
                }
                (Some(b','), false) => {
                    at = skip_space(bytes, at + 1);
                    break;
                }
                (Some(b'}'), true) | (Some(b']'), false) => {
                    nesting.depth -= 1;
                    at += 1;
                }
                _ => return Err(Malformed),
            }
        }
    }
}

fn literal(bytes: &[u8], at: usize, word: &[u8]) -> Result<usize, Malformed> {
    match bytes.get(at..at + word.len()) {
        Some(found) if found == word => Ok(at + word.len()),
        _ => Err(Malformed),
    }
}

/// A number (RFC 8259, section 6): `-`, an integer part without leading zeros, a fraction, an
/// exponent.
fn number_end(bytes: &[u8], mut at: usize) -> Result<usize, Malformed> {
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => at = digits(bytes, at + 1),
        _ => return Err(Malformed),
    }
    if bytes.get(at) == Some(&b'.') {
        let from = at + 1;
        at = digits(bytes, from);
        if at == from {
            return Err(Malformed);
        }
    }
    if let Some(b'e' | b'E') = bytes.get(at) {
        at += 1;
        if let Some(b'+' | b'-') = bytes.get(at) {
            at += 1;
        }
        let from = at;
        at = digits(bytes, from);
        if at == from {
            return Err(Malformed);
        }
    }
    Ok(at)
}

#[inline]
fn digits(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_digit() {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What serde_json says of `text` as a value it skips.
    fn serde_accepts(text: &str) -> bool {
        serde_json::from_str::<&serde_json::value::RawValue>(text).is_ok()
    }

    /// The scanner and serde_json agree on whether `{"k": <value>}` is JSON, and the scanner
    /// finds `value` as written.
    fn agree(value: &str) {
        let text = format!(r#"{{"k": {value} }}"#);
        assert_eq!(
            is_object(&text),
            serde_accepts(&text),
            "scanner and serde_json disagree on {text:?}"
        );
        if is_object(&text) {
            let member = Members::of(&text).unwrap().next().unwrap().unwrap();
            assert_eq!(member.value, value.trim());
            // Read member by member where it is an object, it ends where skipping it ends.
            let mut members = Members::of(&text).unwrap();
            members.next_name().unwrap();
            if let Some(mut nested) = members.nested() {
                while nested.next().unwrap().is_some() {}
                assert_eq!(members.resume(&nested), value.trim());
            }
        }
    }

    #[test]
    fn agrees_with_serde_json_on_every_kind_of_value() {
        for value in [
            "0",
            "-0",
            "1",
            "-1",
            "10",
            "01",
            "-",
            "-a",
            "1.",
            "1.5",
            ".5",
            "1e5",
            "1E+5",
            "1e-5",
            "1e",
            "1e+",
            "1.5e3",
            "1.e3",
            "123456789012345678901234567890",
            "1e400",
            "true",
            "false",
            "null",
            "tru",
            "nul",
            "truex",
            "True",
            "\"\"",
            "\"a\"",
            "\"a\\\"b\"",
            "\"\\u00e9\"",
            "\"\\ud800\"",
            "\"\\u12\"",
            "\"\\u12g4\"",
            "\"\\x\"",
            "\"\\/\\b\\f\\n\\r\\t\\\\\"",
            "\"tab\there\"",
            "\"nl\nhere\"",
            "\"é😀\"",
            "\"unterminated",
            "[]",
            "[ ]",
            "[1,2]",
            "[1,]",
            "[,1]",
            "[1 2]",
            "[[[]]]",
            "[[[]]",
            "{}",
            "{ }",
            "{\"a\":1}",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{a:1}",
            "{\"a\":}",
            "{\"a\":1 \"b\":2}",
            "{\"a\":[{\"b\":[1,{\"c\":null}]}]}",
            "{\"\\u0061\":1}",
            "\"long string of more than eight bytes with \\n an escape late\"",
            "\"eight b\"",
            "\"sixteen bytes!!\"",
            "\"a\u{1f}\"",
            "1 2",
            "",
            " ",
        ] {
            agree(value);
        }
    }

    /// Strings of every length up to twenty bytes (so closing within the first eight bytes
    /// read, at their end, and past them), with an escape, a raw control character, a lone
    /// backslash or a multi-byte character at every place, and cut short at every place:
    /// the scanner agrees with serde_json, and a name's escape is reported wherever it stands.
    #[test]
    fn strings_agree_at_every_length_with_a_special_byte_at_every_place() {
        for len in 0..=20 {
            let plain = "a".repeat(len);
            agree(&format!("\"{plain}\""));
            let text = format!("{{\"{plain}\":1}}");
            let member = Members::of(&text).unwrap().next().unwrap().unwrap();
            assert_eq!((member.name.raw(), member.name.escaped), (&*plain, false));
            for at in 0..=len {
                let (head, tail) = plain.split_at(at);
                for special in ["\\\"", "\\n", "\\u0041", "\n", "\u{1f}", "\\", "\\u00", "é"] {
                    agree(&format!("\"{head}{special}{tail}\""));
                }
                let text = format!("{{\"{head}\\n{tail}\":1}}");
                let member = Members::of(&text).unwrap().next().unwrap().unwrap();
                assert_eq!(member.name.raw(), format!("{head}\\n{tail}"));
                assert!(member.name.escaped, "{text:?}");
                assert!(!is_object(&format!("{{\"k\":\"{head}")));
                assert!(!is_object(&format!("{{\"{head}")));
            }
        }
    }

    #[test]
    fn nesting_deeper_than_64_levels_is_followed_exactly() {
        for depth in [63, 64, 65, 128, 129, 300] {
            let value = format!("{}{}", "[{\"a\":".repeat(depth), "1}]".repeat(depth));
            agree(&value);
            let unbalanced = format!("{}{}", "[{\"a\":".repeat(depth), "1]}".repeat(depth));
            agree(&unbalanced);
        }
    }

    #[test]
    fn listed_names_are_told_as_next_name_reads_them() {
        let listed = ["ab", "abc", "x.y/z"];
        // What `next_listed_name` makes of each name of `text`, and where the scan goes on.
        let tell = |text: &'static str| {
            let mut members = Members::of(text).unwrap();
            let mut told = Vec::new();
            while let Some(name) = members.next_listed_name(&listed).unwrap() {
                let value = members.value().unwrap();
                told.push(match name {
                    Listed::At(index) => (listed[index].to_owned(), true, value),
                    Listed::Other(name) => (name.decoded().unwrap().into_owned(), false, value),
                });
            }
            assert!(only_space(&text[members.end()..]), "{text}");
            told
        };
        let text = r#"{"abc" : 1,"ab":[2], "abcd":3,"a":4,"x.y/z":"5","\u0061b":6,"ab\"":7,"":8}"#;
        assert_eq!(
            tell(text),
            [
                ("abc".to_owned(), true, "1"),
                ("ab".to_owned(), true, "[2]"),
                ("abcd".to_owned(), false, "3"),
                ("a".to_owned(), false, "4"),
                ("x.y/z".to_owned(), true, "\"5\""),
                // Listed, but written with an escape: for the reader to decode.
                ("ab".to_owned(), false, "6"),
                ("ab\"".to_owned(), false, "7"),
                (String::new(), false, "8"),
            ]
        );
        // The same names, members and values as `next_name` gives.
        let mut members = Members::of(text).unwrap();
        let mut names = Vec::new();
        while let Some(member) = members.next().unwrap() {
            names.push((member.name.decoded().unwrap().into_owned(), member.value));
        }
        let told: Vec<_> = tell(text)
            .into_iter()
            .map(|(name, _, value)| (name, value))
            .collect();
        assert_eq!(told, names);
        // Malformed text is malformed either way, a listed name's included.
        for text in [
            r#"{"ab" 1}"#,
            r#"{"ab":}"#,
            r#"{"ab""#,
            r#"{"ab"#,
            "{\"ab\n\":1}",
            r#"{"ab":1 "abc":2}"#,
        ] {
            let mut members = Members::of(text).unwrap();
            let listed_read = std::iter::from_fn(|| match members.next_listed_name(&listed) {
                Ok(Some(_)) => Some(members.value().map(|_| ())),
                Ok(None) => None,
                Err(error) => Some(Err(error)),
            })
            .any(|read| read.is_err());
            assert!(listed_read, "{text}");
            assert!(!is_object(text), "{text}");
        }
    }

    #[test]
    fn members_come_in_order_with_their_names_as_written() {
        let text = r#" { "a" : 1 , "b\"c":[1, {"x":2}] ,"d":"e"}  "#;
        let mut members = Members::of(text).unwrap();
        let mut found = Vec::new();
        while let Some(member) = members.next().unwrap() {
            found.push((member.name.raw(), member.name.escaped, member.value));
            assert_eq!(&text[member.name.raw_range()], member.name.raw());
        }
        assert_eq!(
            found,
            [
                ("a", false, "1"),
                ("b\\\"c", true, "[1, {\"x\":2}]"),
                ("d", false, "\"e\"")
            ]
        );
        assert!(only_space(&text[members.end()..]));
        assert!(Members::of("[1]").is_none());
        assert!(Members::of("{}").unwrap().next().unwrap().is_none());
        assert!(!is_object("{} x"));
        assert!(!is_object("{,}"));
    }
}
