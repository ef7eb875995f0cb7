//! The orbit engines against the published tables, the board search and each other.

use super::*;
use crate::count::backtrack;
use crate::count::reference::published_rotation;
use crate::piece::{AMAZON, QUEEN};
use crate::prng::Prng;
use crate::symmetry::generated;

fn problem(n: u32, turn: Turn, knight: bool, placed: Vec<Cell>) -> Problem {
    Problem {
        n,
        turn,
        knight,
        placed,
    }
}

fn rotation(turn: Turn) -> Symmetry {
    match turn {
        Turn::Quarter => Symmetry::R90,
        Turn::Half => Symmetry::R180,
    }
}

/// The board search's count of the same boards (the brute force of these tests).
fn board_search(p: &Problem) -> u128 {
    let instance = Instance {
        n: p.n,
        placed: p.placed.clone(),
        blocked: Vec::new(),
        excluded: Vec::new(),
    };
    let piece = if p.knight { AMAZON } else { QUEEN };
    let group = generated(&[rotation(p.turn)]);
    u128::from(backtrack::fixed_by(&instance, piece, &group, &Cancel::new()).unwrap())
}

/// Every published term of A033148 up to n = 44 and of A032522 up to n = 22, counted on one
/// thread and split over four.
#[test]
fn queens_match_the_published_tables() {
    for (turn, top) in [(Turn::Quarter, 44), (Turn::Half, 22)] {
        for n in 1..=top {
            let p = problem(n, turn, false, Vec::new());
            let (_, want) = published_rotation(n, rotation(turn)).unwrap();
            let one = pairs::count(&p, &Cancel::new()).unwrap();
            assert_eq!(one, u128::from(want), "n = {n} {turn:?}");
            if n % 4 < 2 || turn == Turn::Half {
                let four = count(&p, Formulation::Pairs, 4, &|_, _| {}, &Cancel::new()).unwrap();
                assert_eq!(four, one, "n = {n} {turn:?} on four threads");
            }
        }
    }
}

/// Amazons: R = 2 A352661 (n <= 21), and Burnside's P + 2R = 8 A051224 - A051223 wherever
/// both are published (n <= 20 here).
#[test]
fn amazons_match_knuths_classes_and_burnside() {
    let a352661 = [(12, 2), (13, 2), (16, 12), (17, 17), (20, 60), (21, 82)];
    for n in 1..=21u32 {
        let r = pairs::count(&problem(n, Turn::Quarter, true, vec![]), &Cancel::new()).unwrap();
        // n = 1: the one board, fixed by everything (A352661(1) = 1 counts its class).
        let want = a352661
            .iter()
            .find(|&&(m, _)| m == n)
            .map_or(u128::from(n == 1), |&(_, c)| 2 * c);
        assert_eq!(r, want, "R({n})");
        if n > 20 {
            continue;
        }
        let p = pairs::count(&problem(n, Turn::Half, true, vec![]), &Cancel::new()).unwrap();
        let row = crate::count::reference::published(&AMAZON, n).unwrap();
        let burnside = 8 * u128::from(row.unique.unwrap()) - u128::from(row.total);
        // n = 1: the reflections fix the one board too (8 - 1 = 7 = 1 + 2 + 4).
        let reflections = if n == 1 { 4 } else { 0 };
        assert_eq!(p + 2 * r + reflections, burnside, "P({n}) + 2 R({n})");
    }
}

/// Random pre-placed pieces (0 to 3, attacking or not), queens and amazons, both turns,
/// against the board search (n <= 13).
#[test]
fn placed_pieces_match_the_board_search() {
    let mut rng = Prng::new(62);
    let mut nonzero = 0;
    for case in 0..400 {
        let n = 4 + rng.below(10) as u32;
        let turn = if case % 2 == 0 {
            Turn::Quarter
        } else {
            Turn::Half
        };
        let knight = case % 3 == 0 && n >= 10;
        let k = rng.below(4);
        let placed: Vec<Cell> = (0..k)
            .map(|_| Cell::new(rng.below(n as usize) as u32, rng.below(n as usize) as u32))
            .collect();
        let p = problem(n, turn, knight, placed);
        let want = board_search(&p);
        assert_eq!(pairs::count(&p, &Cancel::new()).unwrap(), want, "{p:?}");
        nonzero += usize::from(want > 0);
    }
    assert!(nonzero > 40, "only {nonzero} cases with boards");
}

/// The parts of a split add up to the whole, at every depth, and each part's count (its
/// cells placed) is the board search's (n <= 13), with its weight.
#[test]
fn parts_add_up_to_the_whole() {
    for (n, turn, knight) in [
        (12, Turn::Quarter, false),
        (13, Turn::Quarter, false),
        (16, Turn::Quarter, true),
        (11, Turn::Half, false),
        (12, Turn::Half, true),
        (24, Turn::Quarter, false),
        (16, Turn::Half, false),
    ] {
        let p = problem(n, turn, knight, Vec::new());
        let whole = pairs::count(&p, &Cancel::new()).unwrap();
        for depth in 1..=4 {
            let parts = pairs::parts(&p, depth, &Cancel::new()).unwrap();
            let mut sum = 0u128;
            for part in &parts {
                let c = count_part(&p, part, Formulation::Pairs, &Cancel::new()).unwrap();
                if n <= 13 {
                    let q = p.with(&part.cells);
                    assert_eq!(c, u128::from(part.weight) * board_search(&q), "{q:?}");
                }
                sum += c;
            }
            assert_eq!(sum, whole, "n = {n} {turn:?} knight {knight} depth {depth}");
        }
    }
}

/// A raised token stops a long count (quarter turn n = 64, half turn n = 40) with
/// `Interrupted`, on one thread and on two.
#[test]
fn a_cancelled_count_stops() {
    for (n, turn) in [(64, Turn::Quarter), (40, Turn::Half)] {
        let cancel = Cancel::new();
        cancel.cancel();
        let p = problem(n, turn, false, Vec::new());
        assert!(matches!(pairs::count(&p, &cancel), Err(Error::Interrupted)));
        let two = count(&p, Formulation::Pairs, 2, &|_, _| {}, &cancel);
        assert!(matches!(two, Err(Error::Interrupted)), "{two:?}");
    }
}

/// Past the limits: refused with a usage error naming n.
#[test]
fn boards_past_the_limit_are_refused() {
    for (n, turn) in [(129, Turn::Quarter), (65, Turn::Half)] {
        let e = pairs::count(&problem(n, turn, false, vec![]), &Cancel::new()).unwrap_err();
        assert!(e.to_string().contains(&n.to_string()), "{e}");
    }
}

/// The two formulations agree part by part on the rows formulation's split (the common
/// refinement the long counts are checked on), queens and amazons, both turns, and on the
/// whole counts of four threads.
#[test]
fn the_formulations_agree_part_by_part() {
    for (n, turn, knight) in [
        (32, Turn::Quarter, false),
        (33, Turn::Quarter, false),
        (24, Turn::Quarter, true),
        (17, Turn::Half, false),
        (18, Turn::Half, false),
        (16, Turn::Half, true),
    ] {
        let p = problem(n, turn, knight, Vec::new());
        let parts = split_into(&p, 40, &Cancel::new()).unwrap();
        assert!(parts.len() >= 10, "n = {n} {turn:?}: {} parts", parts.len());
        let (mut a, mut b) = (0u128, 0u128);
        for part in &parts {
            let x = count_part(&p, part, Formulation::Pairs, &Cancel::new()).unwrap();
            let y = count_part(&p, part, Formulation::Values, &Cancel::new()).unwrap();
            assert_eq!(x, y, "n = {n} {turn:?} knight {knight}: {part:?}");
            (a, b) = (a + x, b + y);
        }
        let four = count(&p, Formulation::Values, 4, &|_, _| {}, &Cancel::new()).unwrap();
        assert_eq!((a, b), (four, four), "n = {n} {turn:?} knight {knight}");
    }
}
