//! Options accepted and ignored (issue 63): each is refused in one line naming it and why
//! (exit 1, before any work), or changes the answer. Split's Slurm values are validated before
//! they reach `run-slurm.sbatch`.

use crate::common::{assert_one_line_error, run_expect};

/// Each `args` is refused with one stderr line holding every needle, and writes nothing.
fn refused(cases: &[(&[&str], &[&str])]) {
    let tmp = tempfile::tempdir().unwrap();
    for (args, needles) in cases {
        assert_one_line_error(tmp.path(), args, needles);
        let left: Vec<_> = std::fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert!(left.is_empty(), "{args:?} wrote {left:?}");
    }
}

#[test]
fn split_refuses_slurm_values_slurm_would_not_take() {
    refused(&[
        (
            &["split", "count", "-n", "8", "-o", "j", "--time", "garbage"],
            &["--time 'garbage'", "Slurm time"],
        ),
        (
            &["split", "count", "-n", "8", "-o", "j", "--time", "1:2:3:4"],
            &["--time"],
        ),
        (
            &[
                "split",
                "count",
                "-n",
                "8",
                "-o",
                "j",
                "--time",
                "1-2:3:4:5",
            ],
            &["--time"],
        ),
        (
            &["split", "count", "-n", "8", "-o", "j", "--mem", "lots"],
            &["--mem 'lots'", "memory size"],
        ),
        (
            &["split", "count", "-n", "8", "-o", "j", "--mem", "4GB"],
            &["--mem"],
        ),
        (
            &[
                "split",
                "count",
                "-n",
                "8",
                "-o",
                "j",
                "--partition",
                "a b;rm -rf /",
            ],
            &["--partition 'a b;rm -rf /'", "partition name"],
        ),
        (
            &[
                "split",
                "count",
                "-n",
                "8",
                "-o",
                "j",
                "--partition",
                "a\nb",
            ],
            &["--partition 'a\\nb'"],
        ),
        (
            &[
                "split",
                "count",
                "-n",
                "8",
                "-o",
                "j",
                "--partition",
                "a,,b",
            ],
            &["--partition"],
        ),
        (
            &[
                "split",
                "solve",
                "-n",
                "8",
                "-o",
                "j",
                "--cpus-per-task",
                "0",
            ],
            &["--cpus-per-task 0", "at least 1"],
        ),
    ]);
}

#[test]
fn split_writes_valid_slurm_values_as_given() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, (time, mem, partition)) in [
        ("30", "4000", "short"),
        ("30:00", "500M", "a.b-c_d"),
        ("2:00:00", "4G", "short,long"),
        ("1-12", "2T", "p1"),
        ("1-12:30", "64k", "p1"),
        ("2-00:00:00", "0", "p1"),
        ("UNLIMITED", "1g", "p1"),
    ]
    .into_iter()
    .enumerate()
    {
        let dir = format!("j{i}");
        let args = [
            "split",
            "count",
            "-n",
            "6",
            "-o",
            &dir,
            "--tasks",
            "1",
            "--time",
            time,
            "--mem",
            mem,
            "--partition",
            partition,
            "--cpus-per-task",
            "3",
        ];
        run_expect(tmp.path(), &args, 0);
        let script =
            std::fs::read_to_string(tmp.path().join(&dir).join("run-slurm.sbatch")).unwrap();
        for line in [
            format!("#SBATCH --time={time}\n"),
            format!("#SBATCH --mem={mem}\n"),
            format!("#SBATCH --partition={partition}\n"),
            "#SBATCH --cpus-per-task=3\n".to_string(),
        ] {
            assert!(script.contains(&line), "{line:?} not in\n{script}");
        }
    }
}

/// `--tasks` past the cube lines is capped at them, and the split says so: no empty task.
#[test]
fn split_caps_tasks_at_the_cube_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let r = run_expect(
        tmp.path(),
        &["split", "count", "-n", "8", "-o", "j", "--tasks", "100000"],
        0,
    );
    let job: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("j/job.json")).unwrap())
            .unwrap();
    let (cubes, tasks) = (
        job["cubes"].as_u64().unwrap(),
        job["tasks"].as_u64().unwrap(),
    );
    assert_eq!(tasks, cubes, "{job}");
    assert!(tasks < 100000);
    assert!(
        r.stderr
            .contains(&format!("--tasks 100000 capped at {tasks}")),
        "{}",
        r.stderr
    );
    let script = std::fs::read_to_string(tmp.path().join("j/run-slurm.sbatch")).unwrap();
    assert!(script.contains(&format!("#SBATCH --array=0-{}\n", tasks - 1)));
    let tsv = std::fs::read_to_string(tmp.path().join("j/tasks.tsv")).unwrap();
    assert_eq!(
        tsv.lines().filter(|l| !l.starts_with('#')).count() as u64,
        tasks,
        "{tsv}"
    );
}

/// `--amo` shapes only the SAT engines' CNF: refused where the engine that runs does not
/// encode (given, or auto's choice), taken where it or the cross-check's second engine does.
#[test]
fn amo_is_refused_where_the_count_engine_does_not_encode() {
    refused(&[
        (
            &[
                "count",
                "-n",
                "8",
                "--amo",
                "pairwise",
                "--engine",
                "backtrack",
            ],
            &["--amo 'pairwise'", "--engine 'backtrack'"],
        ),
        // auto counts n = 8 by backtracking.
        (
            &["count", "-n", "8", "--amo", "pairwise"],
            &["--amo 'pairwise'", "--engine 'backtrack'", "auto"],
        ),
        (
            &[
                "count",
                "-n",
                "8",
                "--symmetric",
                "r90",
                "--amo",
                "pairwise",
            ],
            &["--amo 'pairwise'", "--engine 'orbits'"],
        ),
        (
            &[
                "count",
                "-n",
                "8",
                "--engine",
                "orbits",
                "--symmetric",
                "r180",
                "--cross-check",
                "--amo",
                "sequential",
            ],
            &["--amo 'sequential'", "--engine 'orbits'"],
        ),
        (
            &[
                "split",
                "count",
                "-n",
                "8",
                "-o",
                "j",
                "--amo",
                "pairwise",
                "--engine",
                "backtrack",
            ],
            &["--amo 'pairwise'", "--engine 'backtrack'"],
        ),
        (
            &["split", "count", "-n", "8", "-o", "j", "--amo", "pairwise"],
            &["--amo 'pairwise'", "--engine 'backtrack'"],
        ),
    ]);
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    // A SAT engine encodes: the count is right with each encoding.
    for args in [
        &["count", "-n", "8", "--amo", "pairwise", "--engine", "sat"][..],
        &[
            "count",
            "-n",
            "8",
            "--amo",
            "sequential",
            "--engine",
            "cdcl",
        ][..],
        // Cross-checked, the second engine (sat) encodes.
        &["count", "-n", "8", "--amo", "pairwise", "--cross-check"][..],
        // --break-symmetry lex: auto counts with sat.
        &[
            "count",
            "-n",
            "8",
            "--amo",
            "pairwise",
            "--break-symmetry",
            "lex",
        ][..],
    ] {
        let r = run_expect(d, args, 0);
        assert!(
            r.stdout.contains("total 92\n") || r.stdout.contains("unique 12\n"),
            "{args:?}: {}",
            r.stdout
        );
        assert!(
            r.stdout.contains("sat") || r.stdout.contains("cdcl"),
            "{}",
            r.stdout
        );
    }
    run_expect(
        d,
        &[
            "split", "count", "-n", "8", "-o", "j", "--amo", "pairwise", "--engine", "sat",
        ],
        0,
    );
}

/// `bench` flags that only `bench hard` reads are refused elsewhere (`--csv`, `--cactus` and
/// `--plot` wrote nothing); `--amo` is read by `hard` and `--count` only.
#[test]
fn bench_refuses_hard_flags_without_hard() {
    let cases: Vec<(Vec<&str>, String)> = [
        ("--csv", "r.csv"),
        ("--cactus", "c.svg"),
        ("--plot", "p.svg"),
        ("--solvers", "varisat"),
        ("--portfolio", "varisat,walk"),
        ("--seeds", "3"),
        ("--timeout", "5"),
        ("--jobs", "2"),
        ("--sample", "4"),
        ("--implied", "none"),
    ]
    .into_iter()
    .flat_map(|(flag, value)| {
        [
            (vec!["bench", flag, value], flag.to_string()),
            (vec!["bench", "--export", flag, value], flag.to_string()),
            (
                vec!["bench", "--memory", "100", flag, value],
                flag.to_string(),
            ),
        ]
    })
    .chain(["--list", "--tail", "--frontier"].map(|f| (vec!["bench", f], f.to_string())))
    .chain([
        (vec!["bench", "--amo", "pairwise"], "--amo".to_string()),
        (
            vec!["bench", "--export", "--amo", "pairwise"],
            "--amo".to_string(),
        ),
        (
            vec!["bench", "--dd", "10", "--amo", "pairwise"],
            "--amo".to_string(),
        ),
    ])
    .collect();
    let cases: Vec<(&[&str], [&str; 2])> = cases
        .iter()
        .map(|(args, flag)| (&args[..], [flag.as_str(), "bench hard"]))
        .collect();
    let cases: Vec<(&[&str], &[&str])> = cases.iter().map(|(a, n)| (*a, &n[..])).collect();
    refused(&cases);
    // With `hard` they are read: --list with --sample lists that many instances.
    let tmp = tempfile::tempdir().unwrap();
    let r = run_expect(
        tmp.path(),
        &[
            "bench", "hard", "--quick", "--list", "--sample", "2", "--seeds", "3",
        ],
        0,
    );
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
}

/// `merge --format svg` draws a solve job's board; a count job's merge, and `--status`, are
/// refused rather than printed as text.
#[test]
fn merge_refuses_svg_for_a_count_job_and_status() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    run_expect(
        d,
        &["split", "count", "-n", "6", "-o", "c", "--tasks", "1"],
        0,
    );
    run_expect(d, &["work", "c", "--task", "0"], 0);
    assert_one_line_error(
        d,
        &["merge", "c", "--format", "svg"],
        &["--format svg", "count job"],
    );
    assert_one_line_error(
        d,
        &["merge", "c", "--status", "--format", "svg"],
        &["--format svg", "--status"],
    );
    let r = run_expect(d, &["merge", "c", "--format", "json"], 10);
    assert!(r.stdout.contains("\"total\":4"), "{}", r.stdout);
    // A solve job's board is drawn.
    run_expect(
        d,
        &["split", "solve", "-n", "6", "-o", "s", "--tasks", "1"],
        0,
    );
    run_expect(d, &["work", "s", "--task", "0"], 0);
    let r = run_expect(d, &["merge", "s", "--format", "svg"], 10);
    assert!(
        r.stdout.starts_with("<svg") || r.stdout.contains("<svg"),
        "{}",
        r.stdout
    );
}

/// The solve options refused where they change nothing (the table's rows are walked in
/// tests/it/applies.rs; these are the issue's own command lines).
#[test]
fn solve_refuses_options_its_solver_ignores() {
    refused(&[
        (
            &[
                "solve",
                "-n",
                "8",
                "--solver",
                "construct",
                "--amo",
                "sequential",
            ],
            &["--amo 'sequential'", "--solver 'construct'"],
        ),
        (
            &[
                "solve",
                "-n",
                "8",
                "--solver",
                "bitboard",
                "--implied",
                "sums",
            ],
            &["--implied 'sums'", "--solver 'bitboard'"],
        ),
        (
            &["solve", "-n", "8", "--solver", "construct", "--jobs", "4"],
            &["--jobs '4'", "--solver 'construct'"],
        ),
        (
            &["solve", "-n", "8", "--solver", "lib:cadical", "--jobs", "4"],
            &["--jobs '4'", "--solver 'lib:cadical'"],
        ),
        (
            &["solve", "-n", "8", "--solver", "/bin/false", "--jobs", "4"],
            &["--jobs '4'", "--solver '/bin/false'"],
        ),
        (
            &[
                "solve",
                "-n",
                "8",
                "--break-symmetry",
                "cubes",
                "--solver",
                "varisat",
            ],
            &["--break-symmetry 'cubes'", "--solver 'varisat'"],
        ),
        (
            &[
                "solve",
                "-n",
                "3",
                "--certify",
                "--proof-format",
                "veripb",
                "--solver",
                "varisat",
            ],
            &["--proof-format 'veripb'", "--solver 'varisat'"],
        ),
        (
            &[
                "solve",
                "-n",
                "8",
                "--deterministic",
                "--solver",
                "bitboard",
                "--jobs",
                "1",
            ],
            &["--deterministic", "--jobs '1'"],
        ),
        (
            &["solve", "-n", "8", "--cubes", "--max-cubes", "0"],
            &["--max-cubes 0"],
        ),
        (
            &["encode", "-n", "8", "--level", "5", "--stats"],
            &["--level '5'", "--stats"],
        ),
        (
            &["suite", "x.suite", "--select", "--solve"],
            &["--solve", "--select"],
        ),
    ]);
}

/// On a plain board the default strategy answers by the construction, which builds no CNF:
/// `--amo` and `--implied` are refused there (the summary used to report an encoding never
/// built), and taken where a CNF is solved (amazons n = 8 has no construction; a named CNF
/// solver).
#[test]
fn auto_refuses_encoding_options_the_construction_ignores() {
    refused(&[
        (
            &["solve", "-n", "8", "--amo", "sequential"],
            &["--amo 'sequential'", "--solver 'auto'", "construction"],
        ),
        (
            &["solve", "-n", "3", "--amo", "pairwise"],
            &["--amo 'pairwise'", "construction"],
        ),
        (
            &["solve", "-n", "1000", "--implied", "sums"],
            &["--implied 'sums'", "construction"],
        ),
    ]);
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    run_expect(
        d,
        &[
            "solve",
            "-n",
            "8",
            "--amo",
            "sequential",
            "--solver",
            "varisat",
        ],
        10,
    );
    let r = run_expect(
        d,
        &["solve", "-n", "8", "--piece", "amazon", "--amo", "pairwise"],
        20,
    );
    assert!(r.stderr.contains("amo=pairwise"), "{}", r.stderr);
    // Without the options the construction answers as before.
    let r = run_expect(d, &["solve", "-n", "8"], 10);
    assert!(r.stderr.contains("construct"), "{}", r.stderr);
}
