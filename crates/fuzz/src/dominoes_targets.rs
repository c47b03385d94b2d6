//! Fuzz targets for the texts of dominoes-rules (states, observations and moves).
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch any file.

use crate::engine::Target;

/// The dominoes targets.
pub const TARGETS: &[Target] = &[];
