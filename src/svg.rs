//! Boards as pictures: one board of an instance rendered as SVG (issue 13, partial).
//!
//! Drawn: the chessboard, blocked cells shaded, excluded diagonals as bands, pre-placed pieces
//! told apart from placed ones, and optionally an attack line in red between two pieces. Up to
//! n = 64 pieces are crown shapes; larger boards draw them as dots. A board is drawn as a
//! solution only after [`crate::verify::verify`] accepted it ([`solution_svg`]).

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::board::{Board, Cell};
use crate::instance::Instance;
use crate::piece::{LineKind, Piece};

/// Fill of pieces the solver placed.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub const PLACED_COLOUR: &str = "#1d3557";
/// Fill of pre-placed pieces (and their cell frame).
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub const PREPLACED_COLOUR: &str = "#e07a00";
/// Fill of blocked cells.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub const BLOCKED_COLOUR: &str = "#555555";
/// Stroke of excluded diagonals.
pub(crate) const EXCLUDED_COLOUR: &str = "#7e57c2";
/// Stroke of the attack line.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub const ATTACK_COLOUR: &str = "#e00000";
/// Light squares.
pub(crate) const LIGHT_COLOUR: &str = "#f0d9b5";
/// Dark squares.
pub(crate) const DARK_COLOUR: &str = "#b58863";

/// Largest board `solve --format svg` draws (about one pixel per cell); a larger one is
/// refused before it is solved (use the compact `--format cols`).
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub const MAX_N: u32 = 1024;

/// Largest side drawn with piece shapes; larger boards draw dots.
pub(crate) const MAX_SHAPES_N: u32 = 64;

/// The side of one cell in pixels for an `n x n` board.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn cell_size(n: u32) -> f64 {
    if n <= MAX_SHAPES_N {
        (640.0 / n as f64).clamp(10.0, 48.0).floor()
    } else {
        1024.0 / n as f64
    }
}

fn num(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Renders `pieces` on `instance` as an SVG document, with an optional attack line between two
/// cells and a caption. Does not judge the board: use [`solution_svg`] for answers.
pub fn render(
    instance: &Instance,
    piece: Piece,
    pieces: &[Cell],
    attack: Option<(Cell, Cell)>,
    caption: &str,
) -> String {
    let n = instance.n;
    let s = cell_size(n);
    let (m, cap) = (8.0, 24.0);
    let side = s * n as f64;
    let width = (side + 2.0 * m).max(360.0);
    let height = side + 2.0 * m + cap;
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#,
        w = num(width),
        h = num(height)
    );
    let _ = writeln!(o, "<title>{}</title>", escape(caption));
    let _ = writeln!(o, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        o,
        r#"<g class="board" data-n="{n}" data-cell="{}" data-x="{m}" data-y="{m}">"#,
        num(s)
    );
    let _ = writeln!(
        o,
        r#"<rect class="frame" x="{m}" y="{m}" width="{w}" height="{w}" fill="{LIGHT_COLOUR}"/>"#,
        w = num(side)
    );
    let x = |c: u32| m + c as f64 * s;
    if n <= 256 {
        let mut d = String::new();
        for r in 0..n {
            for c in (0..n).filter(|c| (r + c) % 2 == 1) {
                let _ = write!(d, "M{} {}h{s}v{s}h-{s}z", num(x(c)), num(x(r)), s = num(s));
            }
        }
        let _ = writeln!(o, r#"<path class="dark" d="{d}" fill="{DARK_COLOUR}"/>"#);
    }
    for b in &instance.blocked {
        let _ = writeln!(
            o,
            r#"<rect class="blocked" data-row="{}" data-col="{}" x="{}" y="{}" width="{s}" height="{s}" fill="{BLOCKED_COLOUR}"/>"#,
            b.row,
            b.col,
            num(x(b.col)),
            num(x(b.row)),
            s = num(s)
        );
    }
    for e in &instance.excluded {
        let cells: Vec<Cell> = (0..n)
            .flat_map(|r| (0..n).map(move |c| Cell::new(r, c)))
            .filter(|&c| e.kind.key(c, n) == e.key)
            .collect();
        if let (Some(a), Some(b)) = (cells.first(), cells.last()) {
            let (x1, y1, x2, y2) = match e.kind {
                LineKind::Diagonal => (x(a.col), x(a.row), x(b.col) + s, x(b.row) + s),
                // Excluded lines are diagonals of either kind; any other runs like a sum one.
                LineKind::AntiDiagonal | LineKind::Row | LineKind::Column => {
                    (x(a.col) + s, x(a.row), x(b.col), x(b.row) + s)
                }
            };
            let _ = writeln!(
                o,
                r#"<line class="excluded" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{EXCLUDED_COLOUR}" stroke-opacity="0.6" stroke-width="{}"/>"#,
                num(x1),
                num(y1),
                num(x2),
                num(y2),
                num(s * 0.35)
            );
        }
    }
    let pre: HashSet<Cell> = instance.placed.iter().copied().collect();
    for &p in pieces {
        let (colour, class) = if pre.contains(&p) {
            (PREPLACED_COLOUR, "preplaced")
        } else {
            (PLACED_COLOUR, "placed")
        };
        if class == "preplaced" {
            let _ = writeln!(
                o,
                r#"<rect class="preplaced-frame" x="{}" y="{}" width="{w}" height="{w}" fill="none" stroke="{colour}" stroke-width="{}"/>"#,
                num(x(p.col) + s * 0.05),
                num(x(p.row) + s * 0.05),
                num(s * 0.08),
                w = num(s * 0.9)
            );
        }
        let (cx, cy) = (x(p.col) + s / 2.0, x(p.row) + s / 2.0);
        let d = if n > MAX_SHAPES_N {
            let _ = writeln!(
                o,
                r#"<circle class="piece {class}" data-row="{}" data-col="{}" cx="{}" cy="{}" r="{}" fill="{colour}"/>"#,
                p.row,
                p.col,
                num(cx),
                num(cy),
                num((s * 0.42).max(0.6))
            );
            continue;
        } else if piece.leaps.is_empty() {
            crown(x(p.col), x(p.row), s)
        } else {
            star(cx, cy, s)
        };
        let _ = writeln!(
            o,
            r#"<path class="piece {class}" data-row="{}" data-col="{}" d="{d}" fill="{colour}" stroke="white" stroke-width="{}"/>"#,
            p.row,
            p.col,
            num((s * 0.04).max(0.5))
        );
    }
    if let Some((a, b)) = attack {
        let _ = writeln!(
            o,
            r#"<line class="attack" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{ATTACK_COLOUR}" stroke-width="{}" stroke-linecap="round"/>"#,
            num(x(a.col) + s / 2.0),
            num(x(a.row) + s / 2.0),
            num(x(b.col) + s / 2.0),
            num(x(b.row) + s / 2.0),
            num((s * 0.12).max(1.5))
        );
    }
    let _ = writeln!(o, "</g>");
    let _ = writeln!(
        o,
        r#"<text class="caption" x="{m}" y="{}" font-family="sans-serif" font-size="14">{}</text>"#,
        num(side + 2.0 * m + 14.0),
        escape(caption)
    );
    o.push_str("</svg>\n");
    o
}

/// Renders a board as a solution of `instance`, after the verifier accepted it; the verifier's
/// complaint otherwise.
pub fn solution_svg(board: &Board, instance: &Instance, piece: Piece) -> Result<String, String> {
    crate::verify::verify(board, instance, piece)?;
    let caption = format!("{}-{}s: solution", board.n, piece.name);
    Ok(render(instance, piece, &board.pieces, None, &caption))
}

/// A crown in the cell whose top-left corner is `(x, y)`; it covers the cell's centre.
fn crown(x: f64, y: f64, s: f64) -> String {
    let pts = [
        (0.15, 0.3),
        (0.33, 0.55),
        (0.5, 0.18),
        (0.67, 0.55),
        (0.85, 0.3),
        (0.8, 0.85),
        (0.2, 0.85),
    ];
    polygon(pts.iter().map(|&(a, b)| (x + a * s, y + b * s)))
}

/// An eight-pointed star around `(cx, cy)` (amazons: queen plus knight).
fn star(cx: f64, cy: f64, s: f64) -> String {
    polygon((0..16).map(|i| {
        let r = if i % 2 == 0 { 0.45 * s } else { 0.22 * s };
        let t = std::f64::consts::PI * i as f64 / 8.0;
        (cx + r * t.sin(), cy - r * t.cos())
    }))
}

fn polygon(points: impl Iterator<Item = (f64, f64)>) -> String {
    let mut d = String::new();
    for (i, (px, py)) in points.enumerate() {
        let _ = write!(
            d,
            "{}{} {}",
            if i == 0 { "M" } else { "L" },
            num(px),
            num(py)
        );
    }
    d.push('z');
    d
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Several boards of one instance side by side (up to 4 per row), each captioned, as one SVG
/// document (`count --format svg`: one representative per symmetry class).
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn grid(instance: &Instance, piece: Piece, boards: &[Board], title: &str) -> String {
    grid_labelled(instance, piece, boards, title, "class")
}

/// [`grid`] with each board captioned `{label} {i}` (`count --boards --format svg`: `board`,
/// or `class` modulo symmetry).
#[cfg_attr(not(feature = "front"), visibility::make(pub(crate)), allow(dead_code))]
pub fn grid_labelled(
    instance: &Instance,
    piece: Piece,
    boards: &[Board],
    title: &str,
    label: &str,
) -> String {
    let panels: Vec<String> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            render(
                instance,
                piece,
                &b.pieces,
                None,
                &format!("{label} {}", i + 1),
            )
        })
        .collect();
    let size = |svg: &str, key: &str| -> f64 {
        let at = svg
            .find(&format!("{key}=\""))
            .map_or(0, |i| i + key.len() + 2);
        svg[at..]
            .split('"')
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0.0)
    };
    let (w, h) = panels
        .first()
        .map_or((360.0, 0.0), |p| (size(p, "width"), size(p, "height")));
    let cols = boards.len().clamp(1, 4);
    let rows = boards.len().div_ceil(cols);
    let (width, height) = (w * cols as f64, h * rows as f64 + 28.0);
    let mut o = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\">\n<title>{}</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"8\" y=\"20\" font-family=\"sans-serif\" font-size=\"16\">{}</text>\n",
        num(width),
        num(height),
        num(width),
        num(height),
        escape(title),
        escape(title)
    );
    for (i, panel) in panels.iter().enumerate() {
        let (x, y) = ((i % cols) as f64 * w, 28.0 + (i / cols) as f64 * h);
        // A nested <svg> places the panel; drop its own XML namespace declaration.
        let inner = panel.replacen(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"",
            &format!("<svg class=\"panel\" x=\"{}\" y=\"{}\"", num(x), num(y)),
            1,
        );
        o.push_str(&inner);
    }
    o.push_str("</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::QUEEN;

    #[test]
    fn pieces_sit_on_their_squares() {
        let mut inst = Instance::plain(4);
        inst.placed = vec![Cell::new(0, 1)];
        inst.blocked = vec![Cell::new(0, 0)];
        let b = Board::new(
            4,
            vec![
                Cell::new(0, 1),
                Cell::new(1, 3),
                Cell::new(2, 0),
                Cell::new(3, 2),
            ],
        );
        let svg = solution_svg(&b, &inst, QUEEN).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        let s = cell_size(4);
        let mut seen = Vec::new();
        for node in doc
            .descendants()
            .filter(|d| d.attribute("class").is_some_and(|c| c.starts_with("piece")))
        {
            let r: u32 = node.attribute("data-row").unwrap().parse().unwrap();
            let c: u32 = node.attribute("data-col").unwrap().parse().unwrap();
            // Every vertex of the shape lies inside the cell (row r, column c).
            let d = node.attribute("d").unwrap();
            for pair in d
                .trim_end_matches('z')
                .split(['M', 'L'])
                .filter(|p| !p.is_empty())
            {
                let v: Vec<f64> = pair.split(' ').map(|t| t.parse().unwrap()).collect();
                assert!(v[0] >= 8.0 + c as f64 * s && v[0] <= 8.0 + (c + 1) as f64 * s);
                assert!(v[1] >= 8.0 + r as f64 * s && v[1] <= 8.0 + (r + 1) as f64 * s);
            }
            let pre = node.attribute("class") == Some("piece preplaced");
            assert_eq!(pre, Cell::new(r, c) == Cell::new(0, 1));
            seen.push(Cell::new(r, c));
        }
        seen.sort_unstable();
        assert_eq!(seen, b.pieces);
        let blocked: Vec<_> = doc
            .descendants()
            .filter(|d| d.attribute("class") == Some("blocked"))
            .map(|d| (d.attribute("x").unwrap(), d.attribute("y").unwrap()))
            .collect();
        assert_eq!(blocked, vec![("8", "8")]);
        // An invalid board is refused.
        let bad = Board::new(4, vec![Cell::new(0, 0), Cell::new(1, 1)]);
        assert!(solution_svg(&bad, &Instance::plain(4), QUEEN).is_err());
    }
}
