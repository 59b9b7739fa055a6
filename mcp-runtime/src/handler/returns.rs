//! How a handler's return value becomes what its kind answers with: one engine for every kind.
//!
//! The rules, from most to least specific, for a kind `K` (a tool, a resource):
//!
//! 1. a type implementing [`Direct<K>`] says itself what it becomes (for a tool: text,
//!    content, a `CallToolResult`; for a resource: text, bytes, contents);
//! 2. any other type implementing [`Serialized<K>`] is serialized (a tool's structured output
//!    with its `outputSchema`, a resource's JSON text);
//! 3. `Result<T, E>` applies 1 or 2 to `Ok`, and turns `Err` into the kind's failure through
//!    [`Failure<K>`] (implemented for every error that is `Display`).
//!
//! For a kind where `None` means something (one implementing [`Absent`]: a resource, where it
//! is "not found"), `Option<T>` of a rule-2 type, alone or as a `Result`'s `Ok`, is rule 2 for
//! `Some` and the kind's absence for `None`, rather than a serialized `null`. (An `Option` of a
//! rule-1 type is rule 1 through the kind's own `Direct` impl.)
//!
//! Rust has no specialization, so generated code picks the rule with autoref-based dispatch:
//! `(&&&&&&&&&&Probe::<K, R>::new()).__mcp_return_kind()` resolves to the most specific level
//! whose bounds hold, and the kind found converts the value through [`Convert<K, R>`]. The
//! lower levels exist for the diagnostics: a `Result` whose `Ok` fits but whose error does not
//! selects the rule-3 kind anyway, whose impl then asks for `E: Failure<K>` (the message says
//! the error is not `Display`); a type that has part of what rule 2 needs
//! ([`SerializedInPart`]: for a tool, `Serialize` without `JsonSchema`), alone or as a
//! `Result`'s `Ok`, selects rule 2 anyway, whose impl then asks for the rest, so that the
//! compiler names the type and the trait missing (`Gift: JsonSchema`, where `Gift` may sit
//! inside a `Vec`; `Gift: Serialize` for the other part, [`DescribedInPart`]); a type that fits no rule selects [`Unsupported`](kinds::Unsupported),
//! which each kind implements asking for its own conversion trait, reported with the kind's
//! "cannot be returned" message.

use std::marker::PhantomData;

/// A kind of handler's return rules: what a return value becomes, and what converting needs.
pub trait Returns: 'static {
    /// What a returned value becomes.
    type Output;
    /// What a conversion needs besides the value (a tool's schema cache, a resource's URI).
    type Needs<'a>: Copy;
    /// The schema the kind declares for what serialized values become (a tool's
    /// `outputSchema`); `Infallible` for a kind that declares none.
    type Schema;
}

/// Rule 1: a value that says itself what it becomes.
pub trait Direct<K: Returns>: Sized {
    /// Converts the value.
    fn convert(self, needs: K::Needs<'_>) -> K::Output;
}

/// Rule 2: a value that is serialized.
pub trait Serialized<K: Returns>: Sized {
    /// Converts the value.
    fn convert(self, needs: K::Needs<'_>) -> K::Output;

    /// The schema of what the value serializes to, where the kind declares one.
    fn schema(_needs: K::Needs<'_>) -> Option<K::Schema> {
        None
    }
}

/// What `None` becomes for a kind where an `Option` of a serialized type means "absent" (a
/// resource: "resource not found").
pub trait Absent: Returns {
    /// The output for `None`.
    fn absent(needs: Self::Needs<'_>) -> Self::Output;
}

/// Part of what rule 2 needs (a tool's structured output: `Serialize` without `JsonSchema`):
/// such a type is given rule 2 all the same, so that the compiler reports the part missing
/// instead of "cannot be returned". Implemented by the kinds whose rule 2 asks for more than one
/// trait.
pub trait SerializedInPart<K: Returns> {}

/// The other part of what rule 2 needs, where there are two (a tool's structured output:
/// `JsonSchema` without `Serialize`): given rule 2 all the same, as [`SerializedInPart`], so
/// that the compiler names the trait missing. No type has both parts without rule 2 itself.
pub trait DescribedInPart<K: Returns> {}

/// Rule 3: an error an `Err` of which becomes the kind's failure.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not `Display`, so an `Err` of it cannot be reported to the client",
    label = "the error type of this `Result` does not implement `std::fmt::Display`",
    note = "the client reads an error's `to_string()`: implement `std::fmt::Display` for `{Self}` (by hand, or with `#[derive(thiserror::Error)]`)",
    note = "or return a `Result` whose error already is `Display`, such as `Result<_, String>`, mapping the error inside the function (`.map_err(|e| format!(\"{{e:?}}\"))`)"
)]
pub trait Failure<K: Returns>: Sized {
    /// Converts the error.
    fn fail(self) -> K::Output;
}

/// How one return type becomes the kind's output: implemented by the kinds the probe finds.
pub trait Convert<K: Returns, R> {
    /// The schema of the output, for the serialized kinds of a kind that declares one.
    fn output_schema(&self, needs: K::Needs<'_>) -> Option<K::Schema>;
    /// Converts a returned value.
    fn convert(&self, value: R, needs: K::Needs<'_>) -> K::Output;
}

/// The probe generated code dispatches on; see the module docs.
pub struct Probe<K, R>(PhantomData<fn() -> (K, R)>);

impl<K, R> Probe<K, R> {
    /// A probe for return type `R` of a handler of kind `K`.
    pub const fn new() -> Probe<K, R> {
        Probe(PhantomData)
    }
}

impl<K, R> Default for Probe<K, R> {
    fn default() -> Self {
        Probe::new()
    }
}

/// The kinds, one per rule, and the levels of the probe that select them.
pub mod kinds {
    use super::{
        Absent, Convert, DescribedInPart, Direct, Failure, Probe, Returns, Serialized,
        SerializedInPart,
    };

    /// Rule 1.
    pub struct DirectKind;
    /// Rule 2.
    pub struct SerializedKind;
    /// Rule 3 with rule 1 for `Ok`.
    pub struct DirectOrError;
    /// Rule 3 with rule 2 for `Ok`.
    pub struct SerializedOrError;
    /// Rule 2 for `Some`, the kind's absence for `None`.
    pub struct SerializedOrAbsent;
    /// Rule 3 with [`SerializedOrAbsent`] for `Ok`.
    pub struct SerializedOrAbsentOrError;
    /// No rule applies. Each kind implements `Convert` for it asking for its own conversion
    /// trait (`IntoToolResult`, ...), whose message explains what the kind returns.
    pub struct Unsupported;

    macro_rules! level {
        ($(#[$doc:meta])* $via:ident, $kind:ident, [$($bounds:tt)*], $probe:ty) => {
            $(#[$doc])*
            pub trait $via {
                /// The kind.
                fn __mcp_return_kind(self) -> $kind
                where
                    Self: Sized,
                {
                    $kind
                }
            }
            impl<$($bounds)*> $via for $probe {}
        };
    }

    level!(
        /// Level 10 (most specific): `Result<T: Direct, E: Failure>`.
        ViaDirectResult, DirectOrError,
        [K: Returns, T: Direct<K>, E: Failure<K>], &&&&&&&&&&Probe<K, Result<T, E>>
    );
    level!(
        /// Level 9: `Result<Option<T: Serialized>, E: Failure>` for a kind with an absence.
        ViaSerializedOptionResult, SerializedOrAbsentOrError,
        [K: Absent, T: Serialized<K>, E: Failure<K>], &&&&&&&&&Probe<K, Result<Option<T>, E>>
    );
    level!(
        /// Level 8: `Result<T: Serialized, E: Failure>`.
        ViaSerializedResult, SerializedOrError,
        [K: Returns, T: Serialized<K>, E: Failure<K>], &&&&&&&&Probe<K, Result<T, E>>
    );
    level!(
        /// Level 7: `T: Direct`.
        ViaDirect, DirectKind, [K: Returns, T: Direct<K>], &&&&&&&Probe<K, T>
    );
    level!(
        /// Level 6: `Option<T: Serialized>` for a kind with an absence.
        ViaSerializedOption, SerializedOrAbsent,
        [K: Absent, T: Serialized<K>], &&&&&&Probe<K, Option<T>>
    );
    level!(
        /// Level 5: `T: Serialized`.
        ViaSerialized, SerializedKind, [K: Returns, T: Serialized<K>], &&&&&Probe<K, T>
    );
    level!(
        /// Level 4: `Result<T: Direct, E>` whose `E` is no `Failure`: selects rule 3, whose
        /// bound on `E` then explains what is wrong.
        ViaDirectResultOfAnyError, DirectOrError,
        [K: Returns, T: Direct<K>, E], &&&&Probe<K, Result<T, E>>
    );
    level!(
        /// Level 3: `Result<T: Serialized, E>`, as level 4.
        ViaSerializedResultOfAnyError, SerializedOrError,
        [K: Returns, T: Serialized<K>, E], &&&Probe<K, Result<T, E>>
    );
    level!(
        /// Level 2: `Result<T: SerializedInPart, E>`: selects rule 3 with rule 2, whose bound
        /// on `T` then names what `T` lacks.
        ViaSerializedInPartResult, SerializedOrError,
        [K: Returns, T: SerializedInPart<K>, E], &&Probe<K, Result<T, E>>
    );
    level!(
        /// Level 2 too: `Result<T: DescribedInPart, E>` (never both parts: that is level 3).
        ViaDescribedInPartResult, SerializedOrError,
        [K: Returns, T: DescribedInPart<K>, E], &&Probe<K, Result<T, E>>
    );
    level!(
        /// Level 1: `T: SerializedInPart`, as level 2.
        ViaSerializedInPart, SerializedKind, [K: Returns, T: SerializedInPart<K>], &Probe<K, T>
    );
    level!(
        /// Level 1 too: `T: DescribedInPart`.
        ViaDescribedInPart, SerializedKind, [K: Returns, T: DescribedInPart<K>], &Probe<K, T>
    );
    level!(
        /// Level 0: anything else.
        ViaUnsupported, Unsupported, [K: Returns, T], Probe<K, T>
    );

    impl<K: Returns, R: Direct<K>> Convert<K, R> for DirectKind {
        fn output_schema(&self, _needs: K::Needs<'_>) -> Option<K::Schema> {
            None
        }
        fn convert(&self, value: R, needs: K::Needs<'_>) -> K::Output {
            value.convert(needs)
        }
    }

    impl<K: Returns, R: Serialized<K>> Convert<K, R> for SerializedKind {
        fn output_schema(&self, needs: K::Needs<'_>) -> Option<K::Schema> {
            R::schema(needs)
        }
        fn convert(&self, value: R, needs: K::Needs<'_>) -> K::Output {
            value.convert(needs)
        }
    }

    impl<K: Returns, T: Direct<K>, E: Failure<K>> Convert<K, Result<T, E>> for DirectOrError {
        fn output_schema(&self, _needs: K::Needs<'_>) -> Option<K::Schema> {
            None
        }
        fn convert(&self, value: Result<T, E>, needs: K::Needs<'_>) -> K::Output {
            match value {
                Ok(ok) => ok.convert(needs),
                Err(error) => error.fail(),
            }
        }
    }

    impl<K: Absent, T: Serialized<K>> Convert<K, Option<T>> for SerializedOrAbsent {
        fn output_schema(&self, needs: K::Needs<'_>) -> Option<K::Schema> {
            T::schema(needs)
        }
        fn convert(&self, value: Option<T>, needs: K::Needs<'_>) -> K::Output {
            match value {
                Some(value) => value.convert(needs),
                None => K::absent(needs),
            }
        }
    }

    impl<K: Absent, T: Serialized<K>, E: Failure<K>> Convert<K, Result<Option<T>, E>>
        for SerializedOrAbsentOrError
    {
        fn output_schema(&self, needs: K::Needs<'_>) -> Option<K::Schema> {
            T::schema(needs)
        }
        fn convert(&self, value: Result<Option<T>, E>, needs: K::Needs<'_>) -> K::Output {
            match value {
                Ok(ok) => SerializedOrAbsent.convert(ok, needs),
                Err(error) => error.fail(),
            }
        }
    }

    impl<K: Returns, T: Serialized<K>, E: Failure<K>> Convert<K, Result<T, E>> for SerializedOrError {
        fn output_schema(&self, needs: K::Needs<'_>) -> Option<K::Schema> {
            T::schema(needs)
        }
        fn convert(&self, value: Result<T, E>, needs: K::Needs<'_>) -> K::Output {
            match value {
                Ok(ok) => ok.convert(needs),
                Err(error) => error.fail(),
            }
        }
    }
}
