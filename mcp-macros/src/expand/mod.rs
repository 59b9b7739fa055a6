//! Code generation, one file per macro. Each takes and returns `proc_macro2::TokenStream`,
//! so expansions can be unit-tested.

mod tool;

pub(crate) use tool::tool;
