//! What a person sees: boards rendered to PNG with resvg, pixel colours checked at the pieces'
//! squares, blocked cells and the attack line.

use crate::common;

use queens_sat::board::{Board, Cell};
use queens_sat::instance::Instance;
use queens_sat::piece::{AMAZON, QUEEN};
use queens_sat::svg::{self, cell_size};
use resvg::{tiny_skia, usvg};

fn rgb(hex: &str) -> [u8; 3] {
    let v = u32::from_str_radix(&hex[1..], 16).unwrap();
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

fn pixels(text: &str) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(text, &usvg::Options::default()).unwrap();
    let size = tree.size().to_int_size();
    let mut pm = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pm.as_mut());
    pm
}

fn at(pm: &tiny_skia::Pixmap, x: f64, y: f64) -> [u8; 3] {
    let p = pm.pixel(x as u32, y as u32).unwrap();
    [p.red(), p.green(), p.blue()]
}

fn centre(n: u32, c: Cell) -> (f64, f64) {
    let s = cell_size(n);
    (
        8.0 + (c.col as f64 + 0.5) * s,
        8.0 + (c.row as f64 + 0.5) * s,
    )
}

#[test]
fn queens_and_amazons_show_on_their_squares() {
    // 6-queens with one pre-placed piece and a blocked cell.
    let mut inst = Instance::plain(6);
    inst.placed = vec![Cell::new(0, 1)];
    inst.blocked = vec![Cell::new(0, 0)];
    let b = Board::new(
        6,
        [(0, 1), (1, 3), (2, 5), (3, 0), (4, 2), (5, 4)]
            .map(|(r, c)| Cell::new(r, c))
            .to_vec(),
    );
    let pm = pixels(&svg::solution_svg(&b, &inst, QUEEN).unwrap());
    for &q in &b.pieces {
        let (x, y) = centre(6, q);
        let want = if q == Cell::new(0, 1) {
            svg::PREPLACED_COLOUR
        } else {
            svg::PLACED_COLOUR
        };
        assert_eq!(at(&pm, x, y), rgb(want), "piece at {q}");
    }
    let (x, y) = centre(6, Cell::new(0, 0));
    assert_eq!(at(&pm, x, y), rgb(svg::BLOCKED_COLOUR));
    // 10-amazons (a solution found by the solver, checked by the verifier inside solution_svg).
    let problem = queens_sat::presolve::Problem::presolve(&Instance::plain(10), AMAZON).unwrap();
    let r = queens_sat::solve::solve(
        &problem,
        queens_sat::encode::amo::AmoKind::Sequential,
        &queens_sat::solve::varisat_backend::Varisat,
        None,
    )
    .unwrap();
    let board = r.status.sat().unwrap().clone();
    let pm = pixels(&svg::solution_svg(&board, &Instance::plain(10), AMAZON).unwrap());
    for &q in &board.pieces {
        let (x, y) = centre(10, q);
        assert_eq!(at(&pm, x, y), rgb(svg::PLACED_COLOUR), "amazon at {q}");
    }
}

#[test]
fn attack_line_is_red_between_the_pieces() {
    let (a, b) = (Cell::new(0, 0), Cell::new(3, 3));
    let inst = Instance::plain(4);
    let pm = pixels(&svg::render(
        &inst,
        QUEEN,
        &[a, b],
        Some((a, b)),
        "diagonal",
    ));
    for c in [a, b, Cell::new(1, 1), Cell::new(2, 2)] {
        let (x, y) = centre(4, c);
        assert_eq!(at(&pm, x, y), rgb(svg::ATTACK_COLOUR), "at {c}");
    }
}

/// `solve --format svg` draws the verified board: one piece element per queen, on the same
/// cells as the text board; without a board, the empty instance with the verdict.
#[test]
fn solve_format_svg_draws_the_verified_board() {
    let dir = tempfile::tempdir().unwrap();
    let svg = common::run_expect(
        dir.path(),
        &["solve", "-n", "12", "--format", "svg", "--jobs", "1"],
        10,
    )
    .stdout;
    let text = common::run_expect(dir.path(), &["solve", "-n", "12", "--jobs", "1"], 10).stdout;
    let doc = roxmltree::Document::parse(&svg).expect("stdout is SVG");
    let mut drawn: Vec<(u32, u32)> = doc
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("piece")))
        .map(|n| {
            let at = |k: &str| n.attribute(k).unwrap().parse::<u32>().unwrap();
            (at("data-row"), at("data-col"))
        })
        .collect();
    drawn.sort_unstable();
    let mut listed: Vec<(u32, u32)> = text
        .lines()
        .enumerate()
        .flat_map(|(r, l)| {
            l.char_indices()
                .filter(|&(_, ch)| ch == 'Q')
                .map(move |(c, _)| (r as u32, c as u32))
        })
        .collect();
    listed.sort_unstable();
    assert_eq!(drawn.len(), 12);
    // On one job the default strategy is deterministic (no race), so both runs found one board.
    assert_eq!(drawn, listed);
    let svg = common::run_expect(dir.path(), &["solve", "-n", "3", "--format", "svg"], 20).stdout;
    let doc = roxmltree::Document::parse(&svg).expect("stdout is SVG");
    assert!(svg.contains("UNSAT"), "{svg}");
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("piece")))
            .count(),
        0
    );
    common::assert_one_line_error(
        dir.path(),
        &["encode", "-n", "6", "--stats", "--format", "svg"],
        &["svg"],
    );
}

/// `verify --format svg` draws the first violation as the attack line between the two pieces
/// (exit 1, the sentence on stderr), and a valid board without one (exit 0).
#[test]
fn verify_format_svg_draws_the_violation() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "Q...\n..Q.\n.Q..\n...Q\n").unwrap();
    let r = common::run_expect(
        dir.path(),
        &["verify", bad.to_str().unwrap(), "--format", "svg"],
        1,
    );
    assert!(
        r.stderr.contains("(0,0) and (3,3) share a diagonal"),
        "{}",
        r.stderr
    );
    let doc = roxmltree::Document::parse(&r.stdout).expect("stdout is SVG");
    let board = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("board"))
        .unwrap();
    let num = |n: roxmltree::Node, k: &str| n.attribute(k).unwrap().parse::<f64>().unwrap();
    let (s, x0, y0) = (
        num(board, "data-cell"),
        num(board, "data-x"),
        num(board, "data-y"),
    );
    let centre = |r: f64, c: f64| (x0 + (c + 0.5) * s, y0 + (r + 0.5) * s);
    let line = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("attack"))
        .expect("an attack line");
    let mut ends = [
        (num(line, "x1"), num(line, "y1")),
        (num(line, "x2"), num(line, "y2")),
    ];
    ends.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let close = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() < 0.01 && (a.1 - b.1).abs() < 0.01;
    assert!(close(ends[0], centre(0.0, 0.0)), "{ends:?}");
    assert!(close(ends[1], centre(3.0, 3.0)), "{ends:?}");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, ".Q..\n...Q\nQ...\n..Q.\n").unwrap();
    let r = common::run_expect(
        dir.path(),
        &["verify", good.to_str().unwrap(), "--format", "svg"],
        0,
    );
    assert!(!r.stdout.contains("class=\"attack\""), "{}", r.stdout);
}

/// `count --format svg`: one board per symmetry class, drawn as panels: 8-queens has 12
/// classes (A002562), 6-queens one; every drawn board is a solution and no two panels are
/// symmetric images of each other.
#[test]
fn count_format_svg_draws_one_board_per_class() {
    use queens_sat::symmetry::Symmetry;
    let dir = tempfile::tempdir().unwrap();
    for (n, classes) in [(8u32, 12usize), (6, 1)] {
        let r = common::run_expect(
            dir.path(),
            &["count", "-n", &n.to_string(), "--format", "svg"],
            0,
        );
        let doc = roxmltree::Document::parse(&r.stdout).expect("stdout is SVG");
        let panels: Vec<Vec<Cell>> = doc
            .descendants()
            .filter(|p| p.attribute("class") == Some("panel"))
            .map(|p| {
                let mut cells: Vec<Cell> = p
                    .descendants()
                    .filter(|x| x.attribute("class").is_some_and(|c| c.starts_with("piece")))
                    .map(|x| {
                        let at = |k: &str| x.attribute(k).unwrap().parse::<u32>().unwrap();
                        Cell::new(at("data-row"), at("data-col"))
                    })
                    .collect();
                cells.sort_unstable();
                cells
            })
            .collect();
        assert_eq!(panels.len(), classes, "n={n}");
        let canon = |cells: &[Cell]| {
            Symmetry::ALL
                .iter()
                .map(|g| {
                    let mut img: Vec<Cell> = cells.iter().map(|&c| g.apply(c, n)).collect();
                    img.sort_unstable();
                    img
                })
                .min()
                .unwrap()
        };
        let mut seen = std::collections::BTreeSet::new();
        for cells in &panels {
            let board = Board::new(n, cells.clone());
            queens_sat::verify::verify(&board, &Instance::plain(n), QUEEN).unwrap();
            assert!(
                seen.insert(canon(cells)),
                "two panels of one class: {cells:?}"
            );
        }
    }
}
