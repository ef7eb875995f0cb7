//! Cluster jobs end to end: `split` -> tasks run by a shell loop, GNU parallel, or a real Slurm
//! (`sbatch --wait`) -> `merge`, against the published counts (OEIS A000170 / A002562 for
//! queens, A051223 / A051224 for amazons) and the brute-force oracle; and the faults `merge`
//! must name: missing, corrupt, foreign and duplicate results, and a task killed halfway.

use crate::common;

use std::path::Path;
use std::process::Command;

use common::{BIN, run, run_expect};

/// `split KIND ARGS -o DIR --tasks T`, checked to succeed; returns DIR as a string.
fn split(d: &Path, name: &str, kind: &str, args: &[&str], tasks: usize) -> String {
    let dir = d.join(name).display().to_string();
    let t = tasks.to_string();
    let mut all: Vec<&str> = vec!["split", kind];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", &dir, "--tasks", &t]);
    run_expect(d, &all, 0);
    dir
}

/// Runs every task with `work`, one process each: the `tasks` asked for, or the job's fewer
/// where `split` capped them at its cube lines.
fn work_all(d: &Path, dir: &str, tasks: usize) {
    let job = queens_sat::cluster::Folder::open(Path::new(dir)).unwrap();
    assert!(job.tasks.len() <= tasks);
    for i in 0..job.tasks.len() {
        run_expect(d, &["work", dir, "--task", &i.to_string()], 0);
    }
}

/// Where the Slurm test keeps what `sbatch --wait` printed, in the job folder.
const SBATCH_OUT: &str = "sbatch.out";

/// `merge DIR`, expected to exit `code` without a panic; otherwise fails with everything needed
/// to tell why, since the job folder goes with the test's temporary directory: merge's output,
/// `merge --status`, what `sbatch --wait` printed ([`SBATCH_OUT`]), every file of `results/`
/// and `logs/` (the tasks' results, `.started` and `SOLVED` marks, their Slurm or GNU parallel
/// logs) and the names and sizes of `proofs/`.
fn merge_expect(d: &Path, dir: &str, code: i32) -> common::Run {
    let r = run(d, &["merge", dir]);
    if r.code == code && !r.stderr.contains("panicked") {
        return r;
    }
    let status = run(d, &["merge", dir, "--status"]);
    let mut files = match std::fs::read_to_string(Path::new(dir).join(SBATCH_OUT)) {
        Ok(said) => format!("--- {SBATCH_OUT}:\n{said}\n"),
        Err(_) => String::new(),
    };
    for sub in ["results", "logs", "proofs"] {
        let folder = Path::new(dir).join(sub);
        let Ok(entries) = std::fs::read_dir(&folder) else {
            files += &format!("--- {}: none\n", folder.display());
            continue;
        };
        let mut paths: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            let bytes = std::fs::read(&path).unwrap_or_default();
            if sub == "proofs" {
                files += &format!("--- {}: {} bytes\n", path.display(), bytes.len());
            } else {
                let text = String::from_utf8_lossy(&bytes);
                files += &format!("--- {}:\n{text}\n", path.display());
            }
        }
    }
    panic!(
        "queens-sat merge {dir}: expected exit {code}, got {}\nstdout:\n{}\nstderr:\n{}\n\
         merge --status (exit {}):\n{}{}\n{files}",
        r.code, r.stdout, r.stderr, status.code, status.stdout, status.stderr
    );
}

/// `total` and `unique` from `merge`'s text output (exit 10: solutions exist).
fn merged_counts(d: &Path, dir: &str) -> (u64, u64) {
    let r = merge_expect(d, dir, 10);
    let get = |key: &str| -> u64 {
        r.stdout
            .lines()
            .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no '{key}' in merge output:\n{}", r.stdout))
    };
    (get("total "), get("unique "))
}

/// Lines of a merge failure (exit 1) on stderr.
fn merge_problems(d: &Path, dir: &str) -> String {
    let r = run_expect(d, &["merge", dir], 1);
    assert!(r.stdout.is_empty(), "merge printed a result:\n{}", r.stdout);
    r.stderr
}

#[test]
fn counts_through_a_shell_loop_match_the_published_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // queens n=11: 2680 / 341; amazons n=13: 1876 / 239; each engine that counts cubes.
    for (args, tasks, want) in [
        (&["-n", "11"][..], 4, (2680, 341)),
        (&["-n", "11", "--engine", "sat"][..], 3, (2680, 341)),
        (&["-n", "10", "--engine", "cdcl"][..], 2, (724, 92)),
        (&["-n", "13", "--piece", "amazon"][..], 5, (1876, 239)),
        (
            &["-n", "12", "--piece", "amazon", "--engine", "sat"][..],
            2,
            (156, 22),
        ),
    ] {
        let name = format!("job-{}", args.join("_"));
        let dir = split(d, &name, "count", args, tasks);
        work_all(d, &dir, tasks);
        assert_eq!(merged_counts(d, &dir), want, "{args:?}");
    }
    // --symmetric r90 on 12-queens: 8 boards (A033148).
    let dir = split(d, "sym", "count", &["-n", "12", "--symmetric", "r90"], 2);
    work_all(d, &dir, 2);
    let r = run_expect(d, &["merge", &dir, "--format", "json"], 10);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["total"], 8);
    assert_eq!(v["symmetric"], "r90");
    // Issue 63: merging a `--symmetric` job prints what `count --symmetric` prints (it printed
    // `total` alone): the classes, the count's group and its fixed points, text and JSON.
    for (args, tasks) in [
        (&["-n", "10", "--symmetric", "r180"][..], 2),
        (&["-n", "12", "--symmetric", "r90"][..], 3),
        (
            &["-n", "10", "--symmetric", "r180", "--engine", "sat"][..],
            2,
        ),
        (&["-n", "8", "--symmetric", "flip_d"][..], 2),
    ] {
        let name = format!("sym-{}", args.join("_"));
        let dir = split(d, &name, "count", args, tasks);
        work_all(d, &dir, tasks);
        let mut direct = vec!["count"];
        direct.extend_from_slice(args);
        let strip = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.starts_with("seconds ") && !l.starts_with("engine "))
                .map(String::from)
                .collect()
        };
        // (Exit codes differ by design: merge's is the answer's, 10 or 20, count's 0.)
        let merged = run(d, &["merge", &dir]);
        let want = run_expect(d, &direct, 0);
        assert_eq!(strip(&merged.stdout), strip(&want.stdout), "{args:?}");
        assert!(merged.stdout.contains("unique "), "{}", merged.stdout);
        direct.extend_from_slice(&["--format", "json"]);
        let json = |text: &str| -> serde_json::Value {
            let mut v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
            for key in ["seconds", "engine", "rotations"] {
                v.as_object_mut().unwrap().remove(key);
            }
            v
        };
        let merged = run_expect(d, &["merge", &dir, "--format", "json"], merged.code);
        let want = run_expect(d, &direct, 0);
        assert_eq!(json(&merged.stdout), json(&want.stdout), "{args:?}");
    }
}

#[test]
fn json_merge_has_the_fixed_points_and_the_job_folder_is_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let dir = split(d, "q12", "count", &["-n", "12"], 3);
    for f in [
        "job.json",
        "instance.txt",
        "cubes",
        "tasks.tsv",
        "cubes.icnf",
        "run-slurm.sbatch",
        "run-parallel.sh",
    ] {
        assert!(Path::new(&dir).join(f).is_file(), "{f} missing");
    }
    let icnf = std::fs::read_to_string(Path::new(&dir).join("cubes.icnf")).unwrap();
    assert!(icnf.lines().any(|l| l == "p inccnf"));
    let cubes = std::fs::read_to_string(Path::new(&dir).join("cubes")).unwrap();
    let cube_lines = cubes
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("fixed"))
        .count();
    assert_eq!(
        icnf.lines().filter(|l| l.starts_with("a ")).count(),
        cube_lines
    );
    let sbatch = std::fs::read_to_string(Path::new(&dir).join("run-slurm.sbatch")).unwrap();
    assert!(sbatch.contains("#SBATCH --array=0-2"), "{sbatch}");
    work_all(d, &dir, 3);
    let r = run_expect(d, &["merge", &dir, "--format", "json"], 10);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    // 12-queens: 14200 / 1787, 8 fixed by r90 (A033148), 80 by r180 (A032522).
    assert_eq!(v["total"], 14200);
    assert_eq!(v["unique"], 1787);
    assert_eq!(v["fixed"]["r90"], 8);
    assert_eq!(v["fixed"]["r180"], 80);
    let s = run_expect(d, &["merge", &dir, "--status"], 0);
    assert!(
        s.stdout.contains("3 done, 0 running, 0 failed, 0 waiting"),
        "{}",
        s.stdout
    );
    // The same progress as JSON (it was printed as text).
    let s = run_expect(d, &["merge", &dir, "--status", "--format", "json"], 0);
    let v: serde_json::Value = serde_json::from_str(s.stdout.trim()).unwrap();
    assert_eq!(v["kind"], "count");
    assert_eq!(v["tasks"], 3);
    let p = &v["progress"];
    assert_eq!(
        (&p["done"], &p["running"], &p["failed"], &p["waiting"]),
        (&3.into(), &0.into(), &0.into(), &0.into()),
        "{v}"
    );
    assert_eq!(p["problems"], serde_json::json!([]));
}

#[test]
fn faults_are_named_and_never_counted() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let dir = split(d, "q10", "count", &["-n", "10"], 3);
    let other = split(d, "q9", "count", &["-n", "9"], 3);
    work_all(d, &dir, 3);
    work_all(d, &other, 3);
    let res = |job: &str, i: usize| Path::new(job).join("results").join(format!("{i}.json"));
    assert_eq!(merged_counts(d, &dir), (724, 92));

    // Deleted: named missing.
    let saved = std::fs::read_to_string(res(&dir, 1)).unwrap();
    std::fs::remove_file(res(&dir, 1)).unwrap();
    let e = merge_problems(d, &dir);
    assert!(e.contains("missing result for task 1"), "{e}");
    let s = run_expect(d, &["merge", &dir, "--status"], 0);
    assert!(
        s.stdout.contains("2 done, 0 running, 0 failed, 1 waiting"),
        "{}",
        s.stdout
    );

    // Corrupted: a count changed by hand (valid JSON), then a truncated file.
    let mut v: serde_json::Value = serde_json::from_str(&saved).unwrap();
    let c0 = v["counts"][0].as_u64().unwrap();
    v["counts"][0] = serde_json::json!(c0 + 1);
    std::fs::write(res(&dir, 1), v.to_string()).unwrap();
    let e = merge_problems(d, &dir);
    assert!(e.contains("1.json: corrupt result"), "{e}");
    std::fs::write(res(&dir, 1), &saved[..saved.len() / 2]).unwrap();
    let e = merge_problems(d, &dir);
    assert!(e.contains("1.json: corrupt result"), "{e}");

    // Foreign: task 1 of the 9-queens job in the 10-queens job's folder.
    std::fs::copy(res(&other, 1), res(&dir, 1)).unwrap();
    let e = merge_problems(d, &dir);
    assert!(e.contains("1.json: foreign result"), "{e}");

    // Re-run: the task is redone (the foreign file is not a valid result) and all is well.
    run_expect(d, &["work", &dir, "--task", "1"], 0);
    assert_eq!(merged_counts(d, &dir), (724, 92));

    // Duplicate: a second copy of task 2's result under another name is named, not counted.
    std::fs::copy(res(&dir, 2), Path::new(&dir).join("results/2-copy.json")).unwrap();
    let e = merge_problems(d, &dir);
    assert!(e.contains("duplicate results for task 2"), "{e}");
    std::fs::remove_file(Path::new(&dir).join("results/2-copy.json")).unwrap();

    // Rewriting a result is harmless; a finished task is skipped unless --redo.
    let r = run_expect(d, &["work", &dir, "--task", "0"], 0);
    assert!(r.stderr.contains("already done"), "{}", r.stderr);
    run_expect(d, &["work", &dir, "--task", "0", "--redo"], 0);
    assert_eq!(merged_counts(d, &dir), (724, 92));

    // Bad task numbers and folders are one-line errors.
    common::assert_one_line_error(d, &["work", &dir, "--task", "3"], &["--task 3", "0..2"]);
    common::assert_one_line_error(d, &["merge", "no-such-dir"], &["no-such-dir/job.json"]);
    // A folder that is not empty is not overwritten.
    common::assert_one_line_error(
        d,
        &["split", "count", "-n", "8", "-o", &dir],
        &["not empty"],
    );
}

#[test]
fn a_task_killed_halfway_leaves_no_result_and_is_redone() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // One task of 16-queens: seconds of work, killed after a fraction of it.
    let dir = split(d, "q16", "count", &["-n", "16"], 1);
    let mut child = Command::new(BIN)
        .args(["work", &dir, "--task", "0"])
        .spawn()
        .unwrap();
    // Killed as soon as it has started (its marker is written): a fixed delay could end
    // before the process starts on a loaded machine.
    let results = Path::new(&dir).join("results");
    let t0 = std::time::Instant::now();
    while !results.join("0.started").exists() && t0.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    assert!(
        !results.join("0.json").exists(),
        "a killed task left a result"
    );
    assert!(results.join("0.started").exists());
    let s = run_expect(d, &["merge", &dir, "--status"], 0);
    assert!(s.stdout.contains("0 done, 1 running"), "{}", s.stdout);
    let e = merge_problems(d, &dir);
    assert!(
        e.contains("missing result for task 0") && e.contains("started"),
        "{e}"
    );
    // The next run redoes it; 16-queens: 14772512 / 1846955.
    run_expect(d, &["work", &dir, "--task", "0"], 0);
    assert!(!results.join("0.started").exists());
    assert_eq!(merged_counts(d, &dir), (14_772_512, 1_846_955));
}

/// A whole run killed halfway (the shell loop and the task it was running, by process group)
/// and run again: the finished tasks are skipped, not redone (their results are untouched), the
/// killed one is redone, and the merged count is the published one, no task counted twice.
#[test]
fn a_run_killed_halfway_resumes_without_double_counting() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let tasks = 8;
    let dir = split(d, "q16", "count", &["-n", "16"], tasks);
    let results = Path::new(&dir).join("results");
    let script = format!(
        "for t in $(seq 0 {}); do '{BIN}' work '{dir}' --task $t || exit 1; done",
        tasks - 1
    );
    let done = || {
        (0..tasks)
            .filter(|t| results.join(format!("{t}.json")).exists())
            .count()
    };
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .process_group(0)
        .spawn()
        .unwrap();
    let pgid = child.id() as i32;
    let t0 = std::time::Instant::now();
    while done() < 3 && t0.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // SAFETY: kill(2) on the process group this test created; no memory is involved.
    unsafe { libc::kill(-pgid, libc::SIGKILL) };
    child.wait().unwrap();
    let finished = done();
    assert!(
        (3..tasks).contains(&finished),
        "killed after {finished} of {tasks} tasks"
    );
    let s = run_expect(d, &["merge", &dir, "--status"], 0);
    assert!(
        s.stdout.contains(&format!("{finished} done")),
        "{}",
        s.stdout
    );
    let e = merge_problems(d, &dir);
    assert!(e.contains("missing result for task"), "{e}");
    let stamp = |t: usize| {
        let p = results.join(format!("{t}.json"));
        (
            std::fs::metadata(&p).unwrap().modified().unwrap(),
            std::fs::read_to_string(&p).unwrap(),
        )
    };
    let before: Vec<_> = (0..tasks)
        .filter(|t| results.join(format!("{t}.json")).exists())
        .map(|t| (t, stamp(t)))
        .collect();
    // The same loop again, to the end.
    let status = Command::new("sh").args(["-c", &script]).status().unwrap();
    assert!(status.success());
    for (t, old) in &before {
        assert_eq!(&stamp(*t), old, "task {t} was redone");
    }
    assert_eq!(done(), tasks);
    let started: Vec<_> = std::fs::read_dir(&results)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".started"))
        .collect();
    assert!(started.is_empty(), "markers left: {started:?}");
    // 16-queens: 14772512 / 1846955 (A000170 / A002562).
    assert_eq!(merged_counts(d, &dir), (14_772_512, 1_846_955));
}

/// Blocked instances from the generator with their verdicts: the job's answer must equal the
/// brute-force oracle's (n = 8) and the local `solve` (n = 28).
#[test]
fn solve_jobs_agree_with_the_oracle_and_local_solve() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let mut seen = [false; 2];
    for seed in 1..=12 {
        let file = d.join(format!("b8-{seed}.txt")).display().to_string();
        run_expect(
            d,
            &[
                "generate",
                "blocked",
                "-n",
                "8",
                "-m",
                "24",
                "--min-free",
                "1",
                "--seed",
                &seed.to_string(),
                "--format",
                "board",
                "-o",
                &file,
            ],
            0,
        );
        let text = std::fs::read_to_string(&file).unwrap();
        let inst = queens_sat::instance::parse_board(&file, &text).unwrap();
        let sat = !common::oracle::instance_solutions(&inst, "queen").is_empty();
        seen[sat as usize] = true;
        let dir = split(d, &format!("s8-{seed}"), "solve", &["--instance", &file], 2);
        work_all(d, &dir, 2);
        let r = run_expect(d, &["merge", &dir], if sat { 10 } else { 20 });
        // The summary names the solver and leaves out the CNF size the job did not keep.
        assert!(r.stderr.contains("(cluster)"), "{}", r.stderr);
        assert!(!r.stderr.contains("vars="), "{}", r.stderr);
        if sat {
            let board = d.join(format!("board-{seed}.txt"));
            std::fs::write(&board, &r.stdout).unwrap();
            run_expect(
                d,
                &["verify", &board.display().to_string(), "--instance", &file],
                0,
            );
        }
    }
    assert_eq!(
        seen,
        [true, true],
        "the sample needs SAT and UNSAT instances"
    );
}

/// Generated blocked n=28 instances: seed 1 is SAT, seed 3 UNSAT (checked against `solve`).
fn hard_pair(d: &Path) -> [(String, i32); 2] {
    [1, 3].map(|seed| {
        let file = d.join(format!("b28-{seed}.txt")).display().to_string();
        run_expect(
            d,
            &[
                "generate",
                "blocked",
                "-n",
                "28",
                "-m",
                "595",
                "--min-free",
                "1",
                "--seed",
                &seed.to_string(),
                "--format",
                "board",
                "-o",
                &file,
            ],
            0,
        );
        let local = common::run(d, &["solve", "--instance", &file]).code;
        assert!(local == 10 || local == 20, "local solve gave {local}");
        (file, local)
    })
}

#[test_programs::requires(parallel)]
#[test]
fn gnu_parallel_runs_count_and_solve_jobs() {
    common::require_solver("parallel");
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let run_script = |dir: &str| {
        let out = Command::new(Path::new(dir).join("run-parallel.sh"))
            .args(["--jobs", "2"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "run-parallel.sh failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let dir = split(d, "q11", "count", &["-n", "11"], 6);
    run_script(&dir);
    assert_eq!(merged_counts(d, &dir), (2680, 341));
    let dir = split(d, "a13", "count", &["-n", "13", "--piece", "amazon"], 6);
    run_script(&dir);
    assert_eq!(merged_counts(d, &dir), (1876, 239));
    // Running it again resumes: every task is already done.
    run_script(&dir);
    assert_eq!(merged_counts(d, &dir), (1876, 239));
    let pair = hard_pair(d);
    let mut codes = Vec::new();
    for (i, (file, local)) in pair.iter().enumerate() {
        let dir = split(d, &format!("solve{i}"), "solve", &["--instance", file], 4);
        run_script(&dir);
        merge_expect(d, &dir, *local);
        codes.push(*local);
    }
    codes.sort();
    assert_eq!(codes, [10, 20], "one SAT and one UNSAT instance");
}

#[test_programs::requires(sbatch)]
#[test]
fn slurm_runs_count_and_solve_jobs() {
    common::require_solver("sbatch");
    // A node that takes jobs, whatever it is doing: idle, running some (mixed, allocated,
    // completing), or held by the backfill scheduler for a pending job (planned: another
    // job array in the queue, e.g. a second test run on the same cluster).
    let up = Command::new("sinfo").args(["-h", "-o", "%T"]).output();
    assert!(
        up.as_ref().is_ok_and(|o| o.status.success()
            && String::from_utf8_lossy(&o.stdout).lines().any(|l| {
                ["idle", "mixed", "alloc", "completing", "planned"]
                    .iter()
                    .any(|s| l.starts_with(s))
            })),
        "no Slurm node is up (start one with: bash .ci/slurm-setup.sh): {up:?}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let sbatch = |dir: &str| {
        let t0 = std::time::Instant::now();
        let out = Command::new("sbatch")
            .args(["--wait", &format!("{dir}/run-slurm.sbatch")])
            .output()
            .unwrap();
        // What sbatch said (the job's id; a job it lost track of), for merge_expect's report.
        let said = format!(
            "sbatch --wait: {} after {:.1} s\n{}{}",
            out.status,
            t0.elapsed().as_secs_f64(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(Path::new(dir).join(SBATCH_OUT), said).unwrap();
        assert!(
            out.status.success(),
            "sbatch --wait failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let dir = split(d, "q11", "count", &["-n", "11"], 4);
    sbatch(&dir);
    assert_eq!(merged_counts(d, &dir), (2680, 341));
    let logs = std::fs::read_dir(Path::new(&dir).join("logs"))
        .unwrap()
        .count();
    assert_eq!(logs, 4, "one Slurm log per array task");
    let dir = split(d, "a13", "count", &["-n", "13", "--piece", "amazon"], 4);
    sbatch(&dir);
    assert_eq!(merged_counts(d, &dir), (1876, 239));
    for (i, (file, local)) in hard_pair(d).iter().enumerate() {
        let dir = split(d, &format!("solve{i}"), "solve", &["--instance", file], 3);
        sbatch(&dir);
        merge_expect(d, &dir, *local);
        // Certified: the proofs written by the array tasks check again at merge.
        let args = ["--instance", file.as_str(), "--certify"];
        let dir = split(d, &format!("certified{i}"), "solve", &args, 3);
        sbatch(&dir);
        let r = merge_expect(d, &dir, *local);
        assert_eq!(
            r.stderr.contains("certified: merge checked"),
            *local == 20,
            "{}",
            r.stderr
        );
    }
}

/// A solve job split with `--cubes-from bitboard` in-process: the job folder in `d/name`.
fn split_bitboard(
    d: &Path,
    name: &str,
    inst: &queens_sat::instance::Instance,
    piece: queens_sat::piece::Piece,
    tasks: usize,
    cubes: usize,
    certify: Option<queens_sat::certify::ProofFormat>,
) -> queens_sat::cluster::Folder {
    use queens_sat::cluster::split::{SlurmOptions, SplitOptions, split};
    let dir = d.join(name);
    let o = SplitOptions {
        kind: queens_sat::cluster::Kind::Solve,
        instance: inst.clone(),
        piece,
        options: queens_sat::encode::EncodeOptions::from(queens_sat::encode::amo::AmoKind::DEFAULT),
        engine: queens_sat::count::CountEngine::Backtrack,
        solver: None,
        cubes_from: Some(queens_sat::cluster::source::CubeSource::Bitboard),
        timeout: None,
        certify,
        tasks,
        cubes,
        slurm: SlurmOptions::default(),
        exe: BIN.into(),
        command: vec!["test".into()],
        cancel: Default::default(),
    };
    split(&dir, &o).unwrap_or_else(|e| panic!("{name}: split: {e}"));
    queens_sat::cluster::Folder::open(&dir).unwrap()
}

/// Random instances n <= 9 (pre-placed, blocked, both, excluded diagonals), queens and amazons,
/// split into bitboard cubes, every task run in-process, merged: the verdict is the brute-force
/// oracle's and the board one of its solutions; the job records its cube source and solves its
/// cubes with the search that cut them.
#[test]
fn bitboard_cube_jobs_match_the_oracle() {
    use queens_sat::answer::Status;
    use queens_sat::cluster::merge::{Merged, merge};
    use queens_sat::cluster::source::CubeSource;
    use queens_sat::cluster::task::run_task;
    let tmp = tempfile::tempdir().unwrap();
    let (mut sat, mut unsat) = (0, 0);
    for (i, inst) in common::random_instances(0xC0BE_5B17, 96, 9)
        .into_iter()
        .enumerate()
    {
        let (piece, name) = common::piece_of(i);
        let expected = common::oracle::instance_solutions(&inst, name);
        let tasks = 1 + i % 3;
        let folder = split_bitboard(
            tmp.path(),
            &format!("j{i}"),
            &inst,
            piece,
            tasks,
            4 + i % 9,
            None,
        );
        assert_eq!(folder.job.cubes_from, Some(CubeSource::Bitboard));
        assert_eq!(folder.job.solver_name(), "bitboard");
        assert!(folder.tasks.len() <= tasks);
        for t in 0..folder.tasks.len() {
            run_task(&folder, t, 1, false, &Default::default())
                .unwrap_or_else(|e| panic!("case {i}, task {t}: {e}"));
        }
        let m = merge(&folder).unwrap();
        assert!(m.problems.is_empty(), "case {i}: {:?}", m.problems);
        match m.answer {
            Some(Merged::Solve(Status::Sat(board))) => {
                common::oracle::assert_among(
                    &expected,
                    &board,
                    &format!("case {i} ({name}, n={})", inst.n),
                );
                sat += 1;
            }
            Some(Merged::Solve(Status::Unsat)) => {
                assert!(
                    expected.is_empty(),
                    "case {i} ({name}, n={}): UNSAT but the oracle has {} solutions",
                    inst.n,
                    expected.len()
                );
                unsat += 1;
            }
            other => panic!("case {i}: {other:?}"),
        }
    }
    assert!(sat > 20 && unsat > 10, "{sat} SAT, {unsat} UNSAT");
}

/// The bitboard cubes partition the solutions: over random instances n <= 9 and the plain
/// boards n = 6..9 (queens and amazons), cut into 1 to 64 cubes, every solution of the
/// instance lies in exactly one cube (the oracle's solutions of each cube, added up and
/// united, are the instance's), so the subtrees left out at split time held none; and cubes
/// that the search's bounds refute are left out (n = 9 queens with 200 cubes: fewer cubes
/// than subtrees of the first rows).
#[test]
fn bitboard_cubes_cover_every_solution_once() {
    use queens_sat::instance::Instance;
    use queens_sat::piece::{AMAZON, QUEEN};
    use queens_sat::presolve::Problem;
    use queens_sat::solve::bitboard::cubes;
    let mut cases = common::random_instances(0x0C0B_E5ED, 80, 9);
    cases.extend((6..=9).map(Instance::plain));
    let mut total_solutions = 0;
    for (i, inst) in cases.iter().enumerate() {
        for (piece, name) in [(QUEEN, "queen"), (AMAZON, "amazon")] {
            let all = common::oracle::instance_solutions(inst, name);
            let p = Problem::presolve(inst, piece).unwrap();
            for want in [1, 7, 64] {
                let cut = cubes(&p, want, 8, &Default::default()).unwrap();
                let mut seen = std::collections::BTreeSet::new();
                let mut sum = 0;
                for c in &cut {
                    assert!(c.nodes >= 1.0, "case {i}: estimate {}", c.nodes);
                    let mut cube = inst.clone();
                    cube.placed.extend(c.cells.iter().copied());
                    let sols = common::oracle::instance_solutions(&cube, name);
                    sum += sols.len();
                    seen.extend(sols);
                }
                assert_eq!(sum, all.len(), "case {i} ({name}, {want} cubes): counted");
                assert_eq!(seen, all, "case {i} ({name}, {want} cubes): solutions");
                total_solutions += sum;
            }
        }
    }
    assert!(total_solutions > 1000, "{total_solutions} solutions seen");
    // 9-queens: 352 solutions; its first two rows leave 42 pairs, and deeper ones are cut by
    // the bounds, so fewer than the 9 * 8 * 7 * ... paths are cubes.
    let p = Problem::presolve(&Instance::plain(9), QUEEN).unwrap();
    let cut = cubes(&p, 200, 8, &Default::default()).unwrap();
    assert!(cut.len() >= 200, "{} cubes", cut.len());
    let depth = cut.iter().map(|c| c.cells.len()).max().unwrap();
    assert!(depth >= 3, "depth {depth}");
}

/// `split solve` on the reduction of an excluded-diagonal instance to completion (a board of
/// n = 2,400 with 14 rows left) takes bitboard cubes by default, as on the diagonal form, and
/// the job's verdict is the local `solve`'s.
#[test]
fn bitboard_cubes_for_a_converted_instance() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let mut verdicts = Vec::new();
    for seed in ["1", "2", "3"] {
        let generate = [
            "generate",
            "diagonals",
            "-n",
            "14",
            "--min-free",
            "1",
            "--seed",
            seed,
        ];
        run_expect(d, &[&generate[..], &["-o", "g.txt"]].concat(), 0);
        let file = d.join(format!("c{seed}.param")).display().to_string();
        let to = [
            "convert",
            "--instance",
            "g.txt",
            "--diags",
            "11",
            "--to",
            "completion",
        ];
        run_expect(d, &[&to[..], &["-o", &file]].concat(), 0);
        let a = split(d, &format!("c{seed}"), "solve", &["--instance", &file], 3);
        let job: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(Path::new(&a).join("job.json")).unwrap())
                .unwrap();
        assert_eq!(job["cubes_from"], "bitboard", "seed {seed}");
        let local = common::run(d, &["solve", "--instance", &file]).code;
        assert!(local == 10 || local == 20, "local solve gave {local}");
        work_all(d, &a, 3);
        run_expect(d, &["merge", &a], local);
        verdicts.push(local);
    }
    assert!(verdicts.contains(&10), "{verdicts:?}: no SAT instance");
}

/// `split solve` on an excluded-diagonal instance takes bitboard cubes by default and says so
/// (job.json, merge, merge --status); the same instance split twice gives the same folder
/// bytes (cubes, tasks, job id), and the job's verdict is the local `solve`'s. A blocked
/// instance keeps look-ahead cubes, and `--cubes-from lookahead` forces them.
#[test]
fn bitboard_cube_split_is_the_default_and_reproducible() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let mut verdicts = Vec::new();
    for seed in [1, 2, 3, 4] {
        let file = d.join(format!("g{seed}.txt")).display().to_string();
        run_expect(
            d,
            &[
                "generate",
                "diagonals",
                "-n",
                "14",
                "--min-free",
                "1",
                "--seed",
                &seed.to_string(),
                "-o",
                &file,
            ],
            0,
        );
        let args = ["--instance", &file, "--diags", "11"];
        let a = split(d, &format!("a{seed}"), "solve", &args, 3);
        let b = split(d, &format!("b{seed}"), "solve", &args, 3);
        for f in ["cubes", "tasks.tsv", "instance.txt"] {
            assert_eq!(
                std::fs::read(Path::new(&a).join(f)).unwrap(),
                std::fs::read(Path::new(&b).join(f)).unwrap(),
                "{f} differs between two splits"
            );
        }
        let job: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(Path::new(&a).join("job.json")).unwrap())
                .unwrap();
        let job_b: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(Path::new(&b).join("job.json")).unwrap())
                .unwrap();
        assert_eq!(job["job_id"], job_b["job_id"]);
        assert_eq!(job["cubes_from"], "bitboard");
        assert_eq!(job["solver"], "bitboard");
        let local = common::run(d, &["solve", "--instance", &file, "--diags", "11"]).code;
        assert!(local == 10 || local == 20, "local solve gave {local}");
        verdicts.push(local);
        work_all(d, &a, 3);
        let r = run_expect(d, &["merge", &a], local);
        assert!(
            r.stderr.contains("bitboard (cluster) on bitboard cubes"),
            "{}",
            r.stderr
        );
        let s = run_expect(d, &["merge", &a, "--status"], 0);
        assert!(s.stdout.contains("(bitboard cubes)"), "{}", s.stdout);
    }
    assert!(verdicts.contains(&10), "{verdicts:?}: no SAT instance");
    // Blocked: look-ahead cubes by default; forced either way on the command line.
    let file = d.join("b.txt").display().to_string();
    run_expect(
        d,
        &[
            "generate",
            "blocked",
            "-n",
            "10",
            "-m",
            "30",
            "--min-free",
            "1",
            "--seed",
            "1",
            "--format",
            "board",
            "-o",
            &file,
        ],
        0,
    );
    let dir = split(d, "blocked", "solve", &["--instance", &file], 2);
    let job = std::fs::read_to_string(Path::new(&dir).join("job.json")).unwrap();
    assert!(job.contains("\"cubes_from\": \"lookahead\""), "{job}");
    assert!(job.contains("\"solver\": \"auto\""), "{job}");
    let args = [
        "--instance",
        &file,
        "--cubes-from",
        "bitboard",
        "--solver",
        "auto",
    ];
    let dir = split(d, "blocked-bb", "solve", &args, 2);
    let job = std::fs::read_to_string(Path::new(&dir).join("job.json")).unwrap();
    assert!(job.contains("\"cubes_from\": \"bitboard\""), "{job}");
    assert!(job.contains("\"solver\": \"auto\""), "{job}");
    common::assert_one_line_error(
        d,
        &[
            "split",
            "solve",
            "-n",
            "8",
            "--cubes-from",
            "magic",
            "-o",
            "x",
        ],
        &["magic"],
    );
    common::assert_one_line_error(
        d,
        &[
            "split",
            "solve",
            "-n",
            "8",
            "--symmetric",
            "r90",
            "--cubes-from",
            "bitboard",
            "-o",
            "y",
        ],
        &["bitboard"],
    );
}

/// `split solve --certify` in process: random instances n <= 9 (queens and amazons), proofs in
/// both formats, every task run, merged: the verdict is the brute-force oracle's, a board is
/// one of its solutions, and an UNSAT carries merge's certificate (the coverage proof and one
/// checked proof per cube line, each file in the folder).
#[test]
fn certified_cube_jobs_match_the_oracle_and_keep_every_proof() {
    use queens_sat::answer::Status;
    use queens_sat::certify::ProofFormat;
    use queens_sat::cluster::merge::{Merged, merge};
    use queens_sat::cluster::proofs::{COVERAGE_FILE, cube_proof_format, cube_proof_path};
    use queens_sat::cluster::task::run_task;
    let tmp = tempfile::tempdir().unwrap();
    let (mut sat, mut unsat) = (0, 0);
    for (i, inst) in common::random_instances(0xCE27_1F1E, 48, 9)
        .into_iter()
        .enumerate()
    {
        let (piece, name) = common::piece_of(i);
        let format = [ProofFormat::Lrat, ProofFormat::Veripb][i % 2];
        let expected = common::oracle::instance_solutions(&inst, name);
        let tasks = 1 + i % 3;
        let folder = split_bitboard(
            tmp.path(),
            &format!("c{i}"),
            &inst,
            piece,
            tasks,
            4 + i % 9,
            Some(format),
        );
        assert_eq!(folder.job.proof_format().unwrap(), Some(format));
        assert!(folder.dir.join(COVERAGE_FILE).is_file(), "case {i}");
        assert!(folder.tasks.len() <= tasks);
        for t in 0..folder.tasks.len() {
            run_task(&folder, t, 1, false, &Default::default())
                .unwrap_or_else(|e| panic!("case {i}, task {t}: {e}"));
        }
        let m = merge(&folder).unwrap_or_else(|e| panic!("case {i} ({name}): {e}"));
        assert!(m.problems.is_empty(), "case {i}: {:?}", m.problems);
        match m.answer {
            Some(Merged::Solve(Status::Sat(board))) => {
                common::oracle::assert_among(&expected, &board, &format!("case {i} ({name})"));
                assert!(m.certificate.is_none(), "case {i}");
                sat += 1;
            }
            Some(Merged::Solve(Status::Unsat)) => {
                assert!(expected.is_empty(), "case {i} ({name}): UNSAT, oracle SAT");
                let c = m
                    .certificate
                    .unwrap_or_else(|| panic!("case {i}: no certificate"));
                assert!(
                    c.checker
                        .contains(&format!("{} cube proofs", folder.cubes.len()))
                );
                for (l, line) in folder.cubes.iter().enumerate() {
                    let cube = line.instance(&folder.instance);
                    let f = cube_proof_format(&cube, piece, format).unwrap();
                    assert!(cube_proof_path(&folder.dir, l, f).is_file(), "case {i}");
                }
                unsat += 1;
            }
            other => panic!("case {i}: {other:?}"),
        }
    }
    assert!(sat > 5 && unsat > 5, "{sat} SAT, {unsat} UNSAT");
}

/// The cubes of a certified split ([`proof_cubes`]) partition the solutions as the search's
/// cubes do, and the coverage proof fails when a cube that holds a solution is left out: the
/// split's check is not vacuous.
#[test]
fn proof_cubes_cover_and_coverage_fails_without_a_cube() {
    use queens_sat::cluster::CubeLine;
    use queens_sat::cluster::proofs::prove_coverage;
    use queens_sat::instance::Instance;
    use queens_sat::piece::QUEEN;
    use queens_sat::presolve::Problem;
    use queens_sat::solve::bitboard::proof_cubes;
    let tmp = tempfile::tempdir().unwrap();
    let mut cases = common::random_instances(0x9C0F_E7A6, 40, 8);
    cases.extend((6..=8).map(Instance::plain));
    let mut refused = 0;
    for (i, inst) in cases.iter().enumerate() {
        let all = common::oracle::instance_solutions(inst, "queen");
        let p = Problem::presolve(inst, QUEEN).unwrap();
        let cut = proof_cubes(&p, 1 + i % 24, 8, &Default::default()).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        let mut per_cube = Vec::new();
        for c in &cut {
            let mut cube = inst.clone();
            cube.placed.extend(c.cells.iter().copied());
            let sols = common::oracle::instance_solutions(&cube, "queen");
            per_cube.push(sols.len());
            seen.extend(sols);
        }
        assert_eq!(
            per_cube.iter().sum::<usize>(),
            all.len(),
            "case {i}: counted"
        );
        assert_eq!(seen, all, "case {i}: solutions");
        let lines: Vec<CubeLine> = cut
            .iter()
            .map(|c| CubeLine::Cube {
                weight: 1,
                cells: c.cells.clone(),
            })
            .collect();
        let path = tmp.path().join(format!("cov{i}.lrat"));
        let steps = prove_coverage(inst, QUEEN, &lines, &path, &Default::default())
            .unwrap_or_else(|e| panic!("case {i}: {e}"))
            .unwrap();
        assert!(path.is_file(), "case {i}: {steps} steps, no file");
        // Leave out the first cube with a solution: no coverage, and no file.
        if let Some(k) = per_cube.iter().position(|&s| s > 0) {
            let mut fewer = lines.clone();
            fewer.remove(k);
            let path = tmp.path().join(format!("bad{i}.lrat"));
            let e = prove_coverage(inst, QUEEN, &fewer, &path, &Default::default()).unwrap_err();
            assert!(e.to_string().contains("do not cover"), "case {i}: {e}");
            assert!(!path.exists(), "case {i}: a file for a failed proof");
            refused += 1;
        }
    }
    assert!(refused > 10, "{refused} SAT cases");
}

/// `split solve --certify` from the command line: merge prints the certified UNSAT (exit 20)
/// and refuses (exit 1, naming the file) a cube proof that was cut short, one that is missing,
/// and a coverage proof that was cut short; the options it cannot honour are refused.
#[test]
fn certified_split_merge_refuses_a_bad_proof() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let file = d.join("g.txt").display().to_string();
    let generate = ["generate", "diagonals", "-n", "14", "--min-free", "1"];
    run_expect(
        d,
        &[&generate[..], &["--seed", "1", "-o", &file]].concat(),
        0,
    );
    // Seed 1 with 14 diagonals is UNSAT (the oracle-checked tests above cover small boards;
    // here the local solve is the reference).
    let inst = ["--instance", &file, "--diags", "14"];
    run_expect(d, &[&["solve"][..], &inst[..]].concat(), 20);
    for format in ["lrat", "veripb"] {
        let args = [&inst[..], &["--certify", "--proof-format", format]].concat();
        let dir = split(d, format, "solve", &args, 2);
        work_all(d, &dir, 2);
        let r = run_expect(d, &["merge", &dir], 20);
        assert!(
            r.stderr.contains("certified: merge checked"),
            "{}",
            r.stderr
        );
        let ext = if format == "lrat" { "lrat" } else { "pbp" };
        let proof = Path::new(&dir).join("proofs").join(format!("3.{ext}"));
        let text = std::fs::read_to_string(&proof).unwrap();
        // Cut short: from the step that derives the contradiction on, the proof is gone.
        let lines: Vec<&str> = text.lines().collect();
        let keep = if format == "lrat" {
            // The empty clause: `ID 0 HINTS 0`.
            lines
                .iter()
                .rposition(|l| l.split_whitespace().nth(1) == Some("0"))
                .unwrap()
        } else {
            lines
                .iter()
                .position(|l| l.starts_with("conclusion"))
                .unwrap()
                - 1
        };
        std::fs::write(&proof, lines[..keep].join("\n") + "\n").unwrap();
        let r = run_expect(d, &["merge", &dir], 1);
        assert!(
            r.stderr.contains("proof rejected") && r.stderr.contains("cube line 3"),
            "{}",
            r.stderr
        );
        std::fs::remove_file(&proof).unwrap();
        let r = run_expect(d, &["merge", &dir], 1);
        assert!(
            r.stderr.contains("cube line 3") && r.stderr.contains("missing"),
            "{}",
            r.stderr
        );
        std::fs::write(&proof, &text).unwrap();
        run_expect(d, &["merge", &dir], 20);
        let coverage = Path::new(&dir).join("coverage.lrat");
        let cov = std::fs::read_to_string(&coverage).unwrap();
        let short: Vec<&str> = cov.lines().collect();
        let empty = short
            .iter()
            .rposition(|l| l.split_whitespace().nth(1) == Some("0"))
            .unwrap();
        std::fs::write(&coverage, short[..empty].join("\n") + "\n").unwrap();
        let r = run_expect(d, &["merge", &dir], 1);
        assert!(r.stderr.contains("coverage proof"), "{}", r.stderr);
    }
    // A SAT instance: the board, verified; no proof is needed.
    let sat = ["--instance", &file, "--diags", "8", "--certify"];
    let dir = split(d, "sat", "solve", &sat, 2);
    work_all(d, &dir, 2);
    run_expect(d, &["merge", &dir], 10);
    // Refused: another cube solver, --symmetric, --proof-format without --certify.
    let o = d.join("x").display().to_string();
    for (extra, why) in [
        (
            &["--certify", "--solver", "cadical"][..],
            "drop --solver cadical",
        ),
        (&["--certify", "--symmetric", "r180"][..], "--symmetric"),
        (&["--proof-format", "lrat"][..], "--certify"),
    ] {
        let args = [&["split", "solve"][..], &inst[..], extra, &["-o", &o]].concat();
        let r = run_expect(d, &args, 1);
        assert!(r.stderr.contains(why), "{extra:?}: {}", r.stderr);
        assert!(!Path::new(&o).exists(), "{extra:?}: a folder was written");
    }
    // A core the certified search does not take (80 open rows; the search itself takes 128).
    let r = run_expect(d, &["split", "solve", "-n", "80", "--certify", "-o", &o], 1);
    assert!(r.stderr.contains("at most 64"), "{}", r.stderr);
    assert!(!Path::new(&o).exists(), "a folder was written");
}

/// `split count --symmetric r90|r180` cuts the orbits engine's search into cube lines (cells
/// placed, with the weight of the orientations they stand for): the merged total is the
/// published one, and every cube line's count, recounted by the board search on the instance
/// with its cells placed, is the same.
#[test]
fn orbit_cube_jobs_match_the_board_search_line_by_line() {
    use queens_sat::board::Cell;
    use queens_sat::symmetry::{Symmetry, generated};
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for (args, g, want) in [
        (&["-n", "16", "--symmetric", "r90"][..], Symmetry::R90, 64),
        (
            &["-n", "17", "--symmetric", "r270"][..],
            Symmetry::R270,
            128,
        ),
        (
            &["-n", "14", "--symmetric", "r180"][..],
            Symmetry::R180,
            420,
        ),
        (
            &["-n", "16", "--symmetric", "r90", "--piece", "amazon"][..],
            Symmetry::R90,
            24,
        ),
    ] {
        let name = format!("orbits-{}", args.join("_"));
        let dir = split(d, &name, "count", args, 3);
        let job = std::fs::read_to_string(Path::new(&dir).join("job.json")).unwrap();
        assert!(job.contains("\"engine\": \"orbits\""), "{job}");
        work_all(d, &dir, 3);
        let r = run_expect(d, &["merge", &dir, "--format", "json"], 10);
        let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_eq!(v["total"], want, "{args:?}");
        let cubes: Vec<String> = std::fs::read_to_string(Path::new(&dir).join("cubes"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect();
        assert!(cubes.len() > 3, "{args:?}: {} cube lines", cubes.len());
        let piece = if args.contains(&"amazon") {
            queens_sat::piece::AMAZON
        } else {
            queens_sat::piece::QUEEN
        };
        let n: u32 = args[1].parse().unwrap();
        let mut weighted = 0u64;
        for t in 0..3 {
            let text = std::fs::read_to_string(Path::new(&dir).join(format!("results/{t}.json")));
            let res: serde_json::Value = serde_json::from_str(&text.unwrap()).unwrap();
            let lines = res["lines"].as_array().unwrap();
            let counts = res["counts"].as_array().unwrap();
            for (line, count) in lines.iter().zip(counts) {
                let text = &cubes[line.as_u64().unwrap() as usize];
                if let Some(h) = text.strip_prefix("fixed ") {
                    // The count's fixed points: the boards g and h both fix (issue 63).
                    let h = Symmetry::by_name(h).unwrap();
                    let cancel = queens_sat::interrupt::Cancel::new();
                    let plain = queens_sat::instance::Instance::plain(n);
                    let want = queens_sat::count::backtrack::fixed_by(
                        &plain,
                        piece,
                        &generated(&[g, h]),
                        &cancel,
                    )
                    .unwrap();
                    assert_eq!(count.as_u64().unwrap(), want, "{args:?} {text}");
                    continue;
                }
                let mut words = text.split_whitespace();
                let weight: u64 = words.next().unwrap().parse().unwrap();
                let placed: Vec<Cell> = words
                    .map(|w| {
                        let (r, c) = w.split_once(',').unwrap();
                        Cell::new(r.parse().unwrap(), c.parse().unwrap())
                    })
                    .collect();
                let inst = queens_sat::instance::Instance {
                    n,
                    placed,
                    blocked: vec![],
                    excluded: vec![],
                };
                let cancel = queens_sat::interrupt::Cancel::new();
                let board =
                    queens_sat::count::backtrack::fixed_by(&inst, piece, &generated(&[g]), &cancel)
                        .unwrap();
                assert_eq!(count.as_u64().unwrap(), board, "{args:?} {inst:?}");
                weighted += weight * board;
            }
        }
        assert_eq!(weighted, want, "{args:?}");
    }
}

/// Issue 63: `merge --status` of a solve job whose cubes timed out names them (it said "0
/// failed" while `merge` said UNKNOWN), and `work --task I --timeout T` reruns such a task with
/// the longer limit, after which the job merges to its answer. The solver takes 3 s and answers
/// UNSAT (n = 3 has no solution): under the job's 1 s limit its cube is UNKNOWN, under 60 s it
/// answers. `--timeout` on a task without UNKNOWN lines, or on a count job, runs nothing.
#[test]
fn timed_out_cubes_are_reported_and_rerun_with_a_longer_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let solver = d.join("slow.sh");
    std::fs::write(
        &solver,
        "#!/bin/sh\nsleep 3\necho 's UNSATISFIABLE'\nexit 20\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&solver, std::fs::Permissions::from_mode(0o755)).unwrap();
    let s = solver.display().to_string();
    let dir = split(
        d,
        "slow",
        "solve",
        &["-n", "3", "--solver", &s, "--timeout", "1"],
        1,
    );
    run_expect(d, &["work", &dir, "--task", "0"], 0);
    let merged = run_expect(d, &["merge", &dir], 1);
    assert!(merged.stdout.starts_with("UNKNOWN"), "{}", merged.stdout);
    let status = run_expect(d, &["merge", &dir, "--status"], 0);
    assert!(
        status
            .stdout
            .contains("1 done (1 of them with 1 UNKNOWN cube line(s))"),
        "{}",
        status.stdout
    );
    assert!(
        status.stdout.contains("task 0: 1 cube line(s) UNKNOWN")
            && status.stdout.contains("--task 0 --timeout SECS"),
        "{}",
        status.stdout
    );
    let json = run_expect(d, &["merge", &dir, "--status", "--format", "json"], 0);
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(v["progress"]["unknown"], serde_json::json!([[0, 1]]));
    // The rerun with a longer limit answers; merge says UNSAT, status lists nothing left.
    run_expect(d, &["work", &dir, "--task", "0", "--timeout", "60"], 0);
    let merged = run_expect(d, &["merge", &dir], 20);
    assert!(merged.stdout.starts_with("UNSAT"), "{}", merged.stdout);
    let status = run_expect(d, &["merge", &dir, "--status"], 0);
    assert!(!status.stdout.contains("UNKNOWN"), "{}", status.stdout);
    let again = run_expect(d, &["work", &dir, "--task", "0", "--timeout", "60"], 0);
    assert!(again.stderr.contains("already done"), "{}", again.stderr);
    let count = split(d, "count", "count", &["-n", "6"], 1);
    common::assert_one_line_error(
        d,
        &["work", &count, "--task", "0", "--timeout", "5"],
        &["--timeout '5'", "solve jobs"],
    );
}

/// Issue 63: `work --task I --timeout T` on a task with some UNKNOWN cube lines runs those
/// lines only, keeping the others' answers (it used to rerun the whole task). The solver
/// stand-in logs each run and answers UNSAT at once, except its very first run, which sleeps
/// past the job's 1 s limit: of the 9 look-ahead cubes of this UNSAT instance one is UNKNOWN
/// after the first run, and the rerun runs the solver once more, not 9 times; the job then
/// merges to UNSAT. `--redo` still runs the whole task.
#[test]
fn a_rerun_with_a_longer_limit_runs_only_the_unknown_cubes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let solver = d.join("first-slow.sh");
    std::fs::write(
        &solver,
        "#!/bin/sh\necho \"$1\" >> calls.log\nif mkdir slow.lock 2>/dev/null; then sleep 3; fi\n\
         echo 's UNSATISFIABLE'\nexit 20\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&solver, std::fs::Permissions::from_mode(0o755)).unwrap();
    let runs = || {
        std::fs::read_to_string(d.join("calls.log"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    let generate = [
        "generate",
        "diagonals",
        "-n",
        "24",
        "--min-free",
        "1",
        "--seed",
        "18",
        "-o",
        "g.txt",
    ];
    run_expect(d, &generate, 0);
    let s = solver.display().to_string();
    let dir = split(
        d,
        "part",
        "solve",
        &[
            "--instance",
            "g.txt",
            "--diags",
            "25",
            "--cubes-from",
            "lookahead",
            "--cubes",
            "4",
            "--solver",
            &s,
            "--timeout",
            "1",
        ],
        1,
    );
    run_expect(d, &["work", &dir, "--task", "0"], 0);
    let folder = queens_sat::cluster::Folder::open(Path::new(&dir)).unwrap();
    let cubes = folder.tasks[0].lines.len();
    assert!(cubes >= 2, "{cubes} cube lines");
    assert_eq!(runs(), cubes);
    let first = queens_sat::cluster::task::valid_result(&folder, 0).unwrap();
    let answers = first.answers.clone().unwrap();
    let unknown: Vec<usize> = (0..cubes)
        .filter(|&k| queens_sat::cluster::task::is_unknown(&answers[k]))
        .collect();
    assert_eq!(unknown.len(), 1, "{answers:?}");
    run_expect(d, &["merge", &dir], 1);
    // The rerun: the UNKNOWN line alone.
    let r = run_expect(d, &["work", &dir, "--task", "0", "--timeout", "60"], 0);
    assert!(r.stderr.contains("0 still UNKNOWN"), "{}", r.stderr);
    assert_eq!(runs(), cubes + 1, "only the UNKNOWN cube runs again");
    let second = queens_sat::cluster::task::valid_result(&folder, 0).unwrap();
    assert_eq!(second.answers, Some(vec!["UNSAT".to_string(); cubes]));
    assert!(second.seconds >= first.seconds);
    let merged = run_expect(d, &["merge", &dir], 20);
    assert!(merged.stdout.starts_with("UNSAT"), "{}", merged.stdout);
    // `--redo` runs every line.
    run_expect(d, &["work", &dir, "--task", "0", "--redo"], 0);
    assert_eq!(runs(), 2 * cubes + 1);
}
