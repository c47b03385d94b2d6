//! The rules of block dominoes (to be written).
