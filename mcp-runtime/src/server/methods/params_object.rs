//! A method's params read member by member: one reader for every method's params.
//!
//! A derived `Deserialize` is a copy of serde_json's object reader per params type, 2-6 KB of
//! machine code each, for methods called once per session (`initialize`) or rarely. Here the
//! object's members are located once, by the reader that locates a tool's arguments
//! ([`RawFields`]), and each member is decoded from its text by its own type's code (`String`,
//! `bool`, a map), which the rest of the crate has anyway. Absent params read as `{}`; an
//! unknown member is ignored and a member named twice is refused, as a derived struct does.

use serde::Deserialize;

use crate::jsonrpc::{RpcError, message_without_position};
use crate::tool::RawFields;

/// A method's params (or an object within them), member by member.
pub(super) struct ParamsObject<'a> {
    /// The method, for errors.
    method: &'a str,
    /// Where this object is within the params (`""`, or `"ref."` for the members of `ref`),
    /// for errors.
    within: String,
    /// The object's JSON text, where its members lie.
    text: &'a str,
    members: RawFields,
}

impl<'a> ParamsObject<'a> {
    /// The params of `method`; -32602 naming the method if they are not an object.
    pub(super) fn of(
        method: &'a str,
        params: Option<&'a str>,
    ) -> Result<ParamsObject<'a>, RpcError> {
        ParamsObject::read(method, String::new(), params.unwrap_or("{}"))
    }

    fn read(method: &'a str, within: String, text: &'a str) -> Result<ParamsObject<'a>, RpcError> {
        let Some(members) = RawFields::of(text) else {
            let at = within.strip_suffix('.').unwrap_or("params");
            return Err(invalid(method, &format!("`{at}` must be an object")));
        };
        Ok(ParamsObject {
            method,
            within,
            text,
            members,
        })
    }

    /// Member `name`, which must be there.
    pub(super) fn required<T: Deserialize<'a>>(&self, name: &str) -> Result<T, RpcError> {
        let text = self.text(name)?.ok_or_else(|| self.missing(name))?;
        serde_json::from_str(text).map_err(|error| self.invalid(name, &error))
    }

    /// Member `name`; `None` when it is absent or null. (Decoded as a `T`, not an
    /// `Option<T>`: one copy of the decoding code per type, shared with [`Self::required`].)
    pub(super) fn optional<T: Deserialize<'a>>(&self, name: &str) -> Result<Option<T>, RpcError> {
        match self.present(name)? {
            Some(text) => serde_json::from_str(text)
                .map(Some)
                .map_err(|error| self.invalid(name, &error)),
            None => Ok(None),
        }
    }

    /// Member `name`'s JSON text, if it is there and not null.
    pub(super) fn present(&self, name: &str) -> Result<Option<&'a str>, RpcError> {
        Ok(self.text(name)?.filter(|text| *text != "null"))
    }

    /// The members of member `name`, an object; `None` when it is absent or null.
    pub(super) fn object(&self, name: &str) -> Result<Option<ParamsObject<'a>>, RpcError> {
        let Some(text) = self.present(name)? else {
            return Ok(None);
        };
        let within = format!("{}{name}.", self.within);
        ParamsObject::read(self.method, within, text).map(Some)
    }

    /// Member `name`'s JSON text, if it is there; an error if it is there twice.
    pub(super) fn text(&self, name: &str) -> Result<Option<&'a str>, RpcError> {
        let text: &'a str = self.text;
        let mut named = self
            .members
            .members(text)
            .filter(|(member, _)| *member == name);
        let first = named.next().map(|(_, value)| value);
        if named.next().is_some() {
            return Err(invalid(
                self.method,
                &format!("duplicate field `{}{name}`", self.within),
            ));
        }
        Ok(first)
    }

    /// The error for a member that is not there (kept out of the generic functions above:
    /// one copy, not one per member type).
    pub(super) fn missing(&self, name: &str) -> RpcError {
        invalid(
            self.method,
            &format!("missing field `{}{name}`", self.within),
        )
    }

    /// The error for a member whose value is none of those `expected` lists.
    pub(super) fn unknown(&self, name: &str, value: &str, expected: &str) -> RpcError {
        invalid(
            self.method,
            &format!(
                "unknown `{}{name}` `{value}`, expected {expected}",
                self.within
            ),
        )
    }

    /// The error for a member that does not decode.
    fn invalid(&self, name: &str, error: &serde_json::Error) -> RpcError {
        let at = format!("{}{name}", self.within);
        invalid(
            self.method,
            &format!("`{at}`: {}", message_without_position(error)),
        )
    }
}

/// -32602 naming the method, as for every method's params.
pub(super) fn invalid(method: &str, what: &str) -> RpcError {
    RpcError::invalid_params(format!("invalid params for `{method}`: {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(result: Result<impl Sized, RpcError>) -> String {
        match result {
            Ok(_) => panic!("expected an error"),
            Err(error) => error.message,
        }
    }

    #[test]
    fn members_are_decoded_by_name_and_absent_params_are_empty() {
        let params = ParamsObject::of("m", Some(r#"{"b":"two","a":1,"extra":[true]}"#)).unwrap();
        assert_eq!(params.required::<u32>("a").unwrap(), 1);
        assert_eq!(params.required::<String>("b").unwrap(), "two");
        assert_eq!(params.optional::<String>("c").unwrap(), None);
        let absent = ParamsObject::of("m", None).unwrap();
        assert_eq!(absent.optional::<u32>("a").unwrap(), None);
    }

    #[test]
    fn null_reads_as_absent_only_where_the_member_is_optional() {
        let params = ParamsObject::of("m", Some(r#"{ "a" : null , "b": {"c" :  null} }"#)).unwrap();
        assert_eq!(params.optional::<String>("a").unwrap(), None);
        let inner = params.object("b").unwrap().unwrap();
        assert_eq!(inner.optional::<u32>("c").unwrap(), None);
        assert!(params.object("a").unwrap().is_none());
        assert_eq!(
            message(params.required::<String>("a")),
            "invalid params for `m`: `a`: invalid type: null, expected a string"
        );
    }

    #[test]
    fn errors_name_the_method_and_the_member_without_a_misleading_position() {
        let params = ParamsObject::of("m", Some(r#"{"ref":{"type":5},"a":1,"a":2}"#)).unwrap();
        assert_eq!(
            message(params.required::<String>("b")),
            "invalid params for `m`: missing field `b`"
        );
        assert_eq!(
            message(params.required::<u32>("a")),
            "invalid params for `m`: duplicate field `a`"
        );
        let reference = params.object("ref").unwrap().unwrap();
        assert_eq!(
            message(reference.required::<String>("type")),
            "invalid params for `m`: `ref.type`: invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            message(reference.required::<String>("name")),
            "invalid params for `m`: missing field `ref.name`"
        );
        assert_eq!(
            message(ParamsObject::of("m", Some("[1]"))),
            "invalid params for `m`: `params` must be an object"
        );
        assert_eq!(
            message(params.object("a").map(|_| ())),
            "invalid params for `m`: duplicate field `a`"
        );
        let not_object = ParamsObject::of("m", Some(r#"{"ref":"x"}"#)).unwrap();
        assert_eq!(
            message(not_object.object("ref")),
            "invalid params for `m`: `ref` must be an object"
        );
    }

    #[test]
    fn names_written_with_escapes_are_matched_by_their_value() {
        let params = ParamsObject::of("m", Some(r#"{"n\u0061me":"x"}"#)).unwrap();
        assert_eq!(params.required::<String>("name").unwrap(), "x");
    }
}
