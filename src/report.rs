//! The typed records behind every JSON output (`--format json`), serialised and read back with
//! serde: what `solve` / `decode` print ([`SolveRecord`]), what `encode --stats` prints
//! ([`StatsRecord`]) and what `count` prints ([`CountRecord`]). Child processes (bench, jobs)
//! parse the same types, so a field is renamed in one place.

// The front ends' vocabulary (feature `front`): without it, what only they use is unused.
#![cfg_attr(not(feature = "front"), allow(dead_code))]

pub mod answer;
pub mod boards;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::answer::Status;
use crate::board::Board;
use crate::count::Counts;
use crate::encode::Stats;
use crate::instance::Instance;
use crate::piece::Piece;

/// The largest board whose text rows a [`SolveRecord`] carries (`board`): a bigger one's rows
/// would be n² bytes (4.3 GB at n = 65,536), so only its `queens` list is written, and
/// `board_omitted` says why.
pub const JSON_BOARD_MAX_N: u32 = 1000;

/// One answer of `solve` or `decode`.
///
/// ```
/// use queens_sat::report::SolveRecord;
/// let r: SolveRecord = serde_json::from_str(r#"{"status":"UNSAT","n":3,"piece":"queen",
///     "amo":"auto","solver":"varisat","queens":null,"board":null,"vars":9,"clauses":20,
///     "encode_seconds":0.0,"solve_seconds":0.0}"#).unwrap();
/// assert_eq!(r.status, "UNSAT");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveRecord {
    /// `SAT`, `UNSAT` or `UNKNOWN`.
    pub status: String,
    /// Board side.
    pub n: u32,
    /// Piece name.
    pub piece: String,
    /// `--amo` name as given.
    pub amo: String,
    /// Who answered (a backend name, or the portfolio's winner).
    pub solver: String,
    /// The pieces of a verified board as `[row, col]`, when SAT.
    pub queens: Option<Vec<[u32; 2]>>,
    /// The verified board as text rows, when SAT and `n` is at most [`JSON_BOARD_MAX_N`] (the
    /// rows of a bigger board would be n² bytes; `queens` lists its pieces).
    pub board: Option<Vec<String>>,
    /// Why `board` is left out of a SAT answer (a board past [`JSON_BOARD_MAX_N`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_omitted: Option<String>,
    /// CNF variables (null when not counted: see `size_omitted`).
    pub vars: Option<u64>,
    /// CNF clauses (null when not counted).
    pub clauses: Option<u64>,
    /// Why `vars` and `clauses` are null: the CNF was not counted (past the DIMACS variable
    /// limit, or a big board that is not plain, for an engine that builds no CNF).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_omitted: Option<String>,
    /// Seconds to presolve and encode.
    pub encode_seconds: f64,
    /// Seconds in the solver.
    pub solve_seconds: f64,
    /// Why the answer is UNKNOWN, or why presolve found the instance UNSAT (pre-placed pieces
    /// that attack each other, a line left without a free cell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Who checked the refutation of a certified UNSAT.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certified: Option<String>,
    /// The plan that ran ([`crate::solve::Plan::to_json`]), where the solve had one (`solve`;
    /// not a merged cluster job).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plan: Option<serde_json::Value>,
}

impl SolveRecord {
    /// The verdict the record states, as the project's answer type; an unknown status label is
    /// an error message.
    pub fn answer(&self) -> std::result::Result<crate::answer::Answer<()>, String> {
        use crate::answer::Answer;
        match self.status.as_str() {
            "SAT" => Ok(Answer::Sat(())),
            "UNSAT" => Ok(Answer::Unsat),
            "UNKNOWN" => Ok(Answer::Unknown(self.reason.clone().unwrap_or_default())),
            other => Err(format!("status {other:?}")),
        }
    }

    /// The record of a solve's report (what `solve --format json` prints).
    pub fn of(report: &crate::solve::SolveReport, instance: &Instance, piece: Piece) -> Self {
        let mut rec =
            SolveRecord::new(&report.status, instance, piece, &report.amo, &report.solver);
        if report.size_omitted.is_none() {
            rec.vars = Some(report.stats.vars);
            rec.clauses = Some(report.stats.clauses);
        }
        rec.size_omitted.clone_from(&report.size_omitted);
        rec.encode_seconds = report.encode_seconds;
        rec.solve_seconds = report.solve_seconds;
        rec.certified = report.certificate.as_ref().map(|c| c.checker.clone());
        rec.plan = report.plan.as_ref().map(|p| p.to_json());
        if matches!(report.status, Status::Unsat) {
            rec.reason.clone_from(&report.reason);
        }
        rec
    }

    /// The record of `status` for `instance`; the board rows show blocked cells as `x`.
    pub fn new(
        status: &Status,
        instance: &Instance,
        piece: Piece,
        amo: &str,
        solver: &str,
    ) -> Self {
        let obstacles = instance.obstacles();
        let board: Option<&Board> = status.sat();
        let big = instance.n > JSON_BOARD_MAX_N;
        SolveRecord {
            status: status.label().into(),
            n: instance.n,
            piece: piece.name.into(),
            amo: amo.into(),
            solver: solver.into(),
            queens: board.map(|b| b.pieces.iter().map(|c| [c.row, c.col]).collect()),
            board: board
                .filter(|_| !big)
                .map(|b| b.rows(|c| obstacles.contains(c))),
            board_omitted: board.filter(|_| big).map(|_| {
                format!(
                    "the board rows are left out past n = {JSON_BOARD_MAX_N}; queens lists every \
                     piece"
                )
            }),
            vars: None,
            clauses: None,
            size_omitted: None,
            encode_seconds: 0.0,
            solve_seconds: 0.0,
            reason: match status {
                Status::Unknown(why) => Some(why.clone()),
                _ => None,
            },
            certified: None,
            plan: None,
        }
    }
}

/// `verify --format json`: the verdict on a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyRecord {
    /// Whether the board solves the instance.
    pub valid: bool,
    /// Board side.
    pub n: u32,
    /// Piece name.
    pub piece: String,
    /// Pieces on the board.
    pub pieces: usize,
    /// The first violation, as one sentence (`None` when valid).
    pub violation: Option<String>,
    /// The violation's cells as `[row, col]` (empty when valid).
    pub cells: Vec<[u32; 2]>,
}

impl VerifyRecord {
    /// The record of `verdict`, the checker's ([`crate::verify::check`]) on `board` with
    /// `piece`: what `verify --format json` prints. Public (feature `front`, as this module)
    /// for the program's `verify`.
    pub fn of(
        board: &Board,
        piece: Piece,
        verdict: &std::result::Result<(), crate::verify::Violation>,
    ) -> VerifyRecord {
        let (violation, cells) = match verdict {
            Ok(()) => (None, Vec::new()),
            Err(v) => (
                Some(v.message.clone()),
                v.cells.iter().map(|c| [c.row, c.col]).collect(),
            ),
        };
        VerifyRecord {
            valid: verdict.is_ok(),
            n: board.n,
            piece: piece.name.into(),
            pieces: board.pieces.len(),
            violation,
            cells,
        }
    }
}

/// `verify --format svg`: `board` on `instance` as a picture captioned with `verdict`, the
/// first violation drawn (a red line between two attacking pieces). Public (feature `front`)
/// for the program's `verify`.
pub fn verdict_svg(
    board: &Board,
    instance: &Instance,
    piece: Piece,
    verdict: &std::result::Result<(), crate::verify::Violation>,
) -> String {
    let (attack, caption) = match verdict {
        Ok(()) => (None, "valid".to_string()),
        Err(v) => (
            match v.cells.as_slice() {
                [x, y] => Some((*x, *y)),
                _ => None,
            },
            format!("invalid: {}", v.message),
        ),
    };
    crate::svg::render(instance, piece, &board.pieces, attack, &caption)
}

/// `encode --stats`: the size of a CNF without writing it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatsRecord {
    /// Board side.
    pub n: u32,
    /// Piece name.
    pub piece: String,
    /// `--amo` name.
    pub amo: String,
    /// Variables, clauses, literals.
    #[serde(flatten)]
    pub stats: Stats,
    /// Variables of live cells (the rest are auxiliary).
    pub cell_vars: u64,
    /// Why presolve proved the instance unsatisfiable, if it did.
    pub unsat: Option<String>,
}

impl StatsRecord {
    /// What `encode --stats` prints in text: one `key value` line each for the variables, the
    /// clauses and literals under `format`'s names for them (constraints and terms outside
    /// DIMACS), the cell variables, and presolve's refutation if any. Public (feature `front`,
    /// as this module) for the program's `encode --stats`.
    pub fn text(&self, format: crate::export::Format) -> String {
        let (clauses, literals) = format.info().stats_names;
        let mut out = format!(
            "vars {}\n{clauses} {}\n{literals} {}\ncell_vars {}\n",
            self.stats.vars, self.stats.clauses, self.stats.literals, self.cell_vars
        );
        if let Some(why) = &self.unsat {
            out += &format!("presolve UNSAT: {why}\n");
        }
        out
    }
}

/// What `encode --format json` prints after writing a file.
///
/// ```
/// use queens_sat::report::WriteRecord;
/// let r: WriteRecord = serde_json::from_str(r#"{"path":"q8.cnf","format":"dimacs",
///     "n":8,"piece":"queen","amo":"pairwise","vars":64,"clauses":744,"literals":1552,
///     "bytes":7797,"compress":"none","file_bytes":7797,
///     "gbdhash":"781e91553a5502980a9bb7a54213c757"}"#).unwrap();
/// assert_eq!(r.gbdhash.as_deref(), Some("781e91553a5502980a9bb7a54213c757"));
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WriteRecord {
    /// The file written.
    pub path: String,
    /// Its format (`--to`).
    pub format: String,
    /// Board side.
    pub n: u32,
    /// Piece name.
    pub piece: String,
    /// `--amo` name.
    pub amo: String,
    /// Variables, clauses (constraints), literals (terms).
    #[serde(flatten)]
    pub stats: Stats,
    /// Bytes of text.
    pub bytes: u64,
    /// The codec (`none`, `xz`, `gz`, `zst`).
    pub compress: String,
    /// Bytes of the file (after compression).
    pub file_bytes: u64,
    /// The GBD hash of a DIMACS file (see [`crate::export::gbd`]).
    pub gbdhash: Option<String>,
}

/// What `count` prints: the full symmetry breakdown, or one number for `--symmetric` /
/// `--break-symmetry lex`.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct CountRecord {
    /// Solutions (absent for a lex-leader count, which sees one per class).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// Classes modulo the group (Burnside, or lex-leaders counted directly).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unique: Option<u64>,
    /// The group's element names, identity first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Vec<String>>,
    /// Solutions each element maps to themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixed: Option<BTreeMap<String, u64>>,
    /// `--symmetric`: the element every counted board is fixed by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symmetric: Option<String>,
    /// `lex-leader` for `--break-symmetry lex`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The engine(s) that counted.
    pub engine: String,
    /// The engine that counted the rotations' fixed points, where not `engine` (`orbits`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotations: Option<String>,
    /// Present where a count passes 2^53: how such counts are written (exact JSON integers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub integers: Option<String>,
}

/// What a count record says of its integers where one passes 2^53 (the last integer a double,
/// JavaScript's number or jq before 1.7 holds exactly): every count is written as an exact
/// decimal JSON integer, never rounded or quoted.
const BIG_COUNTS: &str = "exact: counts past 2^53 are exact JSON integers; read them as 64-bit or big integers, not doubles";

impl CountRecord {
    /// The record with [`CountRecord::integers`] set where one of its counts passes 2^53.
    pub fn noting_big_counts(mut self) -> CountRecord {
        let big = |x: &u64| *x > 1u64 << 53;
        let any = self.total.iter().any(big)
            || self.unique.iter().any(big)
            || self.fixed.iter().flat_map(|f| f.values()).any(big);
        self.integers = any.then(|| BIG_COUNTS.to_string());
        self
    }
}

impl CountRecord {
    /// The full breakdown of `counts`.
    pub fn of(counts: &Counts, engine: &str, seconds: f64) -> CountRecord {
        CountRecord {
            total: Some(counts.total),
            unique: Some(counts.unique),
            group: Some(counts.group.iter().map(|g| g.name().to_string()).collect()),
            fixed: Some(
                counts
                    .group
                    .iter()
                    .zip(&counts.fixed)
                    .map(|(g, f)| (g.name().to_string(), *f))
                    .collect(),
            ),
            seconds,
            engine: engine.into(),
            ..CountRecord::default()
        }
    }

    /// What `count` prints for `report`: the full breakdown (total, unique, group, fixed
    /// points), or under `--break-symmetry lex` the classes alone; `symmetric g` when asked;
    /// the engine(s), and the one that counted the rotations where it differs. Public (with
    /// the `front` feature, as this module) for the program's `count` and `merge`.
    pub fn of_report(report: &crate::count::CountReport) -> CountRecord {
        let engine = report.engine_name();
        let seconds = report.seconds();
        let symmetric = report.symmetric.map(|g| g.name().to_string());
        match report.counts().filter(|_| !report.lex) {
            Some(c) => CountRecord {
                symmetric,
                rotations: report.rotations().map(|e| e.name().into()),
                ..CountRecord::of(c, &engine, seconds)
            },
            None => CountRecord {
                unique: Some(report.unique()),
                group: Some(report.group.iter().map(|g| g.name().to_string()).collect()),
                symmetric,
                method: Some(report.method_name()),
                seconds,
                engine,
                ..CountRecord::default()
            },
        }
    }

    /// The record as `count` prints it in text: one `key value` line per field present, in
    /// the order total, unique, method, group, fixed (in the group's order), symmetric, engine,
    /// rotations, seconds. Public (feature `front`) for the program, which prints it.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        let mut line = |key: &str, value: &dyn std::fmt::Display| {
            let _ = writeln!(out, "{key} {value}");
        };
        if let Some(t) = self.total {
            line("total", &t);
        }
        if let Some(u) = self.unique {
            line("unique", &u);
        }
        if let Some(m) = &self.method {
            line("method", m);
        }
        if let Some(g) = &self.group {
            line("group", &g.join(" "));
            if let Some(fixed) = &self.fixed {
                let pairs: Vec<String> = g
                    .iter()
                    .filter_map(|h| fixed.get(h).map(|f| format!("{h}={f}")))
                    .collect();
                line("fixed", &pairs.join(" "));
            }
        }
        if let Some(g) = &self.symmetric {
            line("symmetric", g);
        }
        if !self.engine.is_empty() {
            line("engine", &self.engine);
        }
        if let Some(r) = &self.rotations {
            line("rotations", r);
        }
        line("seconds", &format_args!("{:.3}", self.seconds));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of a count: the breakdown's lines in order, the fixed points in the group's
    /// order (not the map's), and the lex-leader count's own lines.
    #[test]
    fn count_text_lines_in_order() {
        use crate::count::Counter;
        use crate::symmetry::Symmetry;
        let board = crate::Instance::plain(8);
        let crate::count::CountOutcome::Counted(r) = Counter::new(&board, crate::QUEEN)
            .engine(crate::count::CountEngine::Backtrack)
            .jobs(1)
            .run()
            .unwrap()
        else {
            panic!()
        };
        let text = CountRecord::of_report(&r).text();
        let keys: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(
            keys,
            [
                "total",
                "unique",
                "group",
                "fixed",
                "engine",
                "rotations",
                "seconds"
            ]
        );
        assert!(
            text.starts_with("total 92\nunique 12\ngroup id r90 r180 r270 "),
            "{text}"
        );
        assert!(
            text.contains("\nfixed id=92 r90=0 r180=4 r270=0 "),
            "{text}"
        );
        let crate::count::CountOutcome::Counted(lex) = Counter::new(&board, crate::QUEEN)
            .lex(true)
            .symmetric(Symmetry::R180)
            .jobs(1)
            .run()
            .unwrap()
        else {
            panic!()
        };
        let text = CountRecord::of_report(&lex).text();
        let keys: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
        assert_eq!(
            keys,
            [
                "unique",
                "method",
                "group",
                "symmetric",
                "engine",
                "seconds"
            ]
        );
        assert!(text.starts_with("unique 1\nmethod lex-leader\n"), "{text}");
    }

    /// Two queens on one diagonal: the record names the violation and its two cells, and the
    /// picture draws the attack under its caption; a solution is valid, with no cells.
    #[test]
    fn verify_record_and_picture() {
        use crate::board::Cell;
        let board = Instance::plain(4);
        let bad = Board::new(4, vec![Cell::new(0, 0), Cell::new(1, 1)]);
        let verdict = crate::verify::check(&bad, &board, crate::QUEEN);
        let r = VerifyRecord::of(&bad, crate::QUEEN, &verdict);
        assert!(!r.valid);
        assert_eq!((r.n, r.pieces), (4, 2));
        assert_eq!(r.violation, verdict.clone().err().map(|v| v.message));
        assert_eq!(r.cells.len(), 2, "{r:?}");
        let svg = verdict_svg(&bad, &board, crate::QUEEN, &verdict);
        assert!(svg.contains("invalid: "), "{svg}");
        assert!(svg.contains(crate::svg::ATTACK_COLOUR), "{svg}");
        let good = Board::new(
            4,
            vec![
                Cell::new(0, 1),
                Cell::new(1, 3),
                Cell::new(2, 0),
                Cell::new(3, 2),
            ],
        );
        let verdict = crate::verify::check(&good, &board, crate::QUEEN);
        let r = VerifyRecord::of(&good, crate::QUEEN, &verdict);
        assert!(r.valid && r.violation.is_none() && r.cells.is_empty());
        assert!(verdict_svg(&good, &board, crate::QUEEN, &verdict).contains("valid"));
    }

    /// `encode --stats` in text: the format's names for clauses and literals, and presolve's
    /// refutation when there is one.
    #[test]
    fn stats_text_names_the_format() {
        use crate::export::Format;
        let record = StatsRecord {
            n: 8,
            piece: "queen".into(),
            amo: "pairwise".into(),
            stats: Stats {
                vars: 64,
                clauses: 744,
                literals: 1552,
            },
            cell_vars: 64,
            unsat: None,
        };
        let dimacs = record.text(Format::DEFAULT);
        assert_eq!(
            dimacs,
            "vars 64\nclauses 744\nliterals 1552\ncell_vars 64\n"
        );
        let opb = Format::parse("opb").unwrap();
        let refuted = StatsRecord {
            unsat: Some("two queens attack".into()),
            ..record
        };
        let text = refuted.text(opb);
        assert!(
            text.starts_with("vars 64\nconstraints 744\nterms 1552\n"),
            "{text}"
        );
        assert!(
            text.ends_with("presolve UNSAT: two queens attack\n"),
            "{text}"
        );
    }

    /// A count record says how its integers are written once one passes 2^53, and is exact.
    #[test]
    fn big_counts_are_exact_and_noted() {
        let small = CountRecord {
            total: Some(1 << 53),
            ..CountRecord::default()
        }
        .noting_big_counts();
        assert_eq!(small.integers, None);
        let big = CountRecord {
            total: Some((1 << 53) + 1),
            fixed: Some(BTreeMap::from([("r90".to_string(), u64::MAX)])),
            ..CountRecord::default()
        }
        .noting_big_counts();
        assert_eq!(big.integers.as_deref(), Some(BIG_COUNTS));
        let text = serde_json::to_string(&big).unwrap();
        assert!(text.contains("\"total\":9007199254740993"), "{text}");
        assert!(text.contains("18446744073709551615"), "{text}");
        let back: CountRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back, big);
    }
}
