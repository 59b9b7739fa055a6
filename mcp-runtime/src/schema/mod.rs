//! JSON Schemas for tool arguments and results, generated once per tool with schemars: the
//! generators' settings, and the shapes MCP clients accept.
//!
//! The shapes are chosen for what MCP clients accept, not for what is shortest:
//!
//! * **Self-contained.** An `inputSchema` holds no `$ref` at any depth: subschemas are inlined,
//!   and a recursive type is written out three levels deep (fewer if that would inline too
//!   many copies), then described by its JSON type alone (`normalize::RECURSION_DEPTH`). An `outputSchema` keeps `$defs` for recursive types.
//! * **No `null` in argument schemas, at any depth.** An `Option<T>` (argument, field, item,
//!   map value) is described by `T`'s schema and an optional argument or field is left out of
//!   `required`; `["string", "null"]` type unions and `anyOf: [T, null]` are rejected by some
//!   clients (Gemini) and mislead others into sending `null`.
//! * **Portable across drafts.** Tuples are arrays of a fixed length (no `prefixItems`), and
//!   only the `format`s JSON Schema defines are kept (in both schemas): a strict ajv refuses
//!   to compile schemars' `int64` or `double`.
//! * **Root `"type": "object"`** for `inputSchema` (always) and, for the 2025 revisions,
//!   `outputSchema`: there a tool whose result is not an object (a number, a list) gets its
//!   value wrapped as `{"result": value}`, and its `outputSchema` says so; revision 2026-07-28
//!   gets the value and its schema as they are (see [`OutputSchema`](crate::OutputSchema)).
//! * **Output schemas are faithful**: they describe what the value serializes to, `null`
//!   included, because clients validate `structuredContent` against them.

mod normalize;
mod output;

pub(crate) use normalize::{clean_input, strip_null};
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
