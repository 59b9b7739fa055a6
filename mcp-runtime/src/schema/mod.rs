//! JSON Schemas for tool arguments and results, generated once per tool with schemars: the
//! generators' settings, and the shapes MCP clients accept.
//!
//! The shapes are chosen for what MCP clients accept, not for what is shortest:
//!
//! * **Self-contained and inlined.** Subschemas are inlined rather than referenced; a `$defs`
//!   section appears only for recursive types, which cannot be inlined. Several clients resolve
//!   no `$ref` at all, or only one level deep.
//! * **No `null` in argument schemas.** An `Option<T>` parameter is described by `T`'s schema
//!   and left out of `required`; `["string", "null"]` type unions and `anyOf: [T, null]` are
//!   rejected by some clients (Gemini) and mislead others into sending `null`.
//! * **Root `"type": "object"`** for `inputSchema` (always) and `outputSchema`; a tool whose
//!   result is not an object (a number, a list) gets its value wrapped as `{"result": value}`,
//!   and its `outputSchema` says so.
//! * **Output schemas are faithful**: they describe what the value serializes to, `null`
//!   included, because clients validate `structuredContent` against them.

mod normalize;
mod output;

pub(crate) use normalize::strip_null;
pub(crate) use output::OutputShape;
pub(crate) use output::output_schema_for;

use schemars::generate::{SchemaGenerator, SchemaSettings};

/// The generator for argument schemas: inlined, deserialize contract, no `$schema` key.
pub(crate) fn input_generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .for_deserialize()
        .into_generator()
}

/// The generator for result schemas: inlined, serialize contract, no `$schema` key.
pub(crate) fn output_generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .for_serialize()
        .into_generator()
}
