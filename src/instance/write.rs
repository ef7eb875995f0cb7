//! Writers for the three instance formats; what they write, the readers read back.
//!
//! - `to_board`: board text (`Q`, `x`, `.`), `#` comment lines first;
//! - `to_param`: csplib / Essence' parameter file, `init` **0-based**, `blocks` **1-based**,
//!   `$` comment lines first;
//! - `to_diags`: csplib prob079 excluded-diagonals file, `#` comment lines first.
//!
//! Board text and parameter files cannot name a whole diagonal: excluded diagonals are written
//! as the blocked cells they cover. An excluded-diagonals file holds excluded diagonals only:
//! `to_diags` refuses pre-placed pieces and blocked cells with [`BadInstance::Unwritable`].
//! Long lists wrap after `PER_LINE` pairs.
//!
//! Reading back what a writer wrote gives an equal instance, in its canonical form
//! ([`Instance::canonical`]: lists sorted, repeats merged): `read(write(i)) == i` for the diags
//! format, `read(write(i)) == i.excluded_as_blocked()` for board and param files. Repeats are
//! written once. Board text and the `blocks` of a parameter file are row-major; the `init` of a
//! parameter file and the `diags` of a diagonals file keep the order of the instance's list,
//! which is sorted for a canonical instance (every reader's and [`Instance::new`]'s) and the
//! generator's order for a generated one: a diagonals file's prefixes are instances (prob079,
//! `--diags D`), and the generators' published bytes stay as they were.

use std::fmt::Write as _;

use super::{BadInstance, Instance, InstanceFormat};
use crate::board::{Board, Cell};
use crate::error::{Error, Result};
use crate::piece::LineKind;

/// Pairs per line in the lists of parameter and excluded-diagonals files.
pub(crate) const PER_LINE: usize = 12;

/// Writes `inst` in `format`, with `comment` as the first lines (each prefixed by the format's
/// comment marker). An instance that breaks the invariants ([`Instance::check`]) is an
/// [`Error::Instance`], as is one the format cannot hold.
pub fn write(inst: &Instance, format: InstanceFormat, comment: &str) -> Result<String> {
    inst.check()?;
    match format {
        InstanceFormat::Board => Ok(to_board(inst, comment)),
        InstanceFormat::Param => Ok(to_param(inst, comment)),
        InstanceFormat::Diags => to_diags(inst, comment),
    }
}

/// [`write()`] for an instance of `piece`: the comment gets the `super::PIECE_HEADER` line
/// for every piece but the queen (the piece of a file without one), so that
/// [`super::read_instance_piece`] reads back the same piece.
///
/// ```
/// use queens_sat::instance::{InstanceFormat, Instance, read_instance_piece, write::write_piece};
/// use queens_sat::piece::{AMAZON, QUEEN};
/// let text = write_piece(&Instance::plain(3), InstanceFormat::Board, "demo", AMAZON).unwrap();
/// assert_eq!(text, "# demo\n# piece: amazon\n...\n...\n...\n");
/// assert_eq!(read_instance_piece("t", &text, None, None).unwrap().1.name, "amazon");
/// assert!(!write_piece(&Instance::plain(3), InstanceFormat::Board, "demo", QUEEN).unwrap().contains("piece"));
/// ```
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn write_piece(
    inst: &Instance,
    format: InstanceFormat,
    comment: &str,
    piece: crate::piece::Piece,
) -> Result<String> {
    if piece.name == crate::piece::QUEEN.name {
        return write(inst, format, comment);
    }
    let comment = if comment.is_empty() {
        format!("{} {}", super::PIECE_HEADER, piece.name)
    } else {
        format!("{comment}\n{} {}", super::PIECE_HEADER, piece.name)
    };
    write(inst, format, &comment)
}

/// The unavailable cells of `inst` (blocked cells and cells of excluded diagonals), sorted
/// row-major, without repeats.
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn unavailable_cells(inst: &Instance) -> Vec<Cell> {
    let n = inst.n;
    let mut cells = inst.blocked.clone();
    for e in &inst.excluded {
        let key = i64::from(e.key);
        for r in 0..i64::from(n) {
            let c = match e.kind {
                LineKind::AntiDiagonal => key - r,
                _ => r - key + i64::from(n) - 1,
            };
            if (0..i64::from(n)).contains(&c) {
                cells.push(Cell::new(r as u32, c as u32));
            }
        }
    }
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// The items of `list` in order, each at its first occurrence only.
fn first_occurrences<T: Copy + Eq + std::hash::Hash>(list: &[T]) -> Vec<T> {
    let mut seen = std::collections::HashSet::with_capacity(list.len());
    list.iter().copied().filter(|x| seen.insert(*x)).collect()
}

fn comment_lines(out: &mut String, marker: char, comment: &str) {
    for line in comment.lines() {
        let clean: String = line.chars().filter(|c| !c.is_control()).collect();
        let _ = writeln!(out, "{marker} {clean}");
    }
}

fn pairs(out: &mut String, items: impl ExactSizeIterator<Item = (i64, i64)>) {
    out.push('[');
    let len = items.len();
    for (i, (a, b)) in items.enumerate() {
        let _ = write!(out, "[{a},{b}]");
        if i + 1 < len {
            out.push(',');
            if (i + 1) % PER_LINE == 0 {
                out.push_str("\n  ");
            }
        }
    }
    out.push(']');
}

/// Board text: one row per line, `Q` pre-placed, `x` unavailable, `.` free.
pub(crate) fn to_board(inst: &Instance, comment: &str) -> String {
    let mut out = String::new();
    comment_lines(&mut out, '#', comment);
    let unavailable: std::collections::HashSet<Cell> =
        unavailable_cells(inst).into_iter().collect();
    let mut placed = inst.placed.clone();
    placed.sort_unstable();
    placed.dedup();
    let board = Board::new(inst.n, placed);
    out.push_str(&board.to_text(|c| unavailable.contains(&c)));
    out
}

/// csplib parameter file: `letting n`, `letting init` (0-based `[row,col]`, in instance order
/// without repeats; written when there are pre-placed queens or nothing else) and `letting blocks`
/// (1-based, the unavailable cells row-major; written when there are any).
pub(crate) fn to_param(inst: &Instance, comment: &str) -> String {
    let mut out = String::new();
    comment_lines(&mut out, '$', comment);
    let _ = writeln!(out, "letting n = {}", inst.n);
    let unavailable = unavailable_cells(inst);
    let placed = first_occurrences(&inst.placed);
    if !placed.is_empty() || unavailable.is_empty() {
        out.push_str("letting init = ");
        pairs(
            &mut out,
            placed.iter().map(|c| (i64::from(c.row), i64::from(c.col))),
        );
        out.push('\n');
    }
    if !unavailable.is_empty() {
        out.push_str("letting blocks = ");
        pairs(
            &mut out,
            unavailable
                .iter()
                .map(|c| (i64::from(c.row) + 1, i64::from(c.col) + 1)),
        );
        out.push('\n');
    }
    out
}

/// csplib prob079 excluded-diagonals file: `n = N`, `numdiags = D`, `diags = [[k,t],...]` in
/// instance order without repeats (`t = 1` sum diagonal `r + c = k`, `t = 0` difference
/// diagonal `r - c = k - (n-1)`). Only instances with nothing but excluded diagonals can be
/// written; others are [`BadInstance::Unwritable`].
pub(crate) fn to_diags(inst: &Instance, comment: &str) -> Result<String> {
    if !inst.placed.is_empty() || !inst.blocked.is_empty() {
        let canonical = inst.canonical();
        return Err(Error::Instance(BadInstance::Unwritable {
            format: InstanceFormat::Diags.name(),
            placed: canonical.placed.len(),
            blocked: canonical.blocked.len(),
        }));
    }
    let excluded = first_occurrences(&inst.excluded);
    let mut out = String::new();
    comment_lines(&mut out, '#', comment);
    let _ = writeln!(out, "n = {}", inst.n);
    let _ = writeln!(out, "numdiags = {}", excluded.len());
    out.push_str("diags = ");
    pairs(
        &mut out,
        excluded.iter().map(|e| {
            let (k, t) = e.csplib();
            (i64::from(k), i64::from(t))
        }),
    );
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{ExcludedDiagonal, read_instance};

    fn sample() -> Instance {
        Instance {
            n: 6,
            placed: vec![Cell::new(5, 0), Cell::new(0, 2)],
            blocked: vec![Cell::new(3, 3), Cell::new(1, 1)],
            excluded: vec![],
        }
    }

    #[test]
    fn board_and_param_round_trip() {
        let inst = sample();
        for format in [InstanceFormat::Board, InstanceFormat::Param] {
            let text = write(&inst, format, "line one\nline two").unwrap();
            let back = read_instance("t", &text, None).unwrap();
            assert_eq!(back.n, 6);
            let mut placed = back.placed.clone();
            placed.sort_unstable();
            assert_eq!(placed, vec![Cell::new(0, 2), Cell::new(5, 0)]);
            assert_eq!(back.blocked, vec![Cell::new(1, 1), Cell::new(3, 3)]);
        }
        // The parameter file keeps the order of the pre-placed queens; the reader sorts them.
        let text = to_param(&inst, "");
        assert!(text.contains("letting init = [[5,0],[0,2]]"), "{text}");
        let back = read_instance("t", &text, None).unwrap();
        assert_eq!(back, inst);
        assert_eq!(back.placed, vec![Cell::new(0, 2), Cell::new(5, 0)]);
    }

    #[test]
    fn long_lists_wrap_and_still_read() {
        let inst = Instance {
            n: 40,
            placed: (0..40).map(|i| Cell::new(i, (i * 7) % 40)).collect(),
            ..Instance::default()
        };
        let text = to_param(&inst, "");
        assert!(text.lines().count() > 3);
        assert_eq!(read_instance("t", &text, None).unwrap(), inst);
    }

    #[test]
    fn excluded_diagonals_become_blocked_cells() {
        let inst = Instance {
            n: 3,
            excluded: vec![ExcludedDiagonal {
                kind: LineKind::AntiDiagonal,
                key: 2,
            }],
            ..Instance::default()
        };
        assert_eq!(to_board(&inst, ""), "..x\n.x.\nx..\n");
        let back = read_instance("t", &to_param(&inst, ""), None).unwrap();
        assert_eq!(
            back.blocked,
            vec![Cell::new(0, 2), Cell::new(1, 1), Cell::new(2, 0)]
        );
        let text = to_diags(&inst, "c").unwrap();
        assert_eq!(read_instance("t", &text, None).unwrap(), inst);
        assert!(to_diags(&sample(), "").is_err());
    }

    #[test]
    fn comments_stay_comments() {
        let text = to_param(&Instance::plain(2), "a\u{7}b\n\nc");
        assert!(
            text.starts_with("$ ab\n$ \n$ c\nletting n = 2\n"),
            "{text:?}"
        );
        assert_eq!(read_instance("t", &text, None).unwrap(), Instance::plain(2));
    }
}

#[cfg(test)]
mod examples {
    // The examples of the crate-private functions above (a doctest sees only public items).
    #[test]
    fn to_board_example() {
        use crate::{
            board::Cell,
            instance::{Instance, write::to_board},
        };
        let inst = Instance {
            n: 3,
            placed: vec![Cell::new(0, 1)],
            blocked: vec![Cell::new(2, 2)],
            ..Instance::default()
        };
        assert_eq!(to_board(&inst, "demo"), "# demo\n.Q.\n...\n..x\n");
    }

    #[test]
    fn to_param_example() {
        use crate::{
            board::Cell,
            instance::{Instance, write::to_param},
        };
        let inst = Instance {
            n: 4,
            placed: vec![Cell::new(0, 1)],
            blocked: vec![Cell::new(3, 3)],
            ..Instance::default()
        };
        assert_eq!(
            to_param(&inst, ""),
            "letting n = 4\nletting init = [[0,1]]\nletting blocks = [[4,4]]\n"
        );
    }

    #[test]
    fn to_diags_example() {
        use crate::instance::{parse_diags, write::to_diags};
        let text = "n = 5\nnumdiags = 2\ndiags = [[0,1],[4,0]]\n";
        assert_eq!(
            to_diags(&parse_diags("d", text, None).unwrap(), "").unwrap(),
            text
        );
    }
}
