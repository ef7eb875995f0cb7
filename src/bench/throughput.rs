//! The throughput tables of `queens-sat bench`: DIMACS and export (OPB, LP, MiniZinc) writing,
//! time to first solution (each solve a child process, [`super::child`]), the peak memory of
//! streaming export and counting speed. Each writes a Markdown table to `out`, a row as soon as
//! it is measured. Speed targets live here, never in timed tests.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use crate::encode::amo::AmoKind;
use crate::error::{Error, Result};
use crate::export::dimacs::Output;
use crate::instance::Instance;
use crate::interrupt::Cancel;
use crate::piece::QUEEN;
use crate::presolve::Problem;

use super::child::{children_cpu_seconds, solve_child_json};

/// The error of a failed write to `out`.
fn io(e: std::io::Error) -> Error {
    Error::io("stdout", e)
}

/// A run longer than this (seconds) skips the larger sizes for that encoding.
const CAP_SECONDS: f64 = 60.0;

/// Hard limit of one solve run (seconds): the child is told `--timeout` this.
const LIMIT_SECONDS: u32 = 150;

/// Pairwise is skipped above this size (quadratic clause count: ~n^3 clauses in all).
const PAIRWISE_MAX_N: u32 = 200;

/// The standard tables of `queens-sat bench`, written to `out` (`quick`: smaller sizes): DIMACS
/// writing, export writing, and time to first solution for queens and amazons. `exe` is the
/// `queens-sat` binary: each solve runs as `exe solve ... --format json` in a child process, so
/// every run starts from a fresh process and a run past the time limit is really stopped;
/// raising `cancel` stops the bench with [`Error::Interrupted`].
pub fn run(quick: bool, exe: &Path, cancel: &Cancel, out: &mut dyn Write) -> Result<()> {
    write_table(quick, cancel, out)?;
    writeln!(out).map_err(io)?;
    export_table(quick, out)?;
    writeln!(out).map_err(io)?;
    let queens: &[u32] = if quick {
        &[50, 100, 200]
    } else {
        &[50, 100, 200, 400, 1000]
    };
    let amazons: &[u32] = if quick { &[50] } else { &[50, 100] };
    for (piece, sizes) in [("queen", queens), ("amazon", amazons)] {
        solve_table(exe, cancel, piece, sizes, out)?;
        writeln!(out).map_err(io)?;
    }
    Ok(())
}

/// DIMACS encode + write throughput, best of three, every encoding.
fn write_table(quick: bool, cancel: &Cancel, out: &mut dyn Write) -> Result<()> {
    let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
    writeln!(
        out,
        "## DIMACS encode + write (atomic file, fsync included; best of 3)"
    )
    .map_err(io)?;
    writeln!(out, "| n | amo | vars | clauses | MB | seconds | MB/s |").map_err(io)?;
    writeln!(out, "|---|---|---|---|---|---|---|").map_err(io)?;
    let write_sizes: &[u32] = if quick { &[50, 100] } else { &[100, 200] };
    for &n in write_sizes {
        for amo in AmoKind::ALL {
            // Best of three: presolve + encode + write + fsync + rename.
            let path = dir.path().join(format!("q{n}-{amo}.cnf"));
            let (r, secs) = best_of_3(|| {
                let problem = Problem::presolve(&Instance::plain(n), QUEEN)?;
                crate::export::export(
                    &Output::File(path.clone()),
                    crate::export::Format::Dimacs,
                    &problem,
                    amo,
                    None,
                    cancel,
                )
            })?;
            let mb = r.bytes as f64 / 1e6;
            writeln!(
                out,
                "| {n} | {amo} | {} | {} | {mb:.1} | {secs:.3} | {:.0} |",
                r.stats.vars,
                r.stats.clauses,
                mb / secs
            )
            .map_err(io)?;
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(())
}

/// Export throughput per format (`bench --export`, and part of `bench`): presolve + walk +
/// formatting into a sink (no file, so no disk or fsync in the numbers), best of 3, on plain
/// queens and amazons. DIMACS rows use `--amo pairwise` (no auxiliaries, like the 0-1 models;
/// only up to n = 200) and `auto`. Rates per constraint (clause), per term (literal; domain value
/// for MiniZinc) and per byte.
pub fn export_table(quick: bool, out: &mut dyn Write) -> Result<()> {
    use crate::export::{self, Format};
    use crate::piece::AMAZON;
    writeln!(out, "## Export encode + write to a sink (best of 3)").map_err(io)?;
    writeln!(out, "| piece | n | format | constraints | terms | MB | seconds | M constraints/s | M terms/s | MB/s |"
    ).map_err(io)?;
    writeln!(out, "|---|---|---|---|---|---|---|---|---|---|").map_err(io)?;
    let sizes: &[(u32, bool)] = if quick {
        &[(100, false), (200, true)]
    } else {
        &[(200, false), (2000, false), (1000, true)]
    };
    for &(n, amazon) in sizes {
        let piece = if amazon { AMAZON } else { QUEEN };
        // Every registered format; a CNF once per AMO encoding worth comparing.
        let mut runs: Vec<(Format, AmoKind, String)> = Vec::new();
        for f in Format::ALL {
            if !f.is_cnf() {
                runs.push((f, AmoKind::DEFAULT, f.name().to_string()));
                continue;
            }
            if n <= PAIRWISE_MAX_N {
                runs.push((f, AmoKind::Pairwise, format!("{f} pairwise")));
            }
            runs.push((
                f,
                AmoKind::DEFAULT,
                format!("{f} {}", AmoKind::DEFAULT.name()),
            ));
        }
        for (format, amo, name) in runs {
            let (r, secs) = best_of_3(|| {
                let problem = Problem::presolve(&Instance::plain(n), piece)?;
                Ok(export::write(format, std::io::sink(), &problem, amo, None)?.1)
            })?;
            let mb = r.bytes as f64 / 1e6;
            writeln!(
                out,
                "| {} | {n} | {name} | {} | {} | {mb:.1} | {secs:.3} | {:.2} | {:.1} | {:.0} |",
                piece.name,
                r.stats.clauses,
                r.stats.literals,
                r.stats.clauses as f64 / secs / 1e6,
                r.stats.literals as f64 / secs / 1e6,
                mb / secs
            )
            .map_err(io)?;
        }
    }
    Ok(())
}

/// What one child `solve` run reported.
struct Run {
    status: String,
    vars: u64,
    clauses: u64,
    encode: f64,
    solve: f64,
    /// Wall-clock seconds of the whole child (start-up, presolve, encode, solve, verify).
    total: f64,
    /// CPU seconds (user + system) of the child: steadier than wall clock on a busy machine.
    cpu: f64,
}

/// Solves `-n n --piece piece --amo amo` in a child process.
fn solve_child(exe: &Path, cancel: &Cancel, piece: &str, n: u32, amo: AmoKind) -> Result<Run> {
    let cpu0 = children_cpu_seconds();
    let (n_arg, amo_arg) = (n.to_string(), amo.name());
    let args: [&OsStr; 6] = [
        "-n".as_ref(),
        n_arg.as_ref(),
        "--piece".as_ref(),
        piece.as_ref(),
        "--amo".as_ref(),
        amo_arg.as_ref(),
    ];
    let child = solve_child_json(exe, &args, LIMIT_SECONDS, cancel)?;
    let cpu = children_cpu_seconds() - cpu0;
    let bad = |why: String| Error::Solver(format!("bench: {piece} n={n} amo={amo}: {why}"));
    let v = child.report.map_err(bad)?;
    // The throughput table needs the CNF's size: a solve that did not count it is an error here.
    let (Some(vars), Some(clauses)) = (v.vars, v.clauses) else {
        return Err(bad(v.size_omitted.unwrap_or_else(|| "no CNF size".into())));
    };
    Ok(Run {
        status: v.status,
        vars,
        clauses,
        encode: v.encode_seconds,
        solve: v.solve_seconds,
        total: child.seconds,
        cpu,
    })
}

/// Time to first solution for every encoding at each size; an encoding that needed more than
/// [`CAP_SECONDS`] (or hit the time limit) is skipped at the larger sizes.
fn solve_table(
    exe: &Path,
    cancel: &Cancel,
    piece: &str,
    sizes: &[u32],
    out: &mut dyn Write,
) -> Result<()> {
    writeln!(
        out,
        "## Time to first solution, {piece}s, varisat (child process per run, limit \
         {LIMIT_SECONDS} s; total = wall clock of the run, cpu = its user + system time)"
    )
    .map_err(io)?;
    writeln!(
        out,
        "| n | amo | vars | clauses | encode s | solve s | total s | cpu s |"
    )
    .map_err(io)?;
    writeln!(out, "|---|---|---|---|---|---|---|---|").map_err(io)?;
    let mut capped: Vec<(AmoKind, u32)> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    for &n in sizes {
        for amo in AmoKind::ALL {
            if amo == AmoKind::Pairwise && n > PAIRWISE_MAX_N {
                continue;
            }
            if let Some(&(_, at)) = capped.iter().find(|(a, _)| *a == amo) {
                writeln!(
                    out,
                    "| {n} | {amo} | | | | | skipped (> {CAP_SECONDS} s at n = {at}) | |"
                )
                .map_err(io)?;
                continue;
            }
            let r = solve_child(exe, cancel, piece, n, amo)?;
            let status = match r.status.as_str() {
                "SAT" => String::new(),
                "UNKNOWN" => format!(" (time limit {LIMIT_SECONDS} s)"),
                other => format!(" ({other}!)"),
            };
            writeln!(
                out,
                "| {n} | {amo} | {} | {} | {:.3} | {:.3} | {:.3}{status} | {:.3} |",
                r.vars, r.clauses, r.encode, r.solve, r.total, r.cpu
            )
            .map_err(io)?;
            if r.total > CAP_SECONDS || r.status != "SAT" {
                capped.push((amo, n));
                let rest = if sizes.iter().any(|&m| m > n) {
                    "larger n skipped"
                } else {
                    "the largest size anyway"
                };
                notes.push(format!(
                    "{amo} took {:.1} s at n = {n}, over the {CAP_SECONDS} s cap: {rest}",
                    r.total
                ));
            }
        }
    }
    if sizes.iter().any(|&n| n > PAIRWISE_MAX_N) {
        notes.push(format!(
            "pairwise is not run above n = {PAIRWISE_MAX_N} (~n^3 clauses: gigabytes at n = 400)"
        ));
    }
    for note in notes {
        writeln!(out, "- {note}").map_err(io)?;
    }
    Ok(())
}

/// Peak memory of streaming DIMACS export: runs `exe encode -n N --amo sequential -o FILE` as a
/// child process for each `n` (ascending, in a temporary folder under the current one) and
/// writes the file size, time and the child's peak RSS (`getrusage(RUSAGE_CHILDREN)`, which is
/// the maximum over the children so far) to `out`.
pub fn memory(exe: &Path, ns: &[u32], out: &mut dyn Write) -> Result<()> {
    let dir = tempfile::tempdir_in(".").map_err(|e| Error::io("temp dir in .", e))?;
    writeln!(
        out,
        "## Streaming export memory: encode --amo sequential -o FILE"
    )
    .map_err(io)?;
    writeln!(out, "| n | file GB | seconds | MB/s | peak RSS MB |").map_err(io)?;
    writeln!(out, "|---|---|---|---|---|").map_err(io)?;
    let mut sorted = ns.to_vec();
    sorted.sort_unstable();
    for n in sorted {
        let path = dir.path().join(format!("seq-{n}.cnf"));
        let t = Instant::now();
        let status = std::process::Command::new(exe)
            .args(["encode", "-n", &n.to_string(), "--amo", "sequential", "-o"])
            .arg(&path)
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| Error::io(exe.display().to_string(), e))?;
        let secs = t.elapsed().as_secs_f64();
        if !status.success() {
            return Err(Error::Solver(format!("encode -n {n} failed: {status}")));
        }
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let _ = std::fs::remove_file(&path);
        // SAFETY: getrusage fills the struct we pass; RUSAGE_CHILDREN covers waited children.
        let rss_kb = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
            usage.ru_maxrss
        };
        writeln!(
            out,
            "| {n} | {:.2} | {secs:.1} | {:.0} | {:.0} |",
            bytes as f64 / 1e9,
            bytes as f64 / 1e6 / secs,
            rss_kb as f64 / 1024.0
        )
        .map_err(io)?;
    }
    Ok(())
}

/// Counting speed (`queens-sat bench --count Q,A`), written to `out`, for queens
/// `8..=max_queens` and amazons `10..=max_amazons`: the SAT engine with encoding `amo` (queens
/// n <= 12, amazons n <= 13 only), the general row-by-row search and the specialised one that
/// `count --engine backtrack` runs, once per entry of `threads`; each timing the fastest of
/// `repeat` runs. Every engine must give the same counts, and the published ones where known
/// (else an error).
pub fn count_table(
    max_queens: u32,
    max_amazons: u32,
    amo: AmoKind,
    threads: &[usize],
    repeat: usize,
    out: &mut dyn Write,
) -> Result<()> {
    use crate::count::backtrack::{count_fast, count_general};
    use crate::count::reference::check;
    use crate::count::{CountEngine, Counter, Counts};
    use crate::piece::AMAZON;
    use crate::symmetry::stabiliser;
    let most = *threads.iter().max().unwrap_or(&1);
    writeln!(out, "## Counting: total, fixed points, unique (Burnside); sat engine with --amo {amo} on {most} threads; fastest of {repeat}"
    ).map_err(io)?;
    let fast_heads: Vec<String> = threads
        .iter()
        .map(|t| format!("backtrack s ({t} thr.)"))
        .collect();
    writeln!(
        out,
        "| piece | n | total | unique | sat s | general s ({most} thr.) | {} |",
        fast_heads.join(" | ")
    )
    .map_err(io)?;
    writeln!(
        out,
        "|---|---|---|---|---|---|{}",
        "---|".repeat(threads.len())
    )
    .map_err(io)?;
    let rows = (8..=max_queens)
        .map(|n| (QUEEN, n, 12))
        .chain((10..=max_amazons).map(|n| (AMAZON, n, 13)));
    let best = |f: &dyn Fn() -> Result<Counts>| -> Result<(Counts, f64)> {
        let mut out = None;
        for _ in 0..repeat {
            let t = Instant::now();
            let c = f()?;
            let s = t.elapsed().as_secs_f64();
            out = Some(match out {
                Some((c0, s0)) if s0 <= s => (c0, s0),
                _ => (c, s),
            });
        }
        Ok(out.expect("repeat >= 1"))
    };
    for (piece, n, sat_max) in rows {
        let inst = Instance::plain(n);
        let group = stabiliser(&inst, &piece);
        // Burnside and the published table checked, as for every count.
        let tally = |t: crate::count::backtrack::Tally| {
            Counts::from_fixed(&inst, &piece, group.clone(), t.fixed)
        };
        let cancel = Cancel::new();
        let mut results: Vec<(String, Counts)> = Vec::new();
        let sat_s = if n <= sat_max {
            let (c, s) = best(&|| {
                Counter::new(&inst, piece)
                    .engine(CountEngine::Sat)
                    .amo(amo)
                    .jobs(most)
                    .counts()
            })?;
            results.push(("sat".into(), c));
            format!("{s:.3}")
        } else {
            "-".into()
        };
        let (c, general_s) =
            best(&|| count_general(&inst, piece, &group, most, &cancel).and_then(tally))?;
        results.push(("general".into(), c));
        let mut fast_s = Vec::new();
        for &t in threads {
            let (c, s) = best(&|| count_fast(&inst, piece, &group, t, &cancel).and_then(tally))?;
            results.push((format!("backtrack {t} thr."), c));
            fast_s.push(format!("{s:.3}"));
        }
        let (_, first) = &results[0];
        for (name, c) in &results {
            if c != first {
                return Err(Error::WrongAnswer(format!(
                    "{} n={n}: engines disagree: {} {first:?} vs {name} {c:?}",
                    piece.name, results[0].0
                )));
            }
        }
        check(&Instance::plain(n), &piece, first)?;
        writeln!(
            out,
            "| {} | {n} | {} | {} | {sat_s} | {general_s:.3} | {} |",
            piece.name,
            first.total,
            first.unique,
            fast_s.join(" | ")
        )
        .map_err(io)?;
    }
    Ok(())
}

/// Runs `f` three times: its last result and the fastest of the three wall times (seconds).
fn best_of_3<T>(mut f: impl FnMut() -> Result<T>) -> Result<(T, f64)> {
    let mut best = f64::INFINITY;
    let mut last = None;
    for _ in 0..3 {
        let t = Instant::now();
        last = Some(f()?);
        best = best.min(t.elapsed().as_secs_f64());
    }
    Ok((last.expect("three runs"), best))
}

/// Seconds of one child process run (`program args`), which must succeed.
fn timed_run(program: &OsStr, args: &[&OsStr]) -> Result<f64> {
    let t0 = Instant::now();
    let out = std::process::Command::new(program)
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .output()
        .map_err(|e| Error::io(program.to_string_lossy(), e))?;
    let secs = t0.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(Error::Solver(format!(
            "{} {:?} failed: {}",
            program.to_string_lossy(),
            args,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(secs)
}

/// The median of `xs`.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// `bench --dd N,...`: `queens-sat encode -n N --amo pairwise` (its defaults: atomic file,
/// fsync, no hash) against `dd bs=1M conv=fdatasync` copying the same bytes, `runs` alternating
/// runs each, medians reported; then `--gbdhash`, and the compressed outputs against `xz -T2`
/// on the same bytes. Every run is a child process, so each pays its own start.
pub fn dd_table(exe: &Path, ns: &[u32], runs: usize, out: &mut dyn Write) -> Result<()> {
    let dir = tempfile::tempdir_in(".").map_err(|e| Error::io("temp dir in .", e))?;
    let runs = runs.max(1);
    writeln!(
        out,
        "## DIMACS writer against dd (median of {runs} alternating runs, seconds; files in the current folder)"
    )
    .map_err(io)?;
    writeln!(out, "| n | MB | job | seconds | MB/s | x dd |").map_err(io)?;
    writeln!(out, "|---|---|---|---|---|---|").map_err(io)?;
    let os = |s: &str| s.to_string().into();
    for &n in ns {
        let plain = dir.path().join(format!("q{n}.cnf"));
        let copy = dir.path().join(format!("dd{n}.cnf"));
        let n_text = n.to_string();
        let encode = |extra: &[&str], path: &Path| -> Result<f64> {
            let mut args: Vec<std::ffi::OsString> =
                ["encode", "-n", &n_text, "--amo", "pairwise", "-o"]
                    .iter()
                    .map(|s| os(s))
                    .collect();
            args.push(path.as_os_str().to_owned());
            args.extend(extra.iter().map(|s| os(s)));
            let refs: Vec<&OsStr> = args.iter().map(|a| a.as_os_str()).collect();
            timed_run(exe.as_os_str(), &refs)
        };
        encode(&[], &plain)?; // warm-up, and the bytes dd copies
        let bytes = std::fs::metadata(&plain)
            .map_err(|e| Error::io(plain.display().to_string(), e))?
            .len();
        let mb = bytes as f64 / 1e6;
        let dd_args: Vec<std::ffi::OsString> = vec![
            format!("if={}", plain.display()).into(),
            format!("of={}", copy.display()).into(),
            os("bs=1M"),
            os("conv=fdatasync"),
            os("status=none"),
        ];
        let dd_refs: Vec<&OsStr> = dd_args.iter().map(|a| a.as_os_str()).collect();
        let target = dir.path().join(format!("w{n}.cnf"));
        let (mut ours, mut theirs, mut hashed) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..runs {
            ours.push(encode(&[], &target)?);
            theirs.push(timed_run(OsStr::new("dd"), &dd_refs)?);
            hashed.push(encode(&["--gbdhash"], &target)?);
        }
        let dd = median(theirs);
        let mut row = |job: &str, secs: f64| {
            writeln!(
                out,
                "| {n} | {mb:.1} | {job} | {secs:.3} | {:.0} | {:.2} |",
                mb / secs,
                secs / dd
            )
            .map_err(io)
        };
        row("dd bs=1M conv=fdatasync", dd)?;
        row("encode (defaults)", median(ours))?;
        row("encode --gbdhash", median(hashed))?;
        // Compressed: ours while streaming, against xz on two threads over the written bytes.
        for (name, level) in [("xz", "1"), ("gz", "6"), ("zst", "3")] {
            let path = dir.path().join(format!("w{n}.cnf.{name}"));
            let secs: Vec<f64> = (0..runs)
                .map(|_| encode(&["--level", level], &path))
                .collect::<Result<_>>()?;
            let size = std::fs::metadata(&path).map_or(0, |m| m.len());
            row(
                &format!(
                    "encode -o .cnf.{name} --level {level} ({:.1} MB)",
                    size as f64 / 1e6
                ),
                median(secs),
            )?;
        }
        let xz_out = dir.path().join("xz.out");
        let secs: Vec<f64> = (0..runs)
            .map(|_| {
                let t0 = Instant::now();
                let f = std::fs::File::create(&xz_out).map_err(|e| Error::io("xz.out", e))?;
                let status = std::process::Command::new("xz")
                    .args(["-T2", "-1", "-c"])
                    .arg(&plain)
                    .stdout(f)
                    .status()
                    .map_err(|e| Error::io("xz", e))?;
                if !status.success() {
                    return Err(Error::Solver("xz -T2 -1 failed".into()));
                }
                Ok(t0.elapsed().as_secs_f64())
            })
            .collect::<Result<_>>()?;
        let size = std::fs::metadata(&xz_out).map_or(0, |m| m.len());
        row(
            &format!(
                "xz -T2 -1 on the written file ({:.1} MB)",
                size as f64 / 1e6
            ),
            median(secs),
        )?;
    }
    Ok(())
}
