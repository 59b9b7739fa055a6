//! Base64 (RFC 4648): the standard alphabet with padding, for binary resource contents and media
//! content, and strictly decoded for the base64-wrapped values of 2026-07-28 HTTP headers; the
//! URL-safe alphabet without padding, for sealed states; either alphabet, padded or not, for
//! state keys. Decoding is strict in every form: only the form's alphabet, no whitespace, `=`
//! only at the end and only as the form allows, and no set bits after the last byte, so each
//! byte string has one encoding that decodes.

/// One form of base64: an alphabet and what it does with padding.
pub(crate) struct Base64 {
    alphabet: &'static [u8; 64],
    /// Each byte's sextet in `alphabet`, or `NOT_A_SYMBOL`.
    sextets: &'static [u8; 256],
    padding: Padding,
}

const NOT_A_SYMBOL: u8 = 0xff;

/// Whether a form writes `=` up to a multiple of four characters, and reads it.
enum Padding {
    /// Written, and required when decoding.
    Required,
    /// Never written, refused when decoding.
    Omitted,
    /// Accepted when decoding, whole or in part, or absent (a key pasted either way).
    Optional,
}

const STANDARD_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE_ALPHABET: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const STANDARD_SEXTETS: &[u8; 256] = &sextets_of(STANDARD_ALPHABET);
const URL_SAFE_SEXTETS: &[u8; 256] = &sextets_of(URL_SAFE_ALPHABET);

/// The inverse of an alphabet.
const fn sextets_of(alphabet: &[u8; 64]) -> [u8; 256] {
    let mut sextets = [NOT_A_SYMBOL; 256];
    let mut sextet = 0;
    while sextet < 64 {
        sextets[alphabet[sextet] as usize] = sextet as u8;
        sextet += 1;
    }
    sextets
}

/// The standard alphabet, padded.
pub(crate) const STANDARD: Base64 = Base64 {
    alphabet: STANDARD_ALPHABET,
    sextets: STANDARD_SEXTETS,
    padding: Padding::Required,
};
/// The URL-safe alphabet, without padding.
pub(crate) const URL_SAFE_NO_PAD: Base64 = Base64 {
    alphabet: URL_SAFE_ALPHABET,
    sextets: URL_SAFE_SEXTETS,
    padding: Padding::Omitted,
};
/// The standard alphabet, padded or not.
pub(crate) const STANDARD_LENIENT: Base64 = Base64 {
    alphabet: STANDARD_ALPHABET,
    sextets: STANDARD_SEXTETS,
    padding: Padding::Optional,
};
/// The URL-safe alphabet, padded or not.
pub(crate) const URL_SAFE_LENIENT: Base64 = Base64 {
    alphabet: URL_SAFE_ALPHABET,
    sextets: URL_SAFE_SEXTETS,
    padding: Padding::Optional,
};

/// Encodes bytes as standard base64 with padding.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Decodes standard base64 strictly: the standard alphabet only, padded to a multiple of four,
/// no whitespace, and no set bits after the last byte; `None` otherwise.
#[cfg_attr(not(any(feature = "http", test)), allow(dead_code))]
pub(crate) fn base64_decode(text: &str) -> Option<Vec<u8>> {
    STANDARD.decode(text)
}

impl Base64 {
    /// `bytes` in this form.
    pub(crate) fn encode(&self, bytes: &[u8]) -> String {
        let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
        self.encode_into(bytes, &mut text);
        text
    }

    /// Appends `bytes` in this form to `text`.
    pub(crate) fn encode_into(&self, bytes: &[u8], text: &mut String) {
        let symbol = |sextet: u32| char::from(self.alphabet[(sextet & 63) as usize]);
        let mut chunks = bytes.chunks_exact(3);
        for chunk in &mut chunks {
            let group = u32::from_be_bytes([0, chunk[0], chunk[1], chunk[2]]);
            text.extend([18, 12, 6, 0].map(|shift| symbol(group >> shift)));
        }
        let rest = chunks.remainder();
        if rest.is_empty() {
            return;
        }
        let group = u32::from_be_bytes([0, rest[0], rest.get(1).copied().unwrap_or(0), 0]);
        let written = rest.len() + 1;
        text.extend(
            [18, 12, 6][..written]
                .iter()
                .map(|&shift| symbol(group >> shift)),
        );
        if matches!(self.padding, Padding::Required) {
            text.extend(std::iter::repeat_n('=', 4 - written));
        }
    }

    /// The bytes `text` encodes in this form; `None` if it is not in this form.
    pub(crate) fn decode(&self, text: &str) -> Option<Vec<u8>> {
        let text = text.as_bytes();
        let symbols = text.len()
            - text
                .iter()
                .rev()
                .take(2)
                .take_while(|&&b| b == b'=')
                .count();
        let (symbols, padding) = text.split_at(symbols);
        let partial = symbols.len() % 4;
        let padding_fits = match self.padding {
            Padding::Required => (partial + padding.len()) % 4 == 0,
            Padding::Omitted => padding.is_empty(),
            Padding::Optional => padding.is_empty() || partial + padding.len() <= 4,
        };
        if partial == 1 || !padding_fits || (!padding.is_empty() && partial == 0) {
            return None;
        }
        let mut bytes = Vec::with_capacity(symbols.len() / 4 * 3 + 2);
        let mut chunks = symbols.chunks_exact(4);
        for chunk in &mut chunks {
            let group = self.sextets(chunk)?;
            bytes.extend_from_slice(&group.to_be_bytes()[1..]);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let group = self.sextets(rest)? << (6 * (4 - rest.len()));
            let [_, first, second, third] = group.to_be_bytes();
            let kept = rest.len() - 1;
            // Set bits past the last byte would let two texts decode to the same bytes.
            if [first, second, third][kept..].iter().any(|&b| b != 0) {
                return None;
            }
            bytes.extend_from_slice(&[first, second][..kept]);
        }
        Some(bytes)
    }

    /// Up to four symbols as one big-endian group of sextets; `None` if one is not in the
    /// alphabet.
    fn sextets(&self, symbols: &[u8]) -> Option<u32> {
        symbols.iter().try_fold(0u32, |group, &symbol| {
            let sextet = self.sextets[usize::from(symbol)];
            (sextet != NOT_A_SYMBOL).then_some(group << 6 | u32::from(sextet))
        })
    }
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
            "Z",
            "Zm9v=",
            "Zm9v==",
            "Zm9=",
            "=",
            "==",
            "Zm9vYmF=",
        ] {
            assert_eq!(base64_decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn every_byte_value_round_trips_in_every_form() {
        let bytes: Vec<u8> = (0..=255).collect();
        for form in [
            &STANDARD,
            &URL_SAFE_NO_PAD,
            &STANDARD_LENIENT,
            &URL_SAFE_LENIENT,
        ] {
            for len in 0..bytes.len() {
                let text = form.encode(&bytes[..len]);
                assert_eq!(form.decode(&text).as_deref(), Some(&bytes[..len]), "{text}");
            }
        }
    }

    #[test]
    fn agrees_with_the_base64_crate() {
        use ::base64::Engine as _;
        use ::base64::engine::general_purpose as theirs;
        let bytes: Vec<u8> = (0..=255u8).rev().chain(0..=255).collect();
        for start in 0..8 {
            for len in 0..100 {
                let bytes = &bytes[start * 31..start * 31 + len];
                assert_eq!(STANDARD.encode(bytes), theirs::STANDARD.encode(bytes));
                let text = theirs::URL_SAFE_NO_PAD.encode(bytes);
                assert_eq!(URL_SAFE_NO_PAD.encode(bytes), text);
                assert_eq!(URL_SAFE_NO_PAD.decode(&text).as_deref(), Some(bytes));
            }
        }
    }

    #[test]
    fn url_safe_without_padding_uses_its_alphabet_and_refuses_padding() {
        assert_eq!(URL_SAFE_NO_PAD.encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(STANDARD.encode(&[0xfb, 0xff]), "+/8=");
        assert_eq!(URL_SAFE_NO_PAD.decode("-_8"), Some(vec![0xfb, 0xff]));
        for bad in ["-_8=", "+/8", "Zh", "Zg==", "Z"] {
            assert_eq!(URL_SAFE_NO_PAD.decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn lenient_forms_take_padding_or_its_absence_but_nothing_else() {
        for text in ["Zg==", "Zg=", "Zg"] {
            assert_eq!(STANDARD_LENIENT.decode(text), Some(b"f".to_vec()), "{text}");
        }
        assert_eq!(URL_SAFE_LENIENT.decode("-_8="), Some(vec![0xfb, 0xff]));
        assert_eq!(URL_SAFE_LENIENT.decode("-_8"), Some(vec![0xfb, 0xff]));
        for bad in ["Zm9v=", "Z=", "Zm9==", "Zh", "Zg===", "Zg= ", "+/8="] {
            assert_eq!(URL_SAFE_LENIENT.decode(bad), None, "{bad}");
        }
        assert_eq!(STANDARD_LENIENT.decode("-_8"), None);
    }
}
