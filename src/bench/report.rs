//! The tables of `bench hard` built from its results: per family the answers, per configuration
//! solved / total / max (and the virtual best), the cross-check of SAT against UNSAT answers,
//! the tail statistics, and the per-n statistics of the excluded-diagonal runs with the lines
//! of their plot. Pure functions of the results; they run nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::generate::Generator;
use crate::solve::Answer;
use crate::suite::cactus::{ByN, Tail, tail};

use super::types::{Config, Group, HardInstance, HardOptions, Results, RunOutcome, RunResult};

/// The printed tables and the problems found (wrong answers, failed runs).
pub struct Report {
    /// Markdown tables and notes.
    pub text: String,
    /// Disagreements and failures; the bench fails when there are any.
    pub problems: Vec<String>,
}

/// Solved count, total seconds (an unsolved run counts the timeout) and maximum seconds over
/// the solved runs, plus whether any run was unsolved.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    runs: usize,
    solved: usize,
    total: f64,
    max: f64,
}

impl Tally {
    fn add(&mut self, r: &RunResult, timeout: f64) {
        self.runs += 1;
        match r.outcome {
            Ok(Answer::Sat(()) | Answer::Unsat) => {
                self.solved += 1;
                self.total += r.seconds;
                self.max = self.max.max(r.seconds);
            }
            _ => {
                self.total += timeout;
                self.max = self.max.max(timeout);
            }
        }
    }

    fn cells(&self) -> String {
        let max = if self.solved < self.runs {
            "timeout".to_string()
        } else {
            format!("{:.2}", self.max)
        };
        format!("{}/{} | {:.1} | {max}", self.solved, self.runs, self.total)
    }
}

/// Builds the tables from the results: per group and configuration, the virtual best solver,
/// the answers per family, and the cross-check of SAT against UNSAT answers.
pub fn report(
    set: &[HardInstance],
    configs: &[Config],
    results: &Results,
    opts: &HardOptions,
) -> Report {
    let timeout = f64::from(opts.timeout);
    let mut text = String::new();
    let mut problems = Vec::new();
    let groups: Vec<Group> = {
        let mut g: Vec<Group> = set.iter().map(|i| i.group).collect();
        g.sort();
        g.dedup();
        g
    };
    // Answers per instance; a SAT and an UNSAT answer on one instance is a wrong answer.
    let mut answer: Vec<Option<bool>> = vec![None; set.len()];
    for (&(i, c), r) in results {
        let sat = match &r.outcome {
            Ok(Answer::Sat(())) => true,
            Ok(Answer::Unsat) => false,
            Ok(Answer::Unknown(_)) => continue,
            Err(why) => {
                problems.push(format!("{} {}: {why}", set[i].name(), configs[c].label()));
                continue;
            }
        };
        match answer[i] {
            Some(a) if a != sat => problems.push(format!(
                "{}: {} answered {} but another configuration {}",
                set[i].name(),
                configs[c].label(),
                if sat { "SAT" } else { "UNSAT" },
                if a { "SAT" } else { "UNSAT" }
            )),
            _ => answer[i] = Some(sat),
        }
    }

    let _ = writeln!(
        text,
        "## bench hard: {} instances x {} configurations, timeout {} s, {} job(s) at a time",
        set.len(),
        configs.len(),
        opts.timeout,
        opts.jobs
    );
    let _ = writeln!(text);
    // The instance families and their answers.
    let _ = writeln!(
        text,
        "| family | instances | SAT | UNSAT | unsolved by all |"
    );
    let _ = writeln!(text, "|---|---|---|---|---|");
    // Per (group, n): the generator parameters used, and instances / SAT / UNSAT / unsolved.
    let mut families: BTreeMap<(Group, u32), (BTreeSet<String>, [usize; 4])> = BTreeMap::new();
    for (i, inst) in set.iter().enumerate() {
        let (params, c) = families.entry((inst.group, inst.n)).or_default();
        params.insert(match inst.generator {
            Generator::Blocked { m, .. } => format!("m={m}"),
            Generator::Diagonals { diags: Some(d), .. } => format!("{d} diagonals"),
            _ => String::new(),
        });
        c[0] += 1;
        c[match answer[i] {
            Some(true) => 1,
            Some(false) => 2,
            None => 3,
        }] += 1;
    }
    for ((group, n), (params, c)) in &families {
        let params: Vec<&str> = params.iter().map(String::as_str).collect();
        let _ = writeln!(
            text,
            "| {} n={n} {} | {} | {} | {} | {} |",
            group.title(),
            params.join(","),
            c[0],
            c[1],
            c[2],
            c[3]
        );
    }
    let _ = writeln!(text);

    // Per configuration: solved / total / max per group and overall.
    let mut header = String::from("| configuration |");
    let mut rule = String::from("|---|");
    for g in &groups {
        let _ = write!(header, " {} solved | total s | max s |", g.title());
        rule.push_str("---|---|---|");
    }
    header.push_str(" all solved | total s | max s |");
    rule.push_str("---|---|---|");
    let _ = writeln!(
        text,
        "Per configuration (an unsolved run counts {} s in the total; ranked by solved, then total):",
        opts.timeout
    );
    let _ = writeln!(text);
    let _ = writeln!(text, "{header}");
    let _ = writeln!(text, "{rule}");
    let mut rows: Vec<(usize, f64, String, String)> = Vec::new();
    for (c, config) in configs.iter().enumerate() {
        let mut per_group = vec![Tally::default(); groups.len()];
        let mut all = Tally::default();
        for (i, inst) in set.iter().enumerate() {
            if let Some(r) = results.get(&(i, c)) {
                let g = groups.iter().position(|&g| g == inst.group).expect("group");
                per_group[g].add(r, timeout);
                all.add(r, timeout);
            }
        }
        let mut row = format!("| {} |", config.label());
        for t in &per_group {
            let _ = write!(row, " {} |", t.cells());
        }
        let _ = write!(row, " {} |", all.cells());
        rows.push((all.solved, all.total, config.label(), row));
    }
    rows.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.total_cmp(&b.1)));
    for (_, _, _, row) in &rows {
        let _ = writeln!(text, "{row}");
    }
    // Virtual best: per instance the fastest configuration.
    let mut row = String::from("| virtual best (fastest per instance) |");
    let mut all = Tally::default();
    let mut per_group = vec![Tally::default(); groups.len()];
    for (i, inst) in set.iter().enumerate() {
        let best = (0..configs.len())
            .filter_map(|c| results.get(&(i, c)))
            .filter(|r| matches!(r.outcome, Ok(Answer::Sat(()) | Answer::Unsat)))
            .min_by(|a, b| a.seconds.total_cmp(&b.seconds));
        let unsolved = RunResult {
            outcome: Ok(Answer::Unknown("unsolved".into())),
            seconds: timeout,
        };
        let r = best.unwrap_or(&unsolved);
        let g = groups.iter().position(|&g| g == inst.group).expect("group");
        per_group[g].add(r, timeout);
        all.add(r, timeout);
    }
    for t in &per_group {
        let _ = write!(row, " {} |", t.cells());
    }
    let _ = write!(row, " {} |", all.cells());
    let _ = writeln!(text, "{row}");
    let _ = writeln!(text);

    if let Some((_, _, label, _)) = rows.first() {
        let _ = writeln!(text, "Winner: {label}");
    }
    for p in &problems {
        let _ = writeln!(text, "- PROBLEM: {p}");
    }
    Report { text, problems }
}

/// One configuration's runs on the diagonal instances of one family and side n.
#[derive(Clone, Debug)]
pub struct NStats {
    /// Runs (instances run by this configuration).
    pub instances: usize,
    /// Runs answered SAT.
    pub sat: usize,
    /// Runs answered UNSAT.
    pub unsat: usize,
    /// Solved count, median, p90, max ([`crate::suite::cactus::tail`]).
    pub tail: Tail,
}

/// Per (configuration, diagonal group, n): the statistics of the excluded-diagonal runs
/// (solved directly or reduced to completion); blocked instances are left out.
pub fn by_n(
    set: &[HardInstance],
    configs: &[Config],
    results: &Results,
) -> BTreeMap<(usize, Group, u32), NStats> {
    let mut runs: BTreeMap<(usize, Group, u32), Vec<&RunResult>> = BTreeMap::new();
    for (&(i, c), r) in results {
        let inst = &set[i];
        if inst.group != Group::Blocked && c < configs.len() {
            runs.entry((c, inst.group, inst.n)).or_default().push(r);
        }
    }
    runs.into_iter()
        .map(|(k, rs)| {
            let count = |a: fn(&RunOutcome) -> bool| rs.iter().filter(|r| a(&r.outcome)).count();
            let times: Vec<Option<f64>> = rs
                .iter()
                .map(|r| {
                    matches!(r.outcome, Ok(Answer::Sat(()) | Answer::Unsat)).then_some(r.seconds)
                })
                .collect();
            let stats = NStats {
                instances: rs.len(),
                sat: count(|o| matches!(o, Ok(Answer::Sat(())))),
                unsat: count(|o| matches!(o, Ok(Answer::Unsat))),
                tail: tail(&times),
            };
            (k, stats)
        })
        .collect()
}

/// The per-n table of [`by_n`]: per configuration and n, instances, solved, SAT, UNSAT,
/// median, p90 and max seconds (`-`: the statistic falls on an unsolved run).
pub fn by_n_table(configs: &[Config], by_n: &BTreeMap<(usize, Group, u32), NStats>) -> String {
    let cell = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{s:.2}"));
    let mut text = String::from(
        "\nPer n, excluded diagonals (seconds; `-`: falls on an unsolved run):\n\n| configuration | family | n | instances | solved | SAT | UNSAT | median | p90 | max |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (&(c, group, n), s) in by_n {
        let _ = writeln!(
            text,
            "| {} | {} | {n} | {} | {} | {} | {} | {} | {} | {} |",
            configs[c].label(),
            group.title(),
            s.instances,
            s.tail.solved,
            s.sat,
            s.unsat,
            cell(s.tail.median),
            cell(s.tail.p90),
            cell(s.tail.max)
        );
    }
    text
}

/// The lines of the `--plot` picture: one per configuration and diagonal group (the group named
/// only when the reduced instances are there too).
pub fn by_n_series(configs: &[Config], by_n: &BTreeMap<(usize, Group, u32), NStats>) -> Vec<ByN> {
    let both = by_n.keys().any(|k| k.1 == Group::Completion)
        && by_n.keys().any(|k| k.1 == Group::Diagonals);
    let mut series: BTreeMap<(usize, Group), ByN> = BTreeMap::new();
    for (&(c, group, n), s) in by_n {
        series
            .entry((c, group))
            .or_insert_with(|| ByN {
                label: if both {
                    format!("{} {}", configs[c].label(), group.title())
                } else {
                    configs[c].label()
                },
                points: Vec::new(),
            })
            .points
            .push((n, s.tail.median, s.tail.max));
    }
    series.into_values().collect()
}

/// Per configuration: solved count, median, p90, p99 and max seconds, and the sum over solved
/// runs (percentiles count an unsolved run as slower than any; `-` marks one that falls on an
/// unsolved run).
pub fn tail_table(set: &[HardInstance], configs: &[Config], results: &Results) -> String {
    let cell = |v: Option<f64>| v.map_or("-".to_string(), |s| format!("{s:.2}"));
    let mut text = String::from(
        "\nTail (seconds; `-`: falls on an unsolved run):\n\n| configuration | solved | median | p90 | p99 | max | sum of solved |\n|---|---|---|---|---|---|---|\n",
    );
    for (c, config) in configs.iter().enumerate() {
        let runs: Vec<Option<f64>> = (0..set.len())
            .filter_map(|i| results.get(&(i, c)))
            .map(|r| match r.outcome {
                Ok(Answer::Sat(()) | Answer::Unsat) => Some(r.seconds),
                _ => None,
            })
            .collect();
        let t = tail(&runs);
        let _ = writeln!(
            text,
            "| {} | {}/{} | {} | {} | {} | {} | {:.1} |",
            config.label(),
            t.solved,
            t.runs,
            cell(t.median),
            cell(t.p90),
            cell(t.p99),
            cell(t.max),
            t.solved_sum
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::catalogue::{frontier_instances, instances};
    use crate::bench::types::HardSet;
    use crate::encode::amo::AmoKind;

    #[test]
    fn per_n_table_counts_unsolved_as_slowest() {
        let set: Vec<HardInstance> = frontier_instances()
            .unwrap()
            .into_iter()
            .filter(|i| i.seed <= 2 && i.n <= 24)
            .collect();
        let configs = vec![Config {
            solver: "auto".into(),
            amo: AmoKind::DEFAULT,
        }];
        let mut results = BTreeMap::new();
        for (i, inst) in set.iter().enumerate() {
            let outcome = match (inst.n, inst.seed) {
                (24, 1) => Ok(Answer::Unknown("time limit".into())),
                (_, 1) => Ok(Answer::Sat(())),
                _ => Ok(Answer::Unsat),
            };
            results.insert(
                (i, 0),
                RunResult {
                    outcome,
                    seconds: i as f64,
                },
            );
        }
        let stats = by_n(&set, &configs, &results);
        let text = by_n_table(&configs, &stats);
        // n = 22: 6 runs at 0..=5 s; n = 24: seed 1 unsolved, seed 2 solved at 7, 9, 11 s.
        assert!(
            text.contains("| auto auto | diagonals | 22 | 6 | 6 | 3 | 3 | 2.00 | 5.00 | 5.00 |"),
            "{text}"
        );
        assert!(
            text.contains("| auto auto | diagonals | 24 | 6 | 3 | 0 | 3 | 11.00 | - | - |"),
            "{text}"
        );
        let series = by_n_series(&configs, &stats);
        assert_eq!(series.len(), 1);
        assert_eq!(series[0].points[1], (24, Some(11.0), None));
    }

    #[test]
    fn report_flags_disagreement_and_ranks() {
        let set: Vec<HardInstance> = instances(true, 1).into_iter().take(2).collect();
        let configs = vec![
            Config {
                solver: "varisat".into(),
                amo: AmoKind::Product,
            },
            Config {
                solver: "varisat".into(),
                amo: AmoKind::Pairwise,
            },
        ];
        let opts = HardOptions {
            quick: true,
            seeds: 1,
            timeout: 10,
            jobs: 1,
            solvers: vec!["varisat".into()],
            amos: vec![AmoKind::Product, AmoKind::Pairwise],
            portfolios: Vec::new(),
            csv: None,
            resume: false,
            set: HardSet::Standard,
            sample: None,
            cactus: None,
            plot: None,
            list: false,
            implied: None,
        };
        let r = |sat: Option<bool>, seconds: f64| RunResult {
            outcome: Ok(match sat {
                Some(true) => Answer::Sat(()),
                Some(false) => Answer::Unsat,
                None => Answer::Unknown("time limit".into()),
            }),
            seconds,
        };
        let mut results = BTreeMap::new();
        results.insert((0, 0), r(Some(true), 1.0));
        results.insert((0, 1), r(None, 10.0));
        results.insert((1, 0), r(Some(false), 2.0));
        results.insert((1, 1), r(Some(false), 0.5));
        let rep = report(&set, &configs, &results, &opts);
        assert!(rep.problems.is_empty(), "{:?}", rep.problems);
        assert!(
            rep.text.contains("| varisat product | 2/2 | 3.0 | 2.00 |"),
            "{}",
            rep.text
        );
        assert!(
            rep.text
                .contains("| varisat pairwise | 1/2 | 10.5 | timeout |"),
            "{}",
            rep.text
        );
        assert!(
            rep.text
                .contains("virtual best (fastest per instance) | 2/2 | 1.5 | 1.00 |")
        );
        assert!(rep.text.contains("Winner: varisat product"));
        results.insert((1, 1), r(Some(true), 0.5));
        let rep = report(&set, &configs, &results, &opts);
        assert_eq!(rep.problems.len(), 1, "{:?}", rep.problems);
        assert!(rep.problems[0].contains("answered SAT but another configuration UNSAT"));
    }
}
