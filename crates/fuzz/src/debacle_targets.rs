//! Fuzz targets for the texts of debacle-rules (positions and moves).
//!
//! What a target must never do: accept a failure of the code under test
//! silently, or touch any file.

use crate::engine::Target;

/// The debacle targets.
pub const TARGETS: &[Target] = &[];
