//! Arguments that arrive as strings: prompt arguments and URI template variables.
//!
//! The wire carries text, but handlers take typed parameters (`u32`, `bool`, enums,
//! `String`). Each value is decoded from the string as the parameter's type wants it: as a
//! string first, then as a JSON number or boolean. A parameter whose schema says it can never
//! come from a string (an object, an array) is refused when the server is built.

mod specs;

pub use specs::{ArgumentSpec, ArgumentSpecs, StringArgs};
