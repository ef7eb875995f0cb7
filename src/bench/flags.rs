//! `queens-sat bench`'s options as given ([`BenchFlags`]), checked and turned into the one
//! [`BenchTask`] they ask for ([`BenchFlags::task`]): an option that the chosen benchmark
//! would not read is refused, and every solver and portfolio of `bench hard` is checked before
//! any run. The program fills the flags from its command line; nothing here parses arguments.

use std::path::PathBuf;

use super::BenchTask;
use super::types::{CUBES, HardOptions, HardSet};
use crate::encode::EncodeOptions;
use crate::encode::amo::AmoKind;
use crate::encode::implied::Implied;
use crate::error::{Error, Result};
use crate::solve::external::resolve_solver;
use crate::solve::{parse_portfolio, registry};

/// The options of `queens-sat bench` as given (`None`, `false` or empty where absent), named
/// by their flags. Public (feature `harness`, as this module) for the program, which fills it
/// from its command line and runs [`BenchFlags::task`].
#[derive(Clone, Debug, Default)]
pub struct BenchFlags {
    /// `bench hard`: the encoding x backend race (else the standard tables).
    pub hard: bool,
    /// `--quick`: smaller sizes or a smaller instance set.
    pub quick: bool,
    /// `--memory N,...`: peak RSS of streaming export at these sides.
    pub memory: Option<Vec<u32>>,
    /// `--dd N,...`: the DIMACS writer against `dd`, then the compressors.
    pub dd: Option<Vec<u32>>,
    /// `--export`: only the export throughput table.
    pub export: bool,
    /// `--count Q,A`: counting speed up to Q queens and A amazons.
    pub count: Option<Vec<u32>>,
    /// `--threads T,...` (with `--count`): the specialised engine's thread counts.
    pub threads: Option<Vec<usize>>,
    /// `--repeat R`: runs per timing (`--count`), or alternating runs (`--dd`, 1 meaning the
    /// default 5).
    pub repeat: usize,
    /// `--amo`: the encoding of `--count`, or the encodings `hard` races (`all`).
    pub amo: Option<String>,
    /// `--solvers S,...` (`hard`).
    pub solvers: Option<String>,
    /// `--portfolio SPEC`, repeated (`hard`).
    pub portfolio: Vec<String>,
    /// `--seeds K` (`hard`).
    pub seeds: Option<u64>,
    /// `--timeout SECS` (`hard`).
    pub timeout: Option<u32>,
    /// `--jobs J` (`hard`).
    pub jobs: Option<usize>,
    /// `--csv FILE` (`hard`).
    pub csv: Option<PathBuf>,
    /// `--resume` (`hard --csv`).
    pub resume: bool,
    /// `--tail` (`hard`).
    pub tail: bool,
    /// `--frontier` (`hard`).
    pub frontier: bool,
    /// `--list` (`hard`).
    pub list: bool,
    /// `--sample K` (`hard`).
    pub sample: Option<usize>,
    /// `--cactus FILE.svg` (`hard`).
    pub cactus: Option<PathBuf>,
    /// `--plot FILE.svg` (`hard`).
    pub plot: Option<PathBuf>,
    /// `--implied WHICH` (`hard`).
    pub implied: Option<String>,
}

impl BenchFlags {
    /// The first option given that only `bench hard` reads, if any: elsewhere it would be
    /// accepted and ignored.
    fn hard_only(&self) -> Option<&'static str> {
        [
            (self.solvers.is_some(), "--solvers"),
            (!self.portfolio.is_empty(), "--portfolio"),
            (self.seeds.is_some(), "--seeds"),
            (self.timeout.is_some(), "--timeout"),
            (self.jobs.is_some(), "--jobs"),
            (self.csv.is_some(), "--csv"),
            (self.resume, "--resume"),
            (self.tail, "--tail"),
            (self.frontier, "--frontier"),
            (self.list, "--list"),
            (self.sample.is_some(), "--sample"),
            (self.cactus.is_some(), "--cactus"),
            (self.plot.is_some(), "--plot"),
            (self.implied.is_some(), "--implied"),
        ]
        .into_iter()
        .find_map(|(given, flag)| given.then_some(flag))
    }

    /// The benchmark these flags ask for, every option checked first: one that the benchmark
    /// would not read is a usage error naming it, as is a bad count, encoding, solver or
    /// portfolio. Public (feature `harness`) for the program's `bench`.
    pub fn task(self) -> Result<BenchTask> {
        if !self.hard {
            if let Some(flag) = self.hard_only() {
                return Err(Error::Usage(format!(
                    "{flag} applies to `bench hard` only: the other benchmarks do not read it"
                )));
            }
            if self.amo.is_some() && self.count.is_none() {
                return Err(Error::Usage(
                    "--amo applies to `bench hard` and `bench --count` only: the other \
                     benchmarks do not read it"
                        .into(),
                ));
            }
        }
        if let Some(ns) = &self.dd {
            return Ok(BenchTask::Dd {
                ns: ns.clone(),
                runs: if self.repeat > 1 { self.repeat } else { 5 },
            });
        }
        if self.export {
            return Ok(BenchTask::Export { quick: self.quick });
        }
        Ok(
            match (self.hard, self.memory.as_deref(), self.count.as_deref()) {
                (true, _, _) => BenchTask::Hard(self.hard_options()?),
                (false, Some(ns), _) => BenchTask::Memory { ns: ns.to_vec() },
                (false, None, Some([q, ams])) => {
                    let all = crate::cpu::cores();
                    let threads = self.threads.clone().unwrap_or_else(|| vec![all]);
                    if threads.is_empty() || threads.contains(&0) || self.repeat == 0 {
                        return Err(Error::Usage(
                            "--threads takes counts >= 1, --repeat at least 1".into(),
                        ));
                    }
                    BenchTask::Count {
                        max_queens: *q,
                        max_amazons: *ams,
                        amo: AmoKind::parse(self.amo.as_deref().unwrap_or("pairwise"))?,
                        threads,
                        repeat: self.repeat,
                    }
                }
                (false, None, Some(_)) => return Err(Error::Usage("--count takes Q,A".into())),
                (false, None, None) => BenchTask::Tables { quick: self.quick },
            },
        )
    }

    /// The options of `bench hard`, every solver and portfolio checked before any run.
    fn hard_options(self) -> Result<HardOptions> {
        let amos = match self.amo.as_deref() {
            None | Some("all") => AmoKind::ALL.to_vec(),
            Some(list) => list.split(',').map(AmoKind::parse).collect::<Result<_>>()?,
        };
        let solvers: Vec<String> = match self.solvers.as_deref() {
            Some(list) => list.split(',').map(str::to_string).collect(),
            None => {
                let mut s = vec!["varisat".to_string()];
                if resolve_solver("cadical").is_ok() {
                    s.push("cadical".into());
                }
                s
            }
        };
        for s in &solvers {
            // The default strategy, cube-and-conquer and the backend table's in-process names
            // need no program; anything else is an external one.
            let in_process = ["auto", CUBES].contains(&s.as_str()) || registry::find(s).is_some();
            if !in_process {
                resolve_solver(s)?;
            }
        }
        for spec in &self.portfolio {
            // Checked here so that a typo fails before the first run, not in every child.
            parse_portfolio(spec, EncodeOptions::from(AmoKind::DEFAULT))?;
        }
        let (timeout, jobs) = (self.timeout.unwrap_or(60), self.jobs.unwrap_or(1));
        if timeout == 0 || jobs == 0 {
            return Err(Error::Usage(
                "--timeout and --jobs must be at least 1".into(),
            ));
        }
        let seeds = self.seeds.unwrap_or(if self.quick { 1 } else { 2 });
        if seeds == 0 {
            return Err(Error::Usage("--seeds must be at least 1".into()));
        }
        Ok(HardOptions {
            quick: self.quick,
            seeds,
            timeout,
            jobs,
            solvers,
            amos,
            portfolios: self.portfolio,
            csv: self.csv,
            resume: self.resume,
            set: if self.frontier {
                HardSet::Frontier
            } else if self.tail {
                HardSet::Tail
            } else {
                HardSet::Standard
            },
            sample: self.sample,
            cactus: self.cactus,
            plot: self.plot,
            list: self.list,
            implied: self.implied.map(|name| Implied::parse(&name)).transpose()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags() -> BenchFlags {
        BenchFlags {
            repeat: 1,
            ..BenchFlags::default()
        }
    }

    /// No option: the standard tables; an option of `bench hard` elsewhere is refused by name,
    /// and `--amo` outside `hard` and `--count` too.
    #[test]
    fn options_apply_only_where_read() {
        assert!(matches!(
            flags().task().unwrap(),
            BenchTask::Tables { quick: false }
        ));
        let seeds = BenchFlags {
            seeds: Some(3),
            ..flags()
        };
        let e = seeds.task().unwrap_err().to_string();
        assert!(e.contains("--seeds applies to `bench hard` only"), "{e}");
        let amo = BenchFlags {
            amo: Some("pairwise".into()),
            memory: Some(vec![100]),
            ..flags()
        };
        let e = amo.task().unwrap_err().to_string();
        assert!(
            e.contains("--amo applies to `bench hard` and `bench --count`"),
            "{e}"
        );
    }

    /// `--count Q,A` takes two numbers and its encoding; `--dd` runs 5 by default.
    #[test]
    fn count_and_dd_tasks() {
        let count = BenchFlags {
            count: Some(vec![9, 11]),
            amo: Some("sequential".into()),
            threads: Some(vec![2]),
            ..flags()
        };
        let BenchTask::Count {
            max_queens,
            max_amazons,
            amo,
            threads,
            repeat,
        } = count.task().unwrap()
        else {
            panic!("a count task")
        };
        assert_eq!(
            (max_queens, max_amazons, threads, repeat),
            (9, 11, vec![2], 1)
        );
        assert_eq!(amo, AmoKind::parse("sequential").unwrap());
        let one = BenchFlags {
            count: Some(vec![9]),
            ..flags()
        };
        assert!(
            one.task()
                .unwrap_err()
                .to_string()
                .contains("--count takes Q,A")
        );
        let dd = BenchFlags {
            dd: Some(vec![100]),
            ..flags()
        };
        assert!(matches!(dd.task().unwrap(), BenchTask::Dd { runs: 5, .. }));
    }

    /// `bench hard`: defaults filled in (one seed with `--quick`, 60 s, one job), a zero
    /// refused, and the set chosen by `--frontier` / `--tail`.
    #[test]
    fn hard_defaults_and_checks() {
        let hard = BenchFlags {
            hard: true,
            quick: true,
            solvers: Some("varisat".into()),
            amo: Some("pairwise".into()),
            tail: true,
            ..flags()
        };
        let BenchTask::Hard(o) = hard.clone().task().unwrap() else {
            panic!("a hard task")
        };
        assert_eq!((o.seeds, o.timeout, o.jobs), (1, 60, 1));
        assert_eq!(o.solvers, ["varisat"]);
        assert_eq!(o.amos, [AmoKind::Pairwise]);
        assert_eq!(o.set, HardSet::Tail);
        let zero = BenchFlags {
            jobs: Some(0),
            ..hard
        };
        let e = zero.task().unwrap_err().to_string();
        assert!(e.contains("--timeout and --jobs must be at least 1"), "{e}");
    }
}
