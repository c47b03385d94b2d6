//! The rules of Débâcle (to be written).
