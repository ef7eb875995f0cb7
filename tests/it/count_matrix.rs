//! The count matrix (issue 52 §1): every `--symmetric g` (none, `id` and the 7 other
//! elements) × `--break-symmetry none|lex` × every engine (`sat`, `cdcl`, `backtrack`, `auto`)
//! × queens and amazons × plain, placed, blocked and excluded-diagonal instances with n <= 9
//! (n = 1 included), through the library's one count ([`queens_sat::count::run`]), against a
//! brute-force oracle written here: the solutions of the instance ([`common::oracle`]), its
//! symmetries, the group H of the `--symmetric` count (those that map `<g>` onto itself),
//! the g-symmetric solutions each element of H fixes, and the classes under H by canonical
//! images (not by Burnside). `--cross-check` runs on every cell too, and must name two
//! engines. Plain boards are also checked against the published tables
//! (/work/shared/reference/counts.md: A033148, A032522). Then the command line: the cells of
//! issue 52 (`--symmetric` with `--break-symmetry lex` gave the count without `--symmetric`,
//! `--cross-check` ran one engine) and `--timeout`.

use std::collections::BTreeSet;

use crate::common;
use common::oracle::instance_solutions;

use queens_sat::board::Cell;
use queens_sat::count::{CountEngine, CountOutcome, CountReport, Counter};
use queens_sat::instance::{ExcludedDiagonal, Instance};
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::symmetry::Symmetry;

pub(crate) type Sol = Vec<(u32, u32)>;

/// The oracle's names of the 8 maps, in the crate's order (for comparing the group lists).
const NAMES: [&str; 8] = [
    "id", "r90", "r180", "r270", "flip_h", "flip_v", "flip_d", "flip_a",
];

/// The oracle's own map `name` on an `n x n` board (the README's conventions).
fn map(name: &str, n: u32, (r, c): (u32, u32)) -> (u32, u32) {
    let m = n - 1;
    match name {
        "id" => (r, c),
        "r90" => (c, m - r),
        "r180" => (m - r, m - c),
        "r270" => (m - c, r),
        "flip_h" => (m - r, c),
        "flip_v" => (r, m - c),
        "flip_d" => (c, r),
        "flip_a" => (m - c, m - r),
        other => panic!("no map {other}"),
    }
}

/// A map as the permutation of the cells of a 3 x 3 board (which tells all 8 apart).
fn perm(name: &str) -> Vec<(u32, u32)> {
    (0..3)
        .flat_map(|r| (0..3).map(move |c| (r, c)))
        .map(|x| map(name, 3, x))
        .collect()
}

/// The name of the map that acts as `p` on the 3 x 3 board.
fn name_of(p: &[(u32, u32)]) -> &'static str {
    NAMES.into_iter().find(|n| perm(n) == p).expect("a map")
}

/// `a ∘ b` (b first), by its action on the 3 x 3 board.
fn compose(a: &str, b: &str) -> &'static str {
    let p: Vec<(u32, u32)> = (0..3)
        .flat_map(|r| (0..3).map(move |c| (r, c)))
        .map(|x| map(a, 3, map(b, 3, x)))
        .collect();
    name_of(&p)
}

/// The cyclic group `<g>`.
fn cyclic(g: &str) -> BTreeSet<&'static str> {
    let mut out = BTreeSet::from(["id"]);
    let mut x = name_of(&perm(g));
    while out.insert(x) {
        x = compose(g, x);
    }
    out
}

/// Whether `h` maps `<g>` onto itself: `{h x h^-1}` is `<g>` (h^-1 found by search).
fn normalises(h: &str, g: &str) -> bool {
    let inv = NAMES
        .into_iter()
        .find(|&x| compose(h, x) == "id")
        .expect("an inverse");
    let group = cyclic(g);
    let image: BTreeSet<&str> = group.iter().map(|x| compose(compose(h, x), inv)).collect();
    image == group
}

/// The instance's symmetries by the oracle: maps that keep the pre-placed pieces and the cells
/// no piece may take (blocked cells and excluded diagonals) as sets.
fn oracle_stabiliser(inst: &Instance) -> Vec<&'static str> {
    let plain = common::Plain::from_instance(inst);
    let n = inst.n;
    let placed: BTreeSet<(u32, u32)> = plain
        .placed
        .iter()
        .map(|&(r, c)| (r as u32, c as u32))
        .collect();
    let blocked: BTreeSet<(u32, u32)> = plain
        .blocked
        .iter()
        .map(|&(r, c)| (r as u32, c as u32))
        .collect();
    NAMES
        .into_iter()
        .filter(|&g| {
            placed
                .iter()
                .map(|&x| map(g, n, x))
                .collect::<BTreeSet<_>>()
                == placed
                && blocked
                    .iter()
                    .map(|&x| map(g, n, x))
                    .collect::<BTreeSet<_>>()
                    == blocked
        })
        .collect()
}

/// A solution's image under `g`, sorted.
pub(crate) fn image(s: &Sol, g: &str, n: u32) -> Sol {
    let mut img: Sol = s.iter().map(|&x| map(g, n, x)).collect();
    img.sort_unstable();
    img
}

/// What the oracle expects of a count under `--symmetric g`.
#[derive(Debug)]
pub(crate) struct Expected {
    pub(crate) group: Vec<&'static str>,
    pub(crate) total: u64,
    pub(crate) fixed: Vec<u64>,
    pub(crate) classes: u64,
}

pub(crate) fn expected(inst: &Instance, sols: &BTreeSet<Sol>, g: Option<&str>) -> Expected {
    let n = inst.n;
    let group: Vec<&str> = oracle_stabiliser(inst)
        .into_iter()
        .filter(|h| g.is_none_or(|g| normalises(h, g)))
        .collect();
    let kept: Vec<&Sol> = sols
        .iter()
        .filter(|s| g.is_none_or(|g| image(s, g, n) == **s))
        .collect();
    let fixed = group
        .iter()
        .map(|h| kept.iter().filter(|s| image(s, h, n) == ***s).count() as u64)
        .collect();
    let classes: BTreeSet<Sol> = kept
        .iter()
        .map(|s| group.iter().map(|h| image(s, h, n)).min().expect("id"))
        .collect();
    Expected {
        group,
        total: kept.len() as u64,
        fixed,
        classes: classes.len() as u64,
    }
}

/// The instances of the matrix: per kind a few, symmetric and lopsided, n <= 9.
pub(crate) fn instances() -> Vec<(&'static str, Instance)> {
    let cell = Cell::new;
    let mut out = Vec::new();
    for n in 1..=9 {
        out.push(("plain", Instance::plain(n)));
    }
    let with = |n: u32, f: &dyn Fn(&mut Instance)| {
        let mut i = Instance::plain(n);
        f(&mut i);
        i
    };
    // Pre-placed pieces: the centre (every symmetry), a cell on the main diagonal (id, flip_d),
    // a lopsided one.
    out.push(("placed", with(5, &|i| i.placed = vec![cell(2, 2)])));
    out.push(("placed", with(7, &|i| i.placed = vec![cell(3, 3)])));
    out.push(("placed", with(8, &|i| i.placed = vec![cell(0, 0)])));
    out.push(("placed", with(8, &|i| i.placed = vec![cell(1, 4)])));
    out.push(("placed", with(1, &|i| i.placed = vec![cell(0, 0)])));
    // Blocked cells: an r90 orbit, an r180 pair, a flip_v pair, a flip_d pair, lopsided ones.
    out.push((
        "blocked",
        with(8, &|i| {
            i.blocked = vec![cell(0, 2), cell(2, 7), cell(7, 5), cell(5, 0)]
        }),
    ));
    out.push((
        "blocked",
        with(6, &|i| i.blocked = vec![cell(0, 1), cell(5, 4)]),
    ));
    out.push((
        "blocked",
        with(7, &|i| i.blocked = vec![cell(1, 0), cell(1, 6)]),
    ));
    out.push((
        "blocked",
        with(9, &|i| i.blocked = vec![cell(2, 5), cell(5, 2)]),
    ));
    out.push((
        "blocked",
        with(8, &|i| i.blocked = vec![cell(3, 3), cell(6, 1), cell(0, 7)]),
    ));
    // Excluded diagonals: both long diagonals (every symmetry), the main diagonal (id, r180,
    // flip_d, flip_a), a short sum diagonal.
    let diag = |kind, key| ExcludedDiagonal { kind, key };
    out.push((
        "excluded",
        with(8, &|i| {
            i.excluded = vec![diag(LineKind::Diagonal, 7), diag(LineKind::AntiDiagonal, 7)]
        }),
    ));
    out.push((
        "excluded",
        with(9, &|i| i.excluded = vec![diag(LineKind::Diagonal, 8)]),
    ));
    out.push((
        "excluded",
        with(7, &|i| i.excluded = vec![diag(LineKind::AntiDiagonal, 2)]),
    ));
    out
}

/// The engine choices of the matrix: each engine by name, and `auto`.
const ENGINES: [Option<CountEngine>; 4] = [
    Some(CountEngine::Sat),
    Some(CountEngine::Cdcl),
    Some(CountEngine::Backtrack),
    None,
];

fn counted(counter: &Counter) -> CountReport {
    match counter.run() {
        Ok(CountOutcome::Counted(r)) => r,
        other => panic!("{counter:?}: {other:?}"),
    }
}

/// One instance and piece against the oracle, in every cell of the matrix.
fn check_instance(kind: &str, inst: &Instance, piece: Piece) {
    let sols = instance_solutions(inst, piece.name);
    let symmetric: Vec<Option<Symmetry>> = std::iter::once(None)
        .chain(Symmetry::ALL.into_iter().map(Some))
        .collect();
    for g in symmetric {
        let want = expected(inst, &sols, g.map(|g| g.name()));
        for lex in [false, true] {
            for engine in ENGINES {
                for cross_check in [false, true] {
                    let counter = Counter::new(inst, piece)
                        .symmetric(g)
                        .lex(lex)
                        .engine(engine)
                        .cross_check(cross_check)
                        .jobs(2);
                    let what = format!(
                        "{kind} {inst:?} {} symmetric={g:?} lex={lex} engine={engine:?} cross_check={cross_check}",
                        piece.name
                    );
                    let r = counted(&counter);
                    let group: Vec<&str> = r.group.iter().map(|g| g.name()).collect();
                    assert_eq!(group, want.group, "group: {what}");
                    assert_eq!(r.unique(), want.classes, "classes: {what}");
                    assert_eq!(r.runs.len(), 1 + usize::from(cross_check), "{what}");
                    assert_eq!(r.symmetric, g, "{what}");
                    if let [a, b] = r.runs.as_slice() {
                        assert_ne!(a.engine, b.engine, "two different engines: {what}");
                    }
                    if let Some(e) = engine {
                        assert_eq!(r.runs[0].engine, e, "{what}");
                    } else {
                        // auto: the SAT engine for lex-leader constraints; the orbits engine
                        // for a rotation's boards without blocked cells or excluded diagonals;
                        // the bitboard counter elsewhere (n <= 64 here).
                        let rotation =
                            matches!(g, Some(Symmetry::R90 | Symmetry::R180 | Symmetry::R270));
                        let orbits =
                            rotation && inst.blocked.is_empty() && inst.excluded.is_empty();
                        let auto = if lex {
                            CountEngine::Sat
                        } else if orbits {
                            CountEngine::Orbits
                        } else {
                            CountEngine::Backtrack
                        };
                        assert_eq!(r.runs[0].engine, auto, "auto: {what}");
                    }
                    for x in &r.runs {
                        assert_eq!(x.unique, want.classes, "classes by {:?}: {what}", x.engine);
                        match &x.counts {
                            Some(c) => {
                                assert_eq!(c.total, want.total, "total by {:?}: {what}", x.engine);
                                assert_eq!(c.fixed, want.fixed, "fixed by {:?}: {what}", x.engine);
                                assert_eq!(c.unique, want.classes, "{what}");
                            }
                            None => assert!(lex && x.engine != CountEngine::Backtrack, "{what}"),
                        }
                    }
                    if !lex {
                        assert!(r.counts().is_some(), "{what}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_cell_matches_the_oracle() {
    let mut kinds = BTreeSet::new();
    for (kind, inst) in instances() {
        kinds.insert(kind);
        check_instance(kind, &inst, QUEEN);
        if inst.n <= 6 || kind == "plain" {
            check_instance(kind, &inst, AMAZON);
        }
    }
    assert_eq!(kinds.len(), 4);
}

/// Amazons have no solution for n = 2..9: one instance with solutions (n = 10 plain, 4
/// solutions, one class), every `--symmetric` and engine, against the oracle.
#[test]
fn amazons_with_solutions_match_the_oracle() {
    let inst = Instance::plain(10);
    let sols = instance_solutions(&inst, "amazon");
    assert_eq!(sols.len(), 4); // A051223
    for g in std::iter::once(None).chain(Symmetry::ALL.into_iter().map(Some)) {
        let want = expected(&inst, &sols, g.map(|g| g.name()));
        for lex in [false, true] {
            for engine in [Some(CountEngine::Sat), Some(CountEngine::Backtrack)] {
                let counter = Counter::new(&inst, AMAZON)
                    .symmetric(g)
                    .lex(lex)
                    .engine(engine)
                    .cross_check(true)
                    .jobs(2);
                let r = counted(&counter);
                assert_eq!(r.unique(), want.classes, "{g:?} {lex} {engine:?}");
                if let Some(c) = r.counts() {
                    assert_eq!((c.total, &c.fixed), (want.total, &want.fixed), "{g:?}");
                }
            }
        }
    }
}

/// n, A033148 (fixed by r90), A032522 (fixed by r180, the r90 ones included), n = 1..=12.
const PUBLISHED: [(u32, u64, u64); 12] = [
    (1, 1, 1),
    (2, 0, 0),
    (3, 0, 0),
    (4, 2, 2),
    (5, 2, 2),
    (6, 0, 4),
    (7, 0, 8),
    (8, 0, 4),
    (9, 0, 16),
    (10, 0, 12),
    (11, 0, 48),
    (12, 8, 80),
];

/// `--symmetric r90 / r270 / r180` totals on plain queens boards are the published fixed
/// points, with every engine and both methods.
#[test]
fn symmetric_totals_are_the_published_fixed_points() {
    for (n, r90, r180) in PUBLISHED {
        for (g, want) in [
            (Symmetry::R90, r90),
            (Symmetry::R270, r90),
            (Symmetry::R180, r180),
        ] {
            for engine in ENGINES {
                let board = Instance::plain(n);
                let counter = Counter::new(&board, QUEEN)
                    .symmetric(g)
                    .engine(engine)
                    .jobs(2);
                let r = counted(&counter);
                let c = r.counts().expect("a breakdown");
                assert_eq!(c.total, want, "n={n} {g} {engine:?}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The command line.

fn cli(args: &[&str]) -> common::Run {
    let dir = tempfile::tempdir().unwrap();
    common::run_expect(dir.path(), args, 0)
}

fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {key} line in\n{out}"))
}

/// Issue 52: `count -n 8 --symmetric r180 --break-symmetry lex` printed 12 (the classes of all
/// solutions) and `-n 10` 92. The r180-symmetric 8-queens boards are 4, one class; at n = 10,
/// 12 boards in 3 classes. Every engine, with and without the cross-check.
#[test]
fn cli_symmetric_lex_counts_the_symmetric_classes() {
    for (n, classes) in [("8", "1"), ("10", "3")] {
        for engine in ["auto", "sat", "cdcl", "backtrack"] {
            for extra in [&[][..], &["--cross-check"][..]] {
                let mut args = vec![
                    "count",
                    "-n",
                    n,
                    "--symmetric",
                    "r180",
                    "--break-symmetry",
                    "lex",
                    "--engine",
                    engine,
                ];
                args.extend_from_slice(extra);
                let r = cli(&args);
                assert_eq!(field(&r.stdout, "unique"), classes, "{args:?}");
                assert_eq!(field(&r.stdout, "symmetric"), "r180", "{args:?}");
            }
        }
    }
}

/// Issue 52: `count -n 12 --symmetric r90 --cross-check` ran the SAT engine alone. Now two
/// engines run, and the output (text and JSON) names both.
#[test]
fn cli_cross_check_names_two_engines() {
    for engine in ["auto", "sat", "cdcl", "backtrack"] {
        for lex in [false, true] {
            let mut args = vec![
                "count",
                "-n",
                "12",
                "--symmetric",
                "r90",
                "--cross-check",
                "--engine",
                engine,
                "--format",
                "json",
            ];
            if lex {
                args.extend(["--break-symmetry", "lex"]);
            }
            let r = cli(&args);
            let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
            let names: Vec<&str> = v["engine"].as_str().unwrap().split('+').collect();
            assert_eq!(names.len(), 2, "{args:?}: {v}");
            assert_ne!(names[0], names[1], "{args:?}");
            if engine != "auto" {
                assert_eq!(names[0], engine, "{args:?}");
            }
            // 8 r90-symmetric 12-queens boards, in 4 classes under the 8 symmetries.
            assert_eq!(v["unique"], 4, "{args:?}: {v}");
            if !lex {
                assert_eq!(v["total"], 8, "{args:?}: {v}");
            }
        }
    }
}

/// The default engine is the bitboard counter where it applies, and the output says so.
#[test]
fn cli_default_engine_is_named() {
    let r = cli(&["count", "-n", "9"]);
    assert_eq!(field(&r.stdout, "engine"), "backtrack");
    assert_eq!(field(&r.stdout, "total"), "352");
    let r = cli(&["count", "-n", "9", "--break-symmetry", "lex"]);
    assert_eq!(field(&r.stdout, "engine"), "sat");
    assert_eq!(field(&r.stdout, "unique"), "46");
}

/// `--timeout`: a count past its limit is UNKNOWN, names the limit as given, exit 1; a bad
/// value is refused as `solve` refuses it.
#[test]
fn cli_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let r = common::run_expect(
        dir.path(),
        &["count", "-n", "22", "--engine", "sat", "--timeout", "0.25"],
        1,
    );
    assert_eq!(r.stdout.trim(), "UNKNOWN");
    assert!(r.stderr.contains("time limit of 0.25 s"), "{}", r.stderr);
    // The backtrack counter's tasks ask the token inside the kernel (a task of n = 22 runs
    // for seconds): the count ends as UNKNOWN, not with the task's end.
    let r = common::run_expect(
        dir.path(),
        &[
            "count",
            "-n",
            "22",
            "--engine",
            "backtrack",
            "--timeout",
            "0.25",
        ],
        1,
    );
    assert_eq!(r.stdout.trim(), "UNKNOWN");
    assert!(r.stderr.contains("time limit of 0.25 s"), "{}", r.stderr);
    common::assert_one_line_error(
        dir.path(),
        &["count", "-n", "8", "--timeout", "0"],
        &["--timeout", "positive number of seconds"],
    );
    let r = cli(&["count", "-n", "8", "--timeout", "60"]);
    assert_eq!(field(&r.stdout, "total"), "92");
}

/// The one refusal of the matrix: the backtrack engine past n = 64, named, exit 1.
#[test]
fn cli_backtrack_past_64_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    common::assert_one_line_error(
        dir.path(),
        &["count", "-n", "65", "--engine", "backtrack"],
        &["backtrack", "n <= 64"],
    );
}

/// `count --format svg` draws class representatives and counts nothing: the count's options
/// are refused there, not ignored.
#[test]
fn cli_svg_refuses_the_count_options() {
    let dir = tempfile::tempdir().unwrap();
    for (flag, value) in [
        ("--engine", Some("backtrack")),
        ("--cross-check", None),
        ("--timeout", Some("5")),
    ] {
        let mut args = vec!["count", "-n", "6", "--format", "svg", flag];
        args.extend(value);
        common::assert_one_line_error(dir.path(), &args, &["svg", flag]);
    }
}

/// Past n = 64 no bitboard counter applies: `auto` is `sat`, the cross-check's second engine
/// `cdcl`, and `backtrack` is refused with the reason. A 65-queens completion (61 rows of the
/// toroidal solution `(r, 2r mod 65)` placed, the free rows last so that the oracle's row-by-row
/// search meets the placed pieces first) against the oracle.
#[test]
fn past_64_the_sat_engines_count_and_cross_check() {
    let n = 65;
    let mut inst = Instance::plain(n);
    inst.placed = (0..n - 4).map(|r| Cell::new(r, 2 * r % n)).collect();
    let sols = instance_solutions(&inst, "queen");
    assert!(!sols.is_empty());
    for g in [None, Some(Symmetry::R180)] {
        let want = expected(&inst, &sols, g.map(|g| g.name()));
        let counter = Counter::new(&inst, QUEEN)
            .symmetric(g)
            .cross_check(true)
            .jobs(2);
        let r = counted(&counter);
        assert_eq!(r.engine_name(), "sat+cdcl");
        let c = r.counts().expect("a breakdown");
        assert_eq!(
            (c.total, &c.fixed, c.unique),
            (want.total, &want.fixed, want.classes)
        );
    }
    let e = Counter::new(&inst, QUEEN)
        .engine(CountEngine::Backtrack)
        .jobs(2)
        .run()
        .unwrap_err();
    assert!(e.to_string().contains("n <= 64"), "{e}");
}
