//! A JSON string read without copying it when it can be.

use std::borrow::Cow;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// A JSON string (a member name or a value), borrowed from the message when it is written
/// without escapes, decoded into a `String` only when it has some.
///
/// serde's own `Cow<str>` always copies, unless it is a field of a derived struct marked
/// `#[serde(borrow)]`; member names read in a hand-written visitor (`map.next_key`) need this
/// instead, or every name of every request costs an allocation.
pub(crate) struct Text<'de>(pub(crate) Cow<'de, str>);

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor<'a>(std::marker::PhantomData<&'a str>);
        impl<'de: 'a, 'a> Visitor<'de> for TextVisitor<'a> {
            type Value = Text<'a>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: de::Error>(self, text: &'de str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Borrowed(text)))
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(text.to_owned())))
            }

            fn visit_string<E: de::Error>(self, text: String) -> Result<Text<'a>, E> {
                Ok(Text(Cow::Owned(text)))
            }
        }
        deserializer.deserialize_str(TextVisitor(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_strings_are_borrowed_and_escaped_ones_decoded() {
        let Text(plain) = serde_json::from_str::<Text<'_>>(r#""name""#).unwrap();
        assert!(matches!(plain, Cow::Borrowed("name")));
        let Text(escaped) = serde_json::from_str::<Text<'_>>(r#""na\u006de""#).unwrap();
        assert!(matches!(escaped, Cow::Owned(ref name) if name == "name"));
        assert!(serde_json::from_str::<Text<'_>>("5").is_err());
    }
}
