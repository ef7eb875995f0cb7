//! What `solve`, `decode` and `merge` print on stdout for an answer in text, cols or SVG
//! ([`write_answer`]); JSON is the [`super::SolveRecord`]. The program opens stdout, prints the
//! summary on stderr and exits with the answer's code.

use std::io::Write;

use crate::answer::Status;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::interrupt::{Cancel, CancelWrite};
use crate::piece::Piece;
use crate::solve::SolveReport;

/// How [`write_answer`] writes an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerFormat {
    /// The board's rows (`Q` piece, `.` free, `x` blocked), streamed row by row.
    Text,
    /// One line per row holding its piece's column (0-based), the compact form of a big board.
    Cols,
    /// The board as an SVG picture (boards up to [`crate::svg::MAX_N`]).
    Svg,
}

impl AnswerFormat {
    /// Refuses SVG for a board of side `n` too big to draw, naming the other formats: checked
    /// before anything is solved. Public (feature `front`, as this module) for the program's
    /// `solve --format svg`.
    pub fn check(self, n: u32) -> Result<()> {
        if self == AnswerFormat::Svg && n > crate::svg::MAX_N {
            return Err(Error::Usage(format!(
                "--format svg draws boards up to n = {}, not n = {n}; use --format cols (one \
                 column per row) or text",
                crate::svg::MAX_N
            )));
        }
        Ok(())
    }
}

/// Writes the verified answer of `r` for `instance` and `piece` to `out` in `format`: a board
/// as its rows, its columns or a picture; an answer without a board as its verdict (`UNSAT`,
/// `UNKNOWN`), or in SVG the empty instance captioned with it. A big board's text (4.3 GB at
/// n = 65,536) is written through `cancel`: raising it stops the writing at the next buffer
/// (1 MiB), with an error [`crate::interrupt::is_cancelled_io`] recognises. Public (feature
/// `front`) for the program's `solve`, `decode` and `merge`.
pub fn write_answer(
    out: &mut impl Write,
    r: &SolveReport,
    instance: &Instance,
    piece: Piece,
    format: AnswerFormat,
    cancel: &Cancel,
) -> std::io::Result<()> {
    match (&r.status, format) {
        (Status::Sat(b), AnswerFormat::Cols) => {
            // One line per row: its piece's column (a board has one piece a row).
            let mut w =
                std::io::BufWriter::with_capacity(1 << 16, CancelWrite::new(out, cancel.clone()));
            b.pieces.iter().try_for_each(|p| writeln!(w, "{}", p.col))?;
            w.flush()
        }
        (Status::Sat(b), AnswerFormat::Svg) => {
            // The board passed the verifier already; solution_svg checks it again.
            let svg = crate::svg::solution_svg(b, instance, piece)
                .unwrap_or_else(|why| panic!("a verified board failed: {why}"));
            out.write_all(svg.as_bytes())
        }
        (_, AnswerFormat::Svg) => {
            let caption = format!("{}-{}s: {}", instance.n, piece.name, r.status.label());
            let svg = crate::svg::render(instance, piece, &[], None, &caption);
            out.write_all(svg.as_bytes())
        }
        (Status::Sat(b), AnswerFormat::Text) => {
            let obstacles = instance.obstacles();
            // Row by row: the text of a large board is never held whole.
            let mut w =
                std::io::BufWriter::with_capacity(1 << 20, CancelWrite::new(out, cancel.clone()));
            b.write_text(&mut w, |r, line| obstacles.mark_row(r, line))?;
            w.flush()
        }
        _ => writeln!(out, "{}", r.status.label()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{QUEEN, Solver};

    /// The 4-queens board in each format: its rows, its columns, a picture; an UNSAT answer
    /// as its verdict; SVG refused past the largest drawable board.
    #[test]
    fn writes_each_format() {
        let four = Instance::plain(4);
        let r = Solver::new(&four, QUEEN).solve().unwrap();
        let board = r.status.sat().unwrap().clone();
        let write = |r: &SolveReport, instance: &Instance, format| {
            let mut out = Vec::new();
            write_answer(&mut out, r, instance, QUEEN, format, &Cancel::new()).unwrap();
            String::from_utf8(out).unwrap()
        };
        let cols = write(&r, &four, AnswerFormat::Cols);
        let want: String = board
            .pieces
            .iter()
            .map(|p| format!("{}\n", p.col))
            .collect();
        assert_eq!(cols, want);
        let text = write(&r, &four, AnswerFormat::Text);
        assert_eq!(text.lines().count(), 4);
        assert_eq!(text.matches('Q').count(), 4);
        assert!(write(&r, &four, AnswerFormat::Svg).contains("<svg"));
        let three = Instance::plain(3);
        let unsat = Solver::new(&three, QUEEN).solve().unwrap();
        assert_eq!(write(&unsat, &three, AnswerFormat::Text), "UNSAT\n");
        assert!(write(&unsat, &three, AnswerFormat::Svg).contains("3-queens: UNSAT"));
        assert!(AnswerFormat::Svg.check(crate::svg::MAX_N).is_ok());
        assert!(AnswerFormat::Svg.check(crate::svg::MAX_N + 1).is_err());
        assert!(AnswerFormat::Cols.check(crate::svg::MAX_N + 1).is_ok());
    }

    /// A raised token stops a board's text with the error that says so.
    #[test]
    fn cancel_stops_the_text() {
        let board = Instance::plain(8);
        let r = Solver::new(&board, QUEEN).solve().unwrap();
        let cancel = Cancel::new();
        cancel.cancel();
        let mut out = Vec::new();
        let e = write_answer(&mut out, &r, &board, QUEEN, AnswerFormat::Text, &cancel).unwrap_err();
        assert!(crate::interrupt::is_cancelled_io(&e), "{e}");
    }
}
