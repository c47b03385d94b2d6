//! Every [`LabGame`] at the terminal (Focus, Focus with 4 players,
//! Débâcle): its agents are the lab's generic ones ([`AgentSpec`], the
//! specs of `selfplay --game`), its board [`LabGame::table_board`], its
//! result [`crate::games::result_line`]. Perfect information: a seat sees
//! the whole state.

use super::{Next, Table};
use crate::agent::Agent;
use crate::games::agent::AgentSpec;
use crate::games::{LabGame, TextError, legal_moves, result_line};

/// A lab game that takes the lab's terminal table as it is (the lab's
/// generic agents, its board and result texts): one line,
/// `impl LabTable for MyGame {}`, which `lab_face!` writes.
/// A lab game that wants its own table implements [`Table`] instead.
pub trait LabTable: LabGame {}

impl<G: LabTable> Table for G {
    type State = G::State;
    type Spec = AgentSpec;

    fn spec(text: &str) -> Result<AgentSpec, String> {
        let spec = AgentSpec::parse(text).map_err(|e| e.to_string())?;
        spec.fits::<G>().map_err(|e| format!("agent `{spec}`: {e}"))?;
        Ok(spec)
    }
    fn build(spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, game_search::TableError> {
        spec.try_build::<G>()
    }
    fn next(s: &G::State) -> Next {
        if G::result(s).is_some() { Next::Over } else { Next::Decide(G::to_move(s)) }
    }
    fn view(s: &G::State, _seat: usize) -> G::State {
        *s
    }
    fn seats(s: &G::State) -> usize {
        G::players(s)
    }
    fn seat_name(s: &G::State, seat: usize) -> String {
        G::seats(G::players(s))[seat].to_string()
    }
    fn legal(s: &G::State) -> Vec<G::Move> {
        legal_moves::<G>(s)
    }
    fn parse(s: &G::State, text: &str) -> Result<G::Move, String> {
        G::parse_move(s, text).map_err(|e| match e {
            TextError::Move { message, .. } => message,
            e => e.to_string(),
        })
    }
    fn text(m: G::Move) -> String {
        G::move_text(m)
    }
    fn apply(s: &G::State, m: G::Move) -> G::State {
        G::apply(s, m)
    }
    fn board(s: &G::State, _viewer: usize, colour: bool) -> String {
        G::table_board(s, colour)
    }
    fn legend() -> &'static str {
        G::table_legend()
    }
    fn move_forms() -> &'static str {
        G::move_forms()
    }
    fn result(s: &G::State) -> String {
        result_line::<G>(s)
    }
    fn record(start: &G::State, moves: &[G::Move]) -> String {
        let mut s = G::position_text(start);
        s.push('\n');
        for &m in moves {
            s.push_str(&G::move_text(m));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{debacle::Debacle, focus::Focus};
    use crate::play::seat_of;

    #[test]
    fn seats_by_name_initial_or_number() {
        let s = <Focus as LabGame>::start("players=4").unwrap();
        assert_eq!(seat_of::<Focus>(&s, "north").unwrap(), 2);
        assert_eq!(seat_of::<Focus>(&s, "E").unwrap(), 3);
        assert_eq!(seat_of::<Focus>(&s, "1").unwrap(), 1);
        let e = seat_of::<Focus>(&s, "up\x07").unwrap_err().to_string();
        assert_eq!(e, "--as up\\u{7}: not a seat of this game (south, west, north, east, or 0 to 3)");
        let d = <Debacle as LabGame>::start("").unwrap();
        assert_eq!(seat_of::<Debacle>(&d, "n").unwrap(), 1);
        assert!(seat_of::<Debacle>(&d, "2").is_err());
    }

    #[test]
    fn a_pass_is_told_as_a_pass_and_illegal_moves_in_one_line() {
        let s = <Focus as LabGame>::start("").unwrap();
        let e = <Focus as Table>::parse(&s, "a1-a2").unwrap_err();
        assert!(!e.contains('\n') && !e.is_empty(), "{e}");
        let m = legal_moves::<Focus>(&s)[0];
        assert_eq!(<Focus as Table>::tell(&s, m, 1).unwrap(), format!("plays {}", <Focus as LabGame>::move_text(m)));
        let pass = focus_rules::Move::Pass;
        assert_eq!(<Focus as Table>::tell(&s, pass, 1).unwrap(), "passes");
    }

    #[test]
    fn focus_stacks_read_bottom_first_as_show_does() {
        let s = <Focus as LabGame>::start("").unwrap();
        // A single piece of player 0 onto one of player 1: a stack of two, 0 on top.
        let m = legal_moves::<Focus>(&s)
            .into_iter()
            .find(|&m| matches!(m, focus_rules::Move::Step { to, .. } if s.piece(to, 0) == Some(1)))
            .expect("a step onto an enemy piece");
        let after = <Focus as game_search::Game>::apply(&s, m);
        let table = <Focus as Table>::board(&after, 0, false);
        assert!(table.contains(" 10' "), "bottom first, the top marked: {table}");
        assert!(!table.contains(" 01"), "{table}");
        // One order: the table is `senat show`'s board (the rules' text board).
        assert!(table.starts_with(&after.board_text(false)), "{table}");
        assert!(<Focus as Table>::legend().contains("bottom to top"));
        assert!(table.contains("player 1: reserve 0"), "the rules' reserve lines follow: {table}");
        assert!(table.lines().all(|l| l.chars().count() <= 80), "{table}");
    }
}
