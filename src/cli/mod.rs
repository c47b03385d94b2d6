//! The commands of `senat` that live outside `main.rs`, by family.

pub(crate) mod annex;
pub(crate) mod batch;
pub(crate) mod search;
pub(crate) mod view;
