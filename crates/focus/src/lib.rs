//! The rules of Focus (to be written).
