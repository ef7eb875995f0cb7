//! What `suite` prints once a run ends ([`Summary::text`]).

use super::{Options, Summary};

impl Summary {
    /// What `suite` prints on stderr once a run of `options` ends, one line per fact (each
    /// ending in a newline): the files written and kept, what presolve and the duplicate check
    /// left out, the selection per family (`--select`) or the verdicts (`--solve`), then the
    /// plot and the pack written. Public (feature `harness`, as this module) for the program,
    /// which prints it; the Python module may print it too.
    pub fn text(&self, options: &Options) -> String {
        use std::fmt::Write as _;
        let s = self;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} files, {} bytes; wrote {} ({} bytes) in {:.2}s, kept {} (sha256 unchanged)",
            s.out_dir.display(),
            s.files,
            s.bytes,
            s.written,
            s.bytes_written,
            s.write_seconds,
            s.skipped
        );
        if s.presolved + s.duplicates > 0 {
            let _ = writeln!(
                out,
                "not written: {} decided by presolve or unit propagation, {} duplicates (listed \
                 in the manifest's skipped column)",
                s.presolved, s.duplicates
            );
        }
        if let Some(sel) = &s.selection {
            let _ = writeln!(
                out,
                "selected with {} ({} s) and {} ({}) on {}; ran {} in {:.2}s (the rest from selection.jsonl)",
                match sel.budget.as_str() {
                    "" => "the counter's time",
                    b => b,
                },
                sel.budget_limit,
                sel.solver,
                sel.limit.map_or("no limit".into(), |l| format!("{l} s")),
                sel.cpu,
                sel.ran,
                s.solve_seconds
            );
            for t in &sel.families {
                let _ = writeln!(
                    out,
                    "family {}: {} instances, {} presolve-decided, {} duplicates, {} easy, {} too \
                     hard, {} passed; kept {} (SAT {} UNSAT {}){}",
                    t.family,
                    t.instances,
                    t.presolved,
                    t.duplicates,
                    t.easy,
                    t.too_hard,
                    t.passed,
                    t.kept(),
                    t.kept_sat,
                    t.kept_unsat,
                    match t.shortfall {
                        _ if sel.total.is_some() => String::new(),
                        0 => String::new(),
                        k => format!(
                            ", {k} short of {} (SAT/UNSAT balance or too few passed)",
                            sel.per_family
                        ),
                    }
                );
            }
            if let Some(total) = sel.total {
                let (sat, unsat) = sel
                    .families
                    .iter()
                    .fold((0, 0), |(s, u), t| (s + t.kept_sat, u + t.kept_unsat));
                let _ = writeln!(
                    out,
                    "kept {} of --total {total} (SAT {sat} UNSAT {unsat}){}",
                    sat + unsat,
                    match sel.shortfall {
                        0 => String::new(),
                        k => format!(", {k} short (SAT/UNSAT balance or too few passed)"),
                    }
                );
            }
        } else if options.solve.is_some() {
            // The verdicts are the whole suite's (rows decided before solving, duplicates and
            // rows answered by an earlier run included), so that they add up to its instances;
            // `solved` is this run's share.
            let _ = writeln!(
                out,
                "solved {} in {:.2}s; the suite's {} instances: SAT {} UNSAT {} UNKNOWN {} ({} \
                 decided by presolve or unit propagation and {} duplicates among them)",
                s.solved,
                s.solve_seconds,
                s.files + s.presolved + s.duplicates,
                s.statuses[0],
                s.statuses[1],
                s.statuses[2],
                s.presolved,
                s.duplicates
            );
        }
        if let Some(p) = &options.plot {
            let _ = writeln!(out, "plot {}", p.display());
        }
        if let Some(pack) = &options.pack {
            let _ = writeln!(out, "pack {}: {} instances", pack.dir.display(), s.packed);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compress::Codec;
    use crate::interrupt::Cancel;
    use crate::suite::SolveWith;
    use std::path::PathBuf;

    /// The options of a run that writes into `out` and solves with `solve`, nothing else.
    fn options(solve: Option<SolveWith>, plot: Option<PathBuf>) -> Options {
        Options {
            out_dir: None,
            solve,
            jobs: 1,
            plot,
            force: false,
            compress: Codec::Plain,
            level: 0,
            select: None,
            pack: None,
            progress: false,
            cancel: Cancel::new(),
        }
    }

    /// The summary of a solved run: the files line, what was not written, the verdicts over
    /// the whole suite (written rows plus the decided and duplicate ones), then the plot; a
    /// run that only writes says nothing of verdicts.
    #[test]
    fn summary_text_lines() {
        let s = Summary {
            out_dir: PathBuf::from("cnf-out/q"),
            files: 4,
            written: 3,
            skipped: 1,
            bytes: 1000,
            bytes_written: 750,
            write_seconds: 0.5,
            solved: 3,
            statuses: [2, 3, 1],
            solve_seconds: 1.25,
            presolved: 1,
            duplicates: 1,
            ..Summary::default()
        };
        let solve = SolveWith {
            solver: "auto".into(),
            timeout: None,
            certify: false,
        };
        let text = s.text(&options(Some(solve), Some(PathBuf::from("p.svg"))));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "cnf-out/q: 4 files, 1000 bytes; wrote 3 (750 bytes) in 0.50s, kept 1 (sha256 unchanged)",
                "not written: 1 decided by presolve or unit propagation, 1 duplicates (listed in the manifest's skipped column)",
                "solved 3 in 1.25s; the suite's 6 instances: SAT 2 UNSAT 3 UNKNOWN 1 (1 decided by presolve or unit propagation and 1 duplicates among them)",
                "plot p.svg",
            ]
        );
        let written = Summary {
            presolved: 0,
            duplicates: 0,
            ..s
        };
        assert_eq!(written.text(&options(None, None)).lines().count(), 1);
    }
}
