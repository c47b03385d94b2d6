//! A named agent ([`Named`]: `top`, `strong`, `fast`…) and the look-ups of
//! a family's table of them. The tables themselves, one per game family,
//! are the games' lab's (`senat_lab::named`); each spec parser looks a name
//! up there first and reads its expansion as if it had been written
//! ([`crate::spec`]).
//!
//! This module never names a game and holds no table.

/// One named agent: its name, the spec it stands for, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Named {
    /// The name (`top`).
    pub name: &'static str,
    /// The spec text it stands for, read by the family's parser.
    pub spec: &'static str,
    /// One line on what it is.
    pub about: &'static str,
}

/// The entry of `table` called `name`.
pub fn lookup(table: &'static [Named], name: &str) -> Option<&'static Named> {
    table.iter().find(|n| n.name == name)
}

/// The names of `table`.
pub fn names(table: &[Named]) -> Vec<&'static str> {
    table.iter().map(|n| n.name).collect()
}

/// The table as help text, one entry per line: `  top = mcts:… (what it is)`.
pub fn help(table: &[Named]) -> String {
    let w = table.iter().map(|n| n.name.len()).max().unwrap_or(0);
    table.iter().map(|n| format!("  {:<w$} = {} ({})\n", n.name, n.spec, n.about)).collect()
}
