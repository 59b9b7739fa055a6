//! The scheme of a URI (RFC 3986, section 3.1), checked where a URI is read: a resource's URI
//! given at run time, a request's `Origin`.

/// Whether `scheme` is a URI scheme: a letter, then letters, digits, `+`, `-` or `.`.
// Inlined as it was in each caller before: a call across codegen units reshuffled them, and
// the stripped bench server grew by 10 KB.
#[inline]
pub(crate) fn is_uri_scheme(scheme: &str) -> bool {
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}
