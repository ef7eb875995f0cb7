//! One option vocabulary (issue 44 §2): the library's errors about an option's value are
//! typed ([`BadOption`]: the option, the value as given, the rule), so each front end words
//! them itself: the command line with its flags, Python with its keyword arguments (no flag in
//! a Python message). The same rules hold on the command line and in the library (`--jobs 0`,
//! the count engine `auto`, the instance format's names).

use queens_sat::error::{BadOption, Error, Naming, Opt};
use queens_sat::instance::Instance;
use queens_sat::piece::QUEEN;
use queens_sat::solve::Solver;

use crate::common::{assert_one_line_error, run_expect};

/// The typed error of `r`, or a panic naming what came instead.
fn bad<T: std::fmt::Debug>(r: queens_sat::Result<T>) -> BadOption {
    match r {
        Err(Error::Option(b)) => b,
        other => panic!("expected a typed option error, got {other:?}"),
    }
}

/// Each library check that used to word its error with a command-line flag now gives a
/// typed error: the option and value are right, and the Python wording names no flag.
#[test]
fn option_errors_are_typed_and_worded_by_each_front_end() {
    let queens8 = Instance::plain(8);
    let p8 = queens_sat::presolve::Problem::presolve(&queens8, QUEEN).unwrap();
    let cases: Vec<(BadOption, Opt, &str)> = vec![
        (
            bad(Solver::new(&queens8, QUEEN)
                .solver("lib:kissat")
                .certify(true)
                .solve()),
            Opt::Solver,
            "lib:kissat",
        ),
        (
            bad(Solver::new(&Instance::plain(200), QUEEN)
                .solver("bitboard")
                .solve()),
            Opt::Solver,
            "bitboard",
        ),
        (
            bad(Solver::new(&queens8, QUEEN).solver("varisat --amo").solve()),
            Opt::Solver,
            "varisat --amo",
        ),
        (
            bad(Solver::new(&queens8, QUEEN).solver("").solve()),
            Opt::Solver,
            "",
        ),
        (
            bad(Solver::new(&queens8, QUEEN)
                .solver("no-such-solver-xyzzy")
                .solve()),
            Opt::Solver,
            "no-such-solver-xyzzy",
        ),
        (
            bad(Solver::new(&queens8, QUEEN)
                .presolve(false)
                .cubes(8)
                .solve()),
            Opt::Presolve,
            "off",
        ),
        (
            bad(queens_sat::generate::blocked::generate(8, 100, 1, 1)),
            Opt::M,
            "100",
        ),
        (
            bad(queens_sat::generate::completion::generate(8, 9, 1)),
            Opt::M,
            "9",
        ),
        (
            bad(queens_sat::export::write(
                queens_sat::export::Format::Opb,
                Vec::new(),
                &p8,
                queens_sat::encode::EncodeOptions {
                    symmetric: Some(queens_sat::symmetry::Symmetry::R180),
                    ..queens_sat::encode::EncodeOptions::from(
                        queens_sat::encode::amo::AmoKind::DEFAULT,
                    )
                },
                None,
            )),
            Opt::Symmetric,
            "r180",
        ),
        (
            bad(queens_sat::instance::InstanceFormat::parse("xml")),
            Opt::InstanceFormat,
            "xml",
        ),
        (bad(queens_sat::options::jobs(Some(0))), Opt::Jobs, "0"),
    ];
    for (b, option, value) in cases {
        assert_eq!((b.option, b.value.as_str()), (option, value), "{b:?}");
        let python = b.message(Naming::Argument);
        // The value as given, and a portfolio entry's own syntax, may hold `--`; the words
        // around them may not.
        let words = python.replace(&b.value, "").replace("varisat --amo", "");
        assert!(
            !words.contains("--") && !words.contains(" -m "),
            "a flag in Python's words: {python}"
        );
        assert!(
            python.starts_with(&format!("{}=", option.argument()))
                || python.starts_with("unknown "),
            "{python}"
        );
        let cli = b.message(Naming::Flag);
        assert!(cli.contains(option.flag()), "{cli}");
    }
}

/// `--jobs 0` is refused on the command line as in the library (it used to become 1 without
/// a word), and `--engine auto` counts as in Python.
#[test]
fn the_command_line_takes_the_librarys_rules() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_one_line_error(
        d,
        &["count", "-n", "6", "--jobs", "0"],
        &["--jobs 0 must be a positive number of threads"],
    );
    assert_one_line_error(
        d,
        &["solve", "-n", "6", "--jobs", "0"],
        &["--jobs 0 must be a positive number of threads"],
    );
    let r = run_expect(
        d,
        &["count", "-n", "6", "--engine", "auto", "--format", "json"],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["total"], 4);
    // auto: the fastest engine that applies (issue 55 §1), named.
    assert_eq!(v["engine"], "backtrack");
    assert_one_line_error(
        d,
        &[
            "generate",
            "blocked",
            "-n",
            "8",
            "-m",
            "100",
            "--min-free",
            "1",
            "--seed",
            "1",
        ],
        &["-m 100 is too many"],
    );
    // The instance format's names come from the library.
    let r = run_expect(
        d,
        &[
            "generate",
            "completion",
            "-n",
            "8",
            "-m",
            "3",
            "--seed",
            "1",
            "--format",
            "board",
        ],
        0,
    );
    assert!(r.stdout.lines().any(|l| l.contains('Q')), "{}", r.stdout);
}

/// `names()` lists every enumerated option, the solver, the export and instance formats
/// included, and each list parses back.
#[test]
fn names_cover_every_enumerated_option() {
    let names: std::collections::BTreeMap<_, _> =
        queens_sat::options::names().into_iter().collect();
    for key in [
        "amo",
        "implied",
        "symmetric",
        "break_symmetry",
        "piece",
        "engine",
        "solver",
        "format",
        "instance_format",
    ] {
        assert!(names.contains_key(key), "{key}");
    }
    for e in &names["engine"] {
        queens_sat::count::CountEngine::parse(e).unwrap();
        queens_sat::count::CountEngine::choice(e).unwrap();
    }
    for f in &names["instance_format"] {
        queens_sat::instance::InstanceFormat::parse(f).unwrap();
    }
    for s in &names["solver"] {
        assert!(*s == "auto" || queens_sat::solve::find(s).is_some(), "{s}");
    }
    assert_eq!(names["format"], ["dimacs", "opb", "lp", "mzn"]);
}

/// The default `--jobs` is the cores this process may use (issue 55 §2): its CPU affinity mask
/// (`taskset`) and, inside a Slurm job, `SLURM_CPUS_PER_TASK`. The cube solver's summary names
/// its worker count.
#[test]
fn default_jobs_respect_affinity_and_slurm() {
    let jobs_of = |prefix: &[&str]| {
        let mut cmd = std::process::Command::new(prefix[0]);
        cmd.args(&prefix[1..]).arg(crate::common::BIN);
        let out = cmd
            .args(["solve", "-n", "12", "--cubes", "--format", "json"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let at = text
            .find(" jobs)")
            .unwrap_or_else(|| panic!("no job count: {text}"));
        let digits: String = text[..at]
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .chars()
            .rev()
            .collect::<String>()
            .parse::<usize>()
            .unwrap()
    };
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(jobs_of(&["env", "-u", "SLURM_CPUS_PER_TASK"]), all);
    assert_eq!(jobs_of(&["env", "SLURM_CPUS_PER_TASK=1"]), 1);
    assert_eq!(jobs_of(&["env", "SLURM_CPUS_PER_TASK=junk"]), all);
    if std::process::Command::new("taskset")
        .arg("-V")
        .output()
        .is_ok()
    {
        assert_eq!(jobs_of(&["taskset", "-c", "0"]), 1);
    }
}
