//! What `count --boards` and `count --format svg` print: boards listed as the search finds
//! them ([`write_boards`]), and one drawn representative per symmetry class
//! ([`draw_classes`]). The program only opens stdout and prints the summary these return.

use std::io::Write;
use std::time::Duration;

use crate::board::Board;
use crate::count::Solutions;
use crate::encode::EncodeOptions;
use crate::error::{BadOption, Error, Opt, Result};
use crate::instance::Instance;
use crate::interrupt::{Cancel, Stop};
use crate::piece::Piece;
use crate::symmetry::Symmetry;

/// Boards `count --format svg` draws, at most.
pub const MAX_DRAWN: usize = 12;

/// Boards `count --boards --format svg` draws in one grid, at most.
pub const MAX_GRID: usize = 64;

/// How [`write_boards`] writes each board: text rows, one JSON line, or into one SVG grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardsFormat {
    /// Each board's rows (`Q` piece, `.` free, `x` blocked), a blank line between boards.
    Text,
    /// One JSON object per line per board, then one summary line.
    Json,
    /// One grid of at most [`MAX_GRID`] boards.
    Svg,
}

/// `--boards K|all`: `None` for `all`, else a positive number of boards. Public (feature
/// `front`, as this module) for the program's `count --boards`; the Python module may read the
/// same words.
///
/// ```
/// use queens_sat::report::boards::parse_limit;
/// assert_eq!(parse_limit("all").unwrap(), None);
/// assert_eq!(parse_limit("3").unwrap(), Some(3));
/// assert!(parse_limit("0").is_err());
/// ```
pub fn parse_limit(value: &str) -> Result<Option<usize>> {
    if value == "all" {
        return Ok(None);
    }
    match value.parse::<usize>() {
        Ok(k) if k > 0 => Ok(Some(k)),
        _ => Err(BadOption::invalid(
            Opt::Boards,
            value,
            "must be a positive number of boards or `all`",
        )),
    }
}

/// Which boards [`write_boards`] lists, and how.
#[derive(Clone, Copy, Debug)]
pub struct Listing<'a> {
    /// The instance.
    pub instance: &'a Instance,
    /// The piece.
    pub piece: Piece,
    /// `--symmetric g`: only the boards g maps to themselves.
    pub symmetric: Option<Symmetry>,
    /// `--break-symmetry lex`: one board per class modulo the group, its lex-leader.
    pub modulo: bool,
    /// Boards to list, at most (`None`: all).
    pub limit: Option<usize>,
    /// Wall-clock limit of the whole listing, the writing included.
    pub timeout: Option<Duration>,
    /// How each board is written.
    pub format: BoardsFormat,
}

/// What [`write_boards`] listed.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// Boards written.
    pub boards: usize,
    /// Why the search stopped before the end (the time limit), if it did: the listing is then
    /// UNKNOWN (`count` exits 1).
    pub stopped: Option<Stop>,
    /// The one-line summary (`count` prints it on stderr): how many boards, of what, and
    /// whether they are all of them.
    pub summary: String,
}

/// `count --boards`: up to `listing.limit` boards of the instance, streamed into `out` (named
/// `name` in errors) as the search finds them ([`Solutions`]), each verified; in JSON a last
/// summary line, in SVG one grid at the end. `cancel` stops it ([`Error::Interrupted`]).
/// Public (feature `front`, as this module) for the program's `count --boards`.
pub fn write_boards(
    out: &mut impl Write,
    name: &str,
    listing: &Listing,
    cancel: &Cancel,
) -> Result<Listed> {
    let Listing {
        instance,
        piece,
        symmetric,
        modulo,
        limit,
        timeout,
        format,
    } = *listing;
    if format == BoardsFormat::Svg && limit.is_none_or(|k| k > MAX_GRID) {
        return Err(BadOption::invalid(
            Opt::Boards,
            limit.map_or("all".into(), |k| k.to_string()),
            format!("draws at most {MAX_GRID} boards in one SVG (--format svg)"),
        ));
    }
    // `--timeout` is wall-clock time, printing included: the iterator's own limit counts only
    // its search, so a slow reader (a pipe, a terminal) would stretch the run far past it.
    // The token carries the deadline instead, and the iterator polls it before every board.
    let stop = cancel.with_timeout(timeout);
    let (made, mut seconds) = timed(|| Solutions::new(instance, piece, symmetric, modulo));
    let mut sols = made?.with_cancel(stop);
    let obstacles = instance.obstacles();
    let mut drawn: Vec<Board> = Vec::new();
    let mut printed = 0usize;
    let write_err = |e: std::io::Error| Error::io(name, e);
    while limit.is_none_or(|k| printed < k) {
        let (next, t) = timed(|| sols.next());
        seconds += t;
        let Some(board) = next else { break };
        let board = board?;
        printed += 1;
        match format {
            BoardsFormat::Text => {
                if printed > 1 {
                    writeln!(out).map_err(write_err)?;
                }
                board
                    .write_text(&mut *out, |r, line| obstacles.mark_row(r, line))
                    .map_err(write_err)?;
                out.flush().map_err(write_err)?;
            }
            BoardsFormat::Json => {
                let queens: Vec<[u32; 2]> = board.pieces.iter().map(|c| [c.row, c.col]).collect();
                let record = serde_json::json!({
                    "board": printed,
                    "queens": queens,
                    "rows": board.rows(|c| obstacles.contains(c)),
                });
                writeln!(out, "{record}").map_err(write_err)?;
                out.flush().map_err(write_err)?;
            }
            BoardsFormat::Svg => drawn.push(board),
        }
    }
    let stopped = sols.stopped();
    if stopped == Some(Stop::Cancelled) {
        return Err(Error::Interrupted);
    }
    let all = stopped.is_none() && limit.is_none_or(|k| printed < k);
    let group: Vec<&str> = sols.group().iter().map(|g| g.name()).collect();
    let what = match (symmetric, modulo) {
        (Some(g), true) => format!(
            "{g}-symmetric boards, one per class modulo {}",
            group.join(" ")
        ),
        (None, true) => format!("boards, one per class modulo {}", group.join(" ")),
        (Some(g), false) => format!("{g}-symmetric boards"),
        (None, false) => "boards".into(),
    };
    let status = match stopped {
        Some(why) => format!("UNKNOWN ({why}): more may exist"),
        None if all => "all of them".into(),
        None => "the limit asked; more may exist".into(),
    };
    let summary = format!("{printed} {what}: {status}");
    match format {
        BoardsFormat::Json => {
            let record = serde_json::json!({
                "boards": printed,
                "status": match stopped {
                    Some(_) => "UNKNOWN",
                    None if all => "complete",
                    None => "limit",
                },
                "reason": stopped.map(|why| why.to_string()),
                "modulo_symmetry": modulo,
                "group": group,
                "symmetric": symmetric.map(|g| g.name()),
                "seconds": seconds,
            });
            writeln!(out, "{record}").map_err(write_err)?;
        }
        BoardsFormat::Svg => {
            let title = format!("{}-{}s: {summary}", instance.n, piece.name);
            let label = if modulo { "class" } else { "board" };
            out.write_all(
                crate::svg::grid_labelled(instance, piece, &drawn, &title, label).as_bytes(),
            )
            .map_err(write_err)?;
        }
        BoardsFormat::Text => {}
    }
    out.flush().map_err(write_err)?;
    Ok(Listed {
        boards: printed,
        stopped,
        summary,
    })
}

/// `count --format svg`: one representative board per symmetry class (of the boards
/// `--symmetric` keeps, when given), up to [`MAX_DRAWN`], as one SVG, and its title (`count`
/// prints the title on stderr). Public (feature `front`, as this module) for the program.
pub fn draw_classes(
    instance: &Instance,
    piece: Piece,
    options: EncodeOptions,
    cancel: &Cancel,
) -> Result<(String, String)> {
    if !options.lex_leader.is_empty() {
        return Err(Error::Usage(
            "count --format svg draws class representatives itself; drop --break-symmetry".into(),
        ));
    }
    let (boards, more) =
        crate::count::representatives(instance, piece, options, MAX_DRAWN, cancel)?;
    let which = options
        .symmetric
        .map_or(String::new(), |g| format!(" ({g}-symmetric)"));
    let title = format!(
        "{}-{}s{which}: {} class{}{}",
        instance.n,
        piece.name,
        boards.len(),
        if boards.len() == 1 { "" } else { "es" },
        if more { " shown, more exist" } else { "" }
    );
    Ok((crate::svg::grid(instance, piece, &boards, &title), title))
}

/// Times a closure, for reports.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let t = std::time::Instant::now();
    let v = f();
    (v, t.elapsed().as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::QUEEN;

    fn listing(instance: &Instance, limit: Option<usize>, format: BoardsFormat) -> Listing<'_> {
        Listing {
            instance,
            piece: QUEEN,
            symmetric: None,
            modulo: false,
            limit,
            timeout: None,
            format,
        }
    }

    /// All ten 5-queens boards in text, a blank line between them; a limit stops early and
    /// says more may exist; JSON ends with the summary line.
    #[test]
    fn lists_boards_with_their_summary() {
        let five = Instance::plain(5);
        let mut out = Vec::new();
        let all = listing(&five, None, BoardsFormat::Text);
        let listed = write_boards(&mut out, "<test>", &all, &Cancel::new()).unwrap();
        assert_eq!(listed.boards, 10);
        assert_eq!(listed.summary, "10 boards: all of them");
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.split("\n\n").count(), 10);
        assert_eq!(text.matches('Q').count(), 50);

        let mut out = Vec::new();
        let two = listing(&five, Some(2), BoardsFormat::Json);
        let listed = write_boards(&mut out, "<test>", &two, &Cancel::new()).unwrap();
        assert_eq!(listed.summary, "2 boards: the limit asked; more may exist");
        let text = String::from_utf8(out).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        assert_eq!(last["boards"], 2);
        assert_eq!(last["status"], "limit");
        assert_eq!(text.lines().count(), 3);
    }

    /// An SVG grid takes at most [`MAX_GRID`] boards: `all` is refused before any search.
    #[test]
    fn svg_grid_needs_a_small_limit() {
        let five = Instance::plain(5);
        let all = listing(&five, None, BoardsFormat::Svg);
        let err = write_boards(&mut Vec::new(), "<test>", &all, &Cancel::new()).unwrap_err();
        assert!(err.to_string().contains("at most 64 boards"), "{err}");
    }

    /// 6-queens has one class modulo the symmetries (4 boards): one drawing, titled so.
    #[test]
    fn draws_one_board_per_class() {
        let six = Instance::plain(6);
        let options = EncodeOptions::from(crate::encode::amo::AmoKind::DEFAULT);
        let (svg, title) = draw_classes(&six, QUEEN, options, &Cancel::new()).unwrap();
        assert_eq!(title, "6-queens: 1 class");
        assert!(svg.contains("<svg") && svg.contains(&title));
    }
}
