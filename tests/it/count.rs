//! Counting against the published tables (OEIS) and against an independent brute-force oracle.
//!
//! Reference values from the OEIS (https://oeis.org): A000170 (n-queens), A002562
//! (n-queens modulo the 8 symmetries), A033148 (fixed by a 90-degree turn), A032522 (fixed by a
//! half turn), A051223 / A051224 (amazons, all / modulo symmetry).

use crate::common;

use common::XorShift as Rng;

use std::collections::BTreeSet;

use common::oracle::instance_solutions;

use crate::common::counting::{count, count_lex_leaders, count_symmetric};
use queens_sat::board::Cell;
use queens_sat::count::{CountEngine, backtrack};
use queens_sat::encode::amo::AmoKind;
use queens_sat::instance::Instance;
use queens_sat::interrupt::Cancel;
use queens_sat::piece::{AMAZON, Piece, QUEEN};
use queens_sat::symmetry::{Symmetry, stabiliser};

/// n, A000170, A002562, A033148, A032522 for n = 1..=12.
const QUEENS: [(u32, u64, u64, u64, u64); 12] = [
    (1, 1, 1, 1, 1),
    (2, 0, 0, 0, 0),
    (3, 0, 0, 0, 0),
    (4, 2, 1, 2, 2),
    (5, 10, 2, 2, 2),
    (6, 4, 1, 0, 4),
    (7, 40, 6, 0, 8),
    (8, 92, 12, 0, 4),
    (9, 352, 46, 0, 16),
    (10, 724, 92, 0, 12),
    (11, 2680, 341, 0, 48),
    (12, 14200, 1787, 8, 80),
];

/// n, A051223, A051224 for n = 1..=13 (no solutions for n = 2..9).
const AMAZONS: [(u32, u64, u64); 13] = [
    (1, 1, 1),
    (2, 0, 0),
    (3, 0, 0),
    (4, 0, 0),
    (5, 0, 0),
    (6, 0, 0),
    (7, 0, 0),
    (8, 0, 0),
    (9, 0, 0),
    (10, 4, 1),
    (11, 44, 6),
    (12, 156, 22),
    (13, 1876, 239),
];

fn fixed_of(c: &queens_sat::count::Counts, g: Symmetry) -> u64 {
    let i = c
        .group
        .iter()
        .position(|&x| x == g)
        .expect("element in group");
    c.fixed[i]
}

fn burnside_holds(c: &queens_sat::count::Counts) {
    assert_eq!(c.fixed[0], c.total);
    assert_eq!(c.group[0], Symmetry::Id);
    assert_eq!(c.fixed.iter().sum::<u64>(), c.unique * c.group.len() as u64);
}

#[test]
fn queens_match_oeis_with_every_engine() {
    for (n, total, unique, r90, r180) in QUEENS {
        for engine in [CountEngine::Sat, CountEngine::Cdcl, CountEngine::Backtrack] {
            let c = count(&Instance::plain(n), QUEEN, AmoKind::Product, engine, 2).unwrap();
            let what = format!("queens n={n} engine={engine:?}");
            assert_eq!((c.total, c.unique), (total, unique), "{what}");
            assert_eq!(c.group, Symmetry::ALL.to_vec(), "{what}");
            assert_eq!(fixed_of(&c, Symmetry::R90), r90, "{what}");
            assert_eq!(fixed_of(&c, Symmetry::R270), r90, "{what}");
            assert_eq!(fixed_of(&c, Symmetry::R180), r180, "{what}");
            burnside_holds(&c);
        }
    }
}

#[test]
fn amazons_match_oeis_with_every_engine() {
    for (n, total, unique) in AMAZONS {
        for engine in [CountEngine::Sat, CountEngine::Cdcl, CountEngine::Backtrack] {
            let c = count(&Instance::plain(n), AMAZON, AmoKind::Product, engine, 2).unwrap();
            assert_eq!(
                (c.total, c.unique),
                (total, unique),
                "amazons n={n} {engine:?}"
            );
            burnside_holds(&c);
        }
    }
}

#[test]
fn every_amo_encoding_counts_exactly() {
    // The sequential and product encodings are not parsimonious: counts must be projected.
    for amo in AmoKind::ALL {
        for (n, total, unique, _, _) in &QUEENS[..10] {
            let c = count(&Instance::plain(*n), QUEEN, amo, CountEngine::Sat, 2).unwrap();
            assert_eq!(
                (c.total, c.unique),
                (*total, *unique),
                "queens n={n} amo={amo}"
            );
        }
        let c = count(&Instance::plain(11), AMAZON, amo, CountEngine::Sat, 2).unwrap();
        assert_eq!((c.total, c.unique), (44, 6), "amazons n=11 amo={amo}");
        // The blocking-clause enumeration must project away the auxiliaries too.
        for (n, total, unique, _, _) in &QUEENS[..8] {
            let c = count(&Instance::plain(*n), QUEEN, amo, CountEngine::Cdcl, 2).unwrap();
            assert_eq!(
                (c.total, c.unique),
                (*total, *unique),
                "cdcl queens n={n} amo={amo}"
            );
        }
    }
}

#[test]
fn symmetric_counts_match_oeis() {
    for (n, _, _, r90, r180) in QUEENS {
        for amo in [AmoKind::Sequential, AmoKind::Product] {
            assert_eq!(
                count_symmetric(
                    &Instance::plain(n),
                    QUEEN,
                    amo,
                    Symmetry::R90,
                    2,
                    &Cancel::new()
                )
                .unwrap(),
                r90,
                "n={n}"
            );
            assert_eq!(
                count_symmetric(
                    &Instance::plain(n),
                    QUEEN,
                    amo,
                    Symmetry::R180,
                    2,
                    &Cancel::new()
                )
                .unwrap(),
                r180,
                "n={n}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The independent oracle (tests/it/common/oracle.rs) on small completion / blocked instances, with
// its own symmetry maps.

type Sol = Vec<(u32, u32)>;

/// The 8 maps of the square, written out independently of the crate.
type Map = Box<dyn Fn((u32, u32)) -> (u32, u32)>;

fn maps(n: u32) -> Vec<(&'static str, Map)> {
    let m = n - 1;
    vec![
        ("id", Box::new(move |(r, c)| (r, c))),
        ("r90", Box::new(move |(r, c)| (c, m - r))),
        ("r180", Box::new(move |(r, c)| (m - r, m - c))),
        ("r270", Box::new(move |(r, c)| (m - c, r))),
        ("flip_h", Box::new(move |(r, c)| (m - r, c))),
        ("flip_v", Box::new(move |(r, c)| (r, m - c))),
        ("flip_d", Box::new(move |(r, c)| (c, r))),
        ("flip_a", Box::new(move |(r, c)| (m - c, m - r))),
    ]
}

fn oracle_group(inst: &Instance) -> Vec<&'static str> {
    let set = |v: &[Cell]| -> BTreeSet<(u32, u32)> { v.iter().map(|c| (c.row, c.col)).collect() };
    let (placed, blocked) = (set(&inst.placed), set(&inst.blocked));
    maps(inst.n)
        .into_iter()
        .filter(|(_, f)| {
            placed.iter().map(|&x| f(x)).collect::<BTreeSet<_>>() == placed
                && blocked.iter().map(|&x| f(x)).collect::<BTreeSet<_>>() == blocked
        })
        .map(|(name, _)| name)
        .collect()
}

fn oracle_classes(sols: &BTreeSet<Sol>, n: u32, group: &[&str]) -> usize {
    let maps = maps(n);
    let canon: BTreeSet<Sol> = sols
        .iter()
        .map(|s| {
            maps.iter()
                .filter(|(name, _)| group.contains(name))
                .map(|(_, f)| {
                    let mut img: Sol = s.iter().map(|&x| f(x)).collect();
                    img.sort_unstable();
                    img
                })
                .min()
                .unwrap()
        })
        .collect();
    canon.len()
}

fn check(inst: &Instance, piece: Piece) {
    let sols = instance_solutions(inst, piece.name);
    let group = oracle_group(inst);
    let names: Vec<&str> = stabiliser(inst, &piece).iter().map(|g| g.name()).collect();
    assert_eq!(names, group, "stabiliser of {inst:?}");
    let classes = oracle_classes(&sols, inst.n, &group);
    for engine in [CountEngine::Sat, CountEngine::Cdcl, CountEngine::Backtrack] {
        let c = count(inst, piece, AmoKind::Product, engine, 2).unwrap();
        assert_eq!(
            c.total,
            sols.len() as u64,
            "total {engine:?} {} {inst:?}",
            piece.name
        );
        assert_eq!(
            c.unique, classes as u64,
            "unique {engine:?} {} {inst:?}",
            piece.name
        );
        burnside_holds(&c);
    }
}

#[test]
fn completion_and_blocked_instances_match_oracle() {
    let mut rng = Rng(0x00c0_ffee);
    let mut symmetric_groups = 0;
    for i in 0..150 {
        let n = 4 + rng.below(5); // 4..=8
        let mut inst = Instance::plain(n);
        let cell = |rng: &mut Rng| Cell::new(rng.below(n), rng.below(n));
        match i % 4 {
            0 => inst.placed = vec![cell(&mut rng)],
            1 => inst.blocked = (0..1 + rng.below(n)).map(|_| cell(&mut rng)).collect(),
            2 => {
                // Symmetric blocking: a cell and its images under a random element.
                let c = cell(&mut rng);
                let g = Symmetry::ALL[rng.below(8) as usize];
                inst.blocked = vec![
                    c,
                    g.apply(c, n),
                    g.apply(g.apply(c, n), n),
                    g.apply(g.apply(g.apply(c, n), n), n),
                ];
            }
            _ => {
                let c = Cell::new(n / 2, n / 2);
                inst.placed = vec![c];
                inst.blocked = vec![Cell::new(0, 0), Cell::new(n - 1, n - 1)];
            }
        }
        inst.blocked.sort_unstable();
        inst.blocked.dedup();
        inst.blocked.retain(|b| !inst.placed.contains(b));
        if stabiliser(&inst, &QUEEN).len() > 1 {
            symmetric_groups += 1;
        }
        check(&inst, if i % 3 == 0 { AMAZON } else { QUEEN });
    }
    assert!(
        symmetric_groups > 30,
        "too few instances with a non-trivial stabiliser"
    );
}

#[test]
fn backtrack_engine_rejects_boards_beyond_64() {
    let e = backtrack::count(&Instance::plain(65), QUEEN, &[Symmetry::Id], 1).unwrap_err();
    assert!(e.to_string().contains("n <= 64"));
}

#[test]
fn lex_leader_counts_classes() {
    for (n, _, unique, _, _) in &QUEENS[..10] {
        for amo in [AmoKind::Sequential, AmoKind::Product] {
            let c = count_lex_leaders(&Instance::plain(*n), QUEEN, amo, 2, &Cancel::new()).unwrap();
            assert_eq!(c, *unique, "queens n={n} amo={amo}");
        }
    }
    for (n, _, unique) in &AMAZONS[9..12] {
        let c = count_lex_leaders(
            &Instance::plain(*n),
            AMAZON,
            AmoKind::Product,
            2,
            &Cancel::new(),
        )
        .unwrap();
        assert_eq!(c, *unique, "amazons n={n}");
    }
    // Broken symmetry: the stabiliser shrinks, and the classes follow the oracle.
    let mut inst = Instance::plain(6);
    inst.blocked = vec![Cell::new(0, 1), Cell::new(5, 4)];
    let sols = instance_solutions(&inst, "queen");
    let classes = oracle_classes(&sols, 6, &oracle_group(&inst));
    assert_eq!(
        count_lex_leaders(&inst, QUEEN, AmoKind::Product, 2, &Cancel::new()).unwrap(),
        classes as u64
    );
}

/// The exported lex-leader CNF, read back as DIMACS text and model-counted with projection on
/// the `c p show` variables, has exactly one model per class.
#[test]
fn exported_lex_leader_cnf_counts_classes() {
    use queens_sat::encode::EncodeOptions;
    use queens_sat::encode::lex::SymmetrySet;
    use queens_sat::export::dimacs::write_cnf;
    use queens_sat::presolve::Problem;
    use varisat::ExtendFormula;
    for (n, _, unique, _, _) in &QUEENS[..8] {
        let inst = Instance::plain(*n);
        let problem = Problem::presolve(&inst, QUEEN).unwrap();
        let options = EncodeOptions {
            amo: AmoKind::Sequential,
            symmetric: None,
            lex_leader: SymmetrySet::of(&stabiliser(&inst, &QUEEN)),
            implied: Default::default(),
        };
        let (bytes, _) = write_cnf(Vec::new(), &problem, options, None).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let show: Vec<isize> = text
            .lines()
            .find_map(|l| l.strip_prefix("c p show"))
            .unwrap()
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .filter(|&v| v != 0)
            .collect();
        assert_eq!(show.len() as u32, n * n);
        let mut solver = varisat::Solver::new();
        solver.add_dimacs_cnf(text.as_bytes()).unwrap();
        let mut models = 0;
        while solver.solve().unwrap() {
            models += 1;
            let model = solver.model().unwrap();
            let block: Vec<varisat::Lit> = model
                .iter()
                .filter(|l| show.contains(&l.var().to_dimacs()))
                .map(|&l| !l)
                .collect();
            solver.add_clause(&block);
        }
        assert_eq!(models, *unique, "lex-leader models for n={n}");
    }
}

/// The backtrack engine searches one border per orbit of the instance's stabiliser (weighted by
/// the orbit's size) and walks orbits for the fixed points: both against the oracle, on
/// mirror-symmetric instances (a non-trivial stabiliser) and on their lopsided variants.
#[test]
fn backtrack_mirror_halving_and_orbit_fixed_points_match_oracle() {
    let mut rng = Rng(0x005e_ed0f_f11b);
    let mut mirrored = 0;
    for i in 0..80 {
        let n = 4 + rng.below(6); // 4..=9
        let mut inst = Instance::plain(n);
        for _ in 0..rng.below(n) {
            let c = Cell::new(rng.below(n), rng.below(n));
            inst.blocked.push(c);
            if i % 4 != 3 {
                inst.blocked.push(Symmetry::FlipV.apply(c, n));
            }
        }
        if i % 5 == 0 && n % 2 == 1 {
            inst.placed = vec![Cell::new(rng.below(n), n / 2)];
        }
        inst.blocked.sort_unstable();
        inst.blocked.dedup();
        inst.blocked.retain(|b| !inst.placed.contains(b));
        let piece = if i % 2 == 0 { QUEEN } else { AMAZON };
        let group = stabiliser(&inst, &piece);
        if group.contains(&Symmetry::FlipV) {
            mirrored += 1;
        }
        let sols = instance_solutions(&inst, piece.name);
        let tally = backtrack::count(&inst, piece, &Symmetry::ALL, 2).unwrap();
        assert_eq!(
            tally.total,
            sols.len() as u64,
            "total {} {inst:?}",
            piece.name
        );
        for (g, &fixed) in Symmetry::ALL.iter().zip(&tally.fixed) {
            let expected = sols
                .iter()
                .filter(|s| {
                    let mut img: Vec<(u32, u32)> = s
                        .iter()
                        .map(|&(r, c)| {
                            let x = g.apply(Cell::new(r, c), n);
                            (x.row, x.col)
                        })
                        .collect();
                    img.sort_unstable();
                    img == **s
                })
                .count() as u64;
            assert_eq!(
                fixed,
                expected,
                "fixed {} {} {inst:?}",
                g.name(),
                piece.name
            );
        }
    }
    assert!(
        mirrored > 40,
        "too few mirror-symmetric instances: {mirrored}"
    );
}

/// The orbits engine through the command line: `auto` picks it for `--symmetric r90|r180`
/// and names it, `--cross-check` counts again with an independent engine, a plain count names
/// it for its rotations, `--timeout` stops a long count (UNKNOWN, exit 1, nothing counted), and
/// it refuses what it does not count, in one line.
#[test]
fn orbits_engine_on_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let json = |args: &[&str]| -> serde_json::Value {
        let r = crate::common::run_expect(d, args, 0);
        serde_json::from_str(r.stdout.trim()).unwrap()
    };
    for (n, g, want) in [
        ("20", "r90", 480u64),
        ("21", "r270", 704),
        ("16", "r180", 3000),
    ] {
        let v = json(&["count", "-n", n, "--symmetric", g, "--format", "json"]);
        assert_eq!(
            (v["total"].as_u64(), v["engine"].as_str()),
            (Some(want), Some("orbits"))
        );
        let v = json(&[
            "count",
            "-n",
            n,
            "--symmetric",
            g,
            "--cross-check",
            "--format",
            "json",
        ]);
        assert_eq!(v["total"].as_u64(), Some(want), "{n} {g}");
        let engines = v["engine"].as_str().unwrap();
        assert!(
            engines.starts_with("orbits+") && engines.len() > 7,
            "{engines}"
        );
    }
    // A033148(48): far past the board search, counted from the orbits.
    let v = json(&[
        "count",
        "-n",
        "48",
        "--symmetric",
        "r90",
        "--jobs",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(v["total"].as_u64(), Some(21_517_426_688));
    assert_eq!(v["unique"].as_u64(), Some(21_517_426_688 / 2));
    let v = json(&["count", "-n", "12", "--format", "json"]);
    assert_eq!(
        (v["engine"].as_str(), v["rotations"].as_str()),
        (Some("backtrack"), Some("orbits"))
    );
    assert_eq!(
        (v["fixed"]["r90"].as_u64(), v["fixed"]["r180"].as_u64()),
        (Some(8), Some(80))
    );
    let r = crate::common::run_expect(
        d,
        &[
            "count",
            "-n",
            "64",
            "--symmetric",
            "r90",
            "--timeout",
            "0.2",
        ],
        1,
    );
    assert_eq!(r.stdout.trim(), "UNKNOWN");
    for (args, says) in [
        (
            &["count", "-n", "8", "--engine", "orbits"][..],
            "--symmetric r90, r180 or r270",
        ),
        (
            &[
                "count",
                "-n",
                "65",
                "--symmetric",
                "r180",
                "--engine",
                "orbits",
            ][..],
            "n <= 64, not 65",
        ),
        (
            &[
                "count",
                "-n",
                "8",
                "--symmetric",
                "flip_h",
                "--engine",
                "orbits",
            ][..],
            "rotation",
        ),
    ] {
        let r = crate::common::run_expect(d, args, 1);
        assert!(
            r.stderr.contains(says) && r.stderr.lines().count() == 1,
            "{args:?}: {}",
            r.stderr
        );
    }
}

/// `--timeout` stops every counting engine in every phase: the SAT engine's DPLL deep in a big
/// board's search (n = 300, where unwinding used to try every branch left), varisat's
/// enumeration (n = 20, where a cube holds millions of solutions) and one long varisat search
/// (n = 100), and the lex-leader constraints' encoding (n = 1000, where building the clause
/// database took tens of seconds). Each answers UNKNOWN (exit 1); the guard only catches a hang.
#[test]
fn the_time_limit_stops_every_engine_in_every_phase() {
    let d = tempfile::tempdir().unwrap();
    for args in [
        &["count", "-n", "300", "--engine", "sat"][..],
        &["count", "-n", "20", "--engine", "cdcl"],
        &["count", "-n", "100", "--engine", "cdcl"],
        &[
            "count",
            "-n",
            "1000",
            "--break-symmetry",
            "lex",
            "--jobs",
            "1",
        ],
    ] {
        let mut args = args.to_vec();
        args.extend(["--timeout", "0.5"]);
        let start = std::time::Instant::now();
        let r = crate::common::run_expect(d.path(), &args, 1);
        assert_eq!(r.stdout.trim(), "UNKNOWN", "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("time limit"), "{args:?}: {}", r.stderr);
        assert!(
            start.elapsed() < queens_sat::interrupt::HANG_GUARD,
            "{args:?} ran {:?} past a 0.5 s limit",
            start.elapsed()
        );
    }
}
