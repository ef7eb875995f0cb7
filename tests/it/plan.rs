//! The solve strategy as data (issue 65): `Solver::plan` decides what a solve will do without
//! running a solver, so these tests assert on plans: the default strategy's choice for each kind
//! of instance, and what `certify`, `jobs`, `deterministic`, a proof file, `cubes`, presolve,
//! the encoding options and every kind of solver name change. The last tests check that a
//! solve runs the plan it was given (its report carries the plan, and its answer comes from an
//! engine of the plan) and that `solve --explain` prints it.

use std::time::Duration;

use queens_sat::board::Cell;
use queens_sat::encode::EncodeOptions;
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::implied::Implied;
use queens_sat::generate::Generator;
use queens_sat::instance::{ExcludedDiagonal, Instance};
use queens_sat::piece::{AMAZON, LineKind, Piece, QUEEN};
use queens_sat::solve::{AutoSymmetry, Plan, Solver};
use queens_sat::symmetry::Symmetry;

/// A compact signature of `plan`: `construct(race(bitboard, prepass(cubes lib:cadical x1
/// sums)))`, with the settings that tell plans apart.
fn shape(plan: &Plan) -> String {
    match plan {
        Plan::Run(r) => {
            let mut s = r.backend.name();
            if r.threads > 1 {
                s.push_str(&format!(" x{}", r.threads));
            }
            if r.certify {
                s.push_str(" certified");
            }
            if r.deterministic {
                s.push_str(" deterministic");
            }
            if r.proof.is_some() {
                s.push_str(" proof");
            }
            if let Some(w) = r.walk {
                s.push_str(&format!(" walk {}s", w.as_secs_f64()));
            }
            s
        }
        Plan::Portfolio { entrants, settings } => {
            let names: Vec<String> = entrants
                .iter()
                .map(|(b, o)| format!("{} {}", b.name(), o.amo.name()))
                .collect();
            let walk = settings
                .walk
                .map_or(String::new(), |w| format!(" walk {}s", w.as_secs_f64()));
            format!("portfolio[{}]{walk}", names.join(", "))
        }
        Plan::Construct {
            unsat_stands,
            otherwise,
            ..
        } => format!(
            "construct{}({})",
            if *unsat_stands { "" } else { " sat-only" },
            shape(otherwise)
        ),
        Plan::Prepass { budget, then, .. } => {
            format!("prepass {}s({})", budget.as_secs_f64(), shape(then))
        }
        Plan::Race(lanes) => {
            let lanes: Vec<String> = lanes.iter().map(|(_, p)| shape(p)).collect();
            format!("race({})", lanes.join(", "))
        }
        Plan::Cubes(c) => {
            let mut s = format!("cubes {} x{}", c.conquer.name(), c.jobs);
            if c.options.implied != Implied::None {
                s.push_str(&format!(" {}", c.options.implied.name()));
            }
            if c.certified {
                s.push_str(" certified");
            }
            if c.modulo.len() > 1 {
                let names: Vec<&str> = c
                    .modulo
                    .iter()
                    .filter(|&&g| g != Symmetry::Id)
                    .map(|g| g.name())
                    .collect();
                s.push_str(&format!(" mod {}", names.join(",")));
            }
            s
        }
        Plan::Presolved { run, .. } => format!("presolved({})", shape(&Plan::Run(run.clone()))),
        other => panic!("a plan step this test does not know: {other:?}"),
    }
}

/// The plan of the default strategy on `inst` with `jobs` threads, as its shape.
fn auto(inst: &Instance, piece: Piece, jobs: usize) -> String {
    shape(
        &Solver::new(inst, piece)
            .jobs(Some(jobs))
            .plan()
            .expect("a plan"),
    )
}

/// An excluded-diagonals instance (`diags` of the list, n = 12): its unavailable cells lie on
/// whole diagonals, the family where the bitboard search is split over the cores.
fn diagonals(to_completion: bool) -> Instance {
    Generator::Diagonals {
        min_free: 1,
        diags: Some(12),
        to_completion,
    }
    .instance(12, 1)
    .unwrap()
}

/// A blocked board (n = 12, 30 blocked cells): not of the diagonal family.
fn blocked() -> Instance {
    Generator::Blocked { m: 30, min_free: 2 }
        .instance(12, 3)
        .unwrap()
}

/// n = 10 with both long diagonals excluded: closed under every symmetry of the square, so its
/// stabiliser is the whole group.
fn symmetric_diagonals() -> Instance {
    let n = 10;
    Instance {
        n,
        excluded: vec![
            ExcludedDiagonal {
                kind: LineKind::Diagonal,
                key: LineKind::Diagonal.key(Cell::new(0, 0), n),
            },
            ExcludedDiagonal {
                kind: LineKind::AntiDiagonal,
                key: LineKind::AntiDiagonal.key(Cell::new(0, n - 1), n),
            },
        ],
        ..Instance::default()
    }
}

#[test]
fn a_plain_board_is_constructed_first() {
    // Small: the race behind the construction (on 2 threads), local search then cubes alone
    // on one.
    assert_eq!(
        auto(&Instance::plain(8), QUEEN, 2),
        "construct(race(bitboard, prepass 1s(cubes lib:cadical x1 sums)))"
    );
    assert_eq!(
        auto(&Instance::plain(8), QUEEN, 1),
        "construct(prepass 1s(cubes lib:cadical x1 sums))"
    );
    // Past the cube solver's size, the two CDCL solvers raced after local search.
    assert_eq!(
        auto(&Instance::plain(100), QUEEN, 2),
        "construct(portfolio[varisat auto, lib:cadical auto] walk 1s)"
    );
    // Past a million cells, local search alone where the construction builds nothing.
    assert_eq!(auto(&Instance::plain(1001), AMAZON, 2), "construct(walk)");
}

#[test]
fn the_diagonal_family_gets_the_split_bitboard_search() {
    for to_completion in [false, true] {
        let inst = diagonals(to_completion);
        assert_eq!(auto(&inst, QUEEN, 2), "bitboard x2", "{to_completion}");
        assert_eq!(auto(&inst, QUEEN, 4), "bitboard x4", "{to_completion}");
        // One thread: no split, no race.
        assert_eq!(
            auto(&inst, QUEEN, 1),
            "prepass 1s(cubes lib:cadical x1 sums)",
            "{to_completion}"
        );
    }
    // Amazons too.
    assert_eq!(auto(&diagonals(false), AMAZON, 2), "bitboard x2");
}

#[test]
fn other_hard_boards_race_the_bitboard_search_against_cubes() {
    let inst = blocked();
    assert_eq!(
        auto(&inst, QUEEN, 2),
        "race(bitboard, prepass 1s(cubes lib:cadical x1 sums))"
    );
    assert_eq!(
        auto(&inst, QUEEN, 4),
        "race(bitboard, prepass 1s(cubes lib:cadical x3 sums))"
    );
    assert_eq!(
        auto(&inst, QUEEN, 1),
        "prepass 1s(cubes lib:cadical x1 sums)"
    );
}

#[test]
fn certify_changes_every_step_that_answers_unsat() {
    let plan = |inst: &Instance, jobs| {
        shape(
            &Solver::new(inst, QUEEN)
                .jobs(Some(jobs))
                .certify(true)
                .plan()
                .unwrap(),
        )
    };
    // The construction's UNSAT carries no proof; the cubes are certified, without the sums.
    assert_eq!(
        plan(&Instance::plain(8), 2),
        "construct sat-only(race(bitboard certified, prepass 1s(cubes lib:cadical x1 certified)))"
    );
    assert_eq!(plan(&diagonals(false), 2), "bitboard x2 certified");
    assert_eq!(
        plan(&blocked(), 1),
        "prepass 1s(cubes lib:cadical x1 certified)"
    );
    // Under certify the search is never taken modulo the instance's symmetries.
    assert_eq!(
        plan(&symmetric_diagonals(), 1),
        "prepass 1s(cubes lib:cadical x1 certified)"
    );
}

#[test]
fn the_cube_solver_searches_modulo_the_stabiliser() {
    let inst = symmetric_diagonals();
    assert_eq!(
        auto(&inst, QUEEN, 1),
        "prepass 1s(cubes lib:cadical x1 sums mod r90,r180,r270,flip_h,flip_v,flip_d,flip_a)"
    );
    let with = |when: AutoSymmetry, jobs: usize| {
        shape(
            &Solver::new(&inst, QUEEN)
                .jobs(Some(jobs))
                .auto_symmetry(when)
                .plan()
                .unwrap(),
        )
    };
    assert_eq!(
        with(AutoSymmetry::Off, 1),
        "prepass 1s(cubes lib:cadical x1 sums)"
    );
    // `--break-symmetry cubes`: the cube solver even where the bitboard search would be split.
    assert!(
        with(AutoSymmetry::Always, 2)
            .starts_with("race(bitboard, prepass 1s(cubes lib:cadical x1 sums mod "),
        "{}",
        with(AutoSymmetry::Always, 2)
    );
    // By default, blocked boards are not taken modulo their symmetries (measured slower).
    let mut plain_blocked = Instance::plain(10);
    plain_blocked.blocked = vec![
        Cell::new(0, 0),
        Cell::new(9, 9),
        Cell::new(0, 9),
        Cell::new(9, 0),
    ];
    assert_eq!(
        auto(&plain_blocked, QUEEN, 1),
        "prepass 1s(cubes lib:cadical x1 sums)"
    );
}

#[test]
fn a_named_solver_runs_alone_and_a_list_races() {
    let inst = blocked();
    let plan = |solver: &str| {
        shape(
            &Solver::new(&inst, QUEEN)
                .jobs(Some(2))
                .solver(solver)
                .plan()
                .unwrap(),
        )
    };
    // One thread for an engine that runs on one (the table refuses --jobs there), every
    // thread asked for the search that splits.
    assert_eq!(plan("varisat"), "varisat");
    assert_eq!(plan("lib:cadical"), "lib:cadical");
    assert_eq!(plan("walk"), "walk");
    assert_eq!(plan("bitboard"), "bitboard x2");
    // An engine alone that does not take the instance is refused while planning, as its run
    // would refuse it: the construction builds plain boards only.
    let e = Solver::new(&inst, QUEEN)
        .solver("construct")
        .plan()
        .unwrap_err();
    assert!(e.to_string().contains("plain boards only"), "{e}");
    let plain = Solver::new(&Instance::plain(8), QUEEN)
        .solver("construct")
        .plan()
        .unwrap();
    assert_eq!(shape(&plain), "construct");
    assert_eq!(
        plan("varisat,lib:cadical --amo product"),
        "portfolio[varisat auto, lib:cadical product]"
    );
    // An unknown name is refused while planning, before anything runs.
    let e = Solver::new(&inst, QUEEN)
        .solver("no-such-solver-anywhere")
        .plan()
        .unwrap_err();
    assert!(e.to_string().contains("no-such-solver-anywhere"), "{e}");
}

#[test]
fn deterministic_and_a_proof_file_reach_the_bitboard_run() {
    let inst = diagonals(false);
    let deterministic = Solver::new(&inst, QUEEN)
        .solver("bitboard")
        .jobs(Some(2))
        .deterministic(true)
        .plan()
        .unwrap();
    assert_eq!(shape(&deterministic), "bitboard x2 deterministic");
    let dir = tempfile::tempdir().unwrap();
    let proof = Solver::new(&inst, QUEEN)
        .certify(true)
        .proof(Some(dir.path().join("p.lrat")))
        .plan()
        .unwrap();
    // The bitboard search answers alone and writes the proof (whatever the jobs).
    assert_eq!(shape(&proof), "bitboard certified proof");
    // Planning wrote nothing.
    assert!(!dir.path().join("p.lrat").exists());
}

#[test]
fn cubes_name_their_conquering_engine() {
    let inst = blocked();
    let plan = |solver: &str, certify: bool| {
        Solver::new(&inst, QUEEN)
            .jobs(Some(2))
            .solver(solver)
            .cubes(16)
            .certify(certify)
            .plan()
    };
    assert_eq!(shape(&plan("auto", false).unwrap()), "cubes varisat x2");
    assert_eq!(
        shape(&plan("lib:cadical", false).unwrap()),
        "cubes lib:cadical x2"
    );
    assert_eq!(
        shape(&plan("auto", true).unwrap()),
        "cubes varisat x2 certified"
    );
    let Plan::Cubes(c) = plan("auto", false).unwrap() else {
        panic!("cubes")
    };
    assert_eq!(c.max_cubes, 16);
    // An engine that conquers no cubes under assumptions is refused while planning.
    let e = plan("walk", false).unwrap_err();
    assert!(e.to_string().contains("--cubes"), "{e}");
}

#[test]
fn what_turns_the_default_strategy_to_the_portfolio() {
    let inst = blocked();
    let race = "portfolio[varisat auto, lib:cadical auto] walk 1s";
    // Without presolve.
    let p = Solver::new(&inst, QUEEN).presolve(false).plan().unwrap();
    assert_eq!(shape(&p), race);
    // With lex-leader constraints of the user's.
    let options = EncodeOptions {
        lex_leader: queens_sat::encode::lex::SymmetrySet::of(&[Symmetry::Id, Symmetry::R180]),
        ..EncodeOptions::from(AmoKind::DEFAULT)
    };
    let p = Solver::new(&inst, QUEEN).options(options).plan().unwrap();
    assert_eq!(shape(&p), race);
}

/// Whether the construction answers a plain board is known from n and the piece, so the plan
/// says it: where it builds nothing (amazons n = 8, queens n = 3 under certify, where its
/// UNSAT carries no proof) the plan is the fallback alone; where it answers, an encoding asked
/// for is refused by the plan, as the solve refuses it, since no CNF would be built.
#[test]
fn the_plan_knows_where_the_construction_answers() {
    let construct = "construct".to_string();
    assert!(auto(&Instance::plain(3), QUEEN, 2).starts_with("construct("));
    let certified = Solver::new(&Instance::plain(3), QUEEN)
        .jobs(Some(2))
        .certify(true)
        .plan()
        .unwrap();
    assert!(!certified.engines().contains(&construct), "{certified}");
    let eight = Instance::plain(8);
    let p = Solver::new(&eight, AMAZON)
        .jobs(Some(2))
        .amo_given(true)
        .plan()
        .unwrap();
    assert!(!p.engines().contains(&construct), "{p}");
    let three = Instance::plain(3);
    for solver in [
        Solver::new(&eight, QUEEN).amo_given(true),
        Solver::new(&eight, QUEEN).implied(Implied::Sums),
        Solver::new(&three, QUEEN).amo_given(true),
    ] {
        let by_plan = solver.plan().unwrap_err().to_string();
        let by_solve = solver.solve().unwrap_err().to_string();
        assert_eq!(by_plan, by_solve);
        assert!(by_plan.contains("construction"), "{by_plan}");
    }
}

/// An instance presolve refutes (two pre-placed queens on one row).
fn refuted() -> Instance {
    let mut refuted = Instance::plain(8);
    refuted.placed = vec![Cell::new(0, 0), Cell::new(0, 5)];
    refuted
}

/// A presolve-refuted instance is a plan step of its own: UNSAT without a search, reported by
/// one engine call (no race, no split, no local search), which under certify backs it with a
/// checked refutation: presolve's proof in the proof file, else the unpresolved encoding refuted
/// by the engine, or by varisat where the engine takes presolved problems only. Each plan is
/// then run: UNSAT, named `presolve` with its reason, certified exactly where asked.
#[test]
fn a_refuted_instance_is_answered_by_presolve_in_every_plan() {
    let inst = refuted();
    let proof = tempfile::NamedTempFile::new().unwrap();
    let cases: Vec<(Solver, &str)> = vec![
        (Solver::new(&inst, QUEEN), "presolved(varisat)"),
        (
            Solver::new(&inst, QUEEN).jobs(Some(2)).certify(true),
            "presolved(varisat certified)",
        ),
        (
            Solver::new(&inst, QUEEN)
                .solver("lib:cadical,varisat")
                .certify(true),
            "presolved(lib:cadical certified)",
        ),
        (
            Solver::new(&inst, QUEEN).solver("bitboard").certify(true),
            "presolved(varisat certified)",
        ),
        (
            Solver::new(&inst, QUEEN)
                .certify(true)
                .proof(Some(proof.path().to_path_buf())),
            "presolved(bitboard certified proof)",
        ),
        (Solver::new(&inst, QUEEN).cubes(64), "presolved(varisat)"),
        (
            Solver::new(&inst, QUEEN).cubes(64).certify(true),
            "presolved(varisat certified)",
        ),
        (Solver::new(&inst, QUEEN).solver("walk"), "presolved(walk)"),
    ];
    for (i, (solver, expected)) in cases.into_iter().enumerate() {
        let solver = solver.jobs(Some(2));
        let plan = solver.plan().unwrap();
        assert_eq!(shape(&plan), expected, "case {i}");
        let Plan::Presolved { reason, run } = &plan else {
            unreachable!()
        };
        assert!(reason.contains("share a row"), "case {i}: {reason}");
        assert!(
            plan.to_string().starts_with("presolve refutes it"),
            "case {i}: {plan}"
        );
        assert_eq!(plan.to_json()["step"], "presolved", "case {i}");
        let r = solver.solve().unwrap();
        assert!(
            matches!(r.status, queens_sat::solve::Answer::Unsat),
            "case {i}"
        );
        assert_eq!(r.solver, "presolve", "case {i}");
        assert_eq!(r.reason.as_deref(), Some(reason.as_str()), "case {i}");
        assert_eq!(
            r.certificate.is_some(),
            run.certify,
            "case {i}: {:?}",
            r.certificate
        );
    }
}

#[test]
fn the_time_limit_caps_the_local_search() {
    let p = Solver::new(&blocked(), QUEEN)
        .jobs(Some(1))
        .timeout(Some(Duration::from_secs(5)))
        .plan()
        .unwrap();
    assert_eq!(shape(&p), "prepass 0.5s(cubes lib:cadical x1 sums)");
}

#[test]
fn chosen_implied_constraints_reach_the_cubes() {
    let p = Solver::new(&blocked(), QUEEN)
        .jobs(Some(1))
        .implied(Implied::None)
        .plan()
        .unwrap();
    assert_eq!(shape(&p), "prepass 1s(cubes lib:cadical x1)");
}

#[test]
fn a_plan_is_the_same_on_every_call() {
    for inst in [
        Instance::plain(8),
        blocked(),
        diagonals(false),
        symmetric_diagonals(),
    ] {
        let s = Solver::new(&inst, QUEEN).jobs(Some(2));
        let (a, b) = (s.plan().unwrap(), s.plan().unwrap());
        assert_eq!(a.to_json(), b.to_json());
        assert_eq!(a.to_string(), b.to_string());
    }
}

#[test]
fn a_solve_reports_the_plan_it_ran_and_an_engine_of_it_answers() {
    for (inst, jobs) in [
        (Instance::plain(8), 2),
        (blocked(), 1),
        (blocked(), 2),
        (diagonals(false), 2),
    ] {
        let s = Solver::new(&inst, QUEEN).jobs(Some(jobs));
        let plan = s.plan().unwrap();
        let report = s.solve().unwrap();
        let ran = report.plan.as_ref().expect("Solver::solve sets the plan");
        assert_eq!(ran.to_json(), plan.to_json());
        // The answer's label starts with an engine of the plan (a cube-and-conquer summary
        // starts with its conquering engine; `walk` is the local search; `presolve` answers
        // before any engine).
        let engines = plan.engines();
        assert!(
            report.solver == "presolve"
                || engines
                    .iter()
                    .any(|e| report.solver.starts_with(e.as_str())),
            "{} not from {engines:?}",
            report.solver
        );
    }
}

#[test]
fn explain_prints_the_plan_without_solving() {
    let exe = env!("CARGO_BIN_EXE_queens-sat");
    let out = std::process::Command::new(exe)
        .args(["solve", "-n", "8", "--jobs", "1", "--explain"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let expected = Solver::new(&Instance::plain(8), QUEEN)
        .jobs(Some(1))
        .plan()
        .unwrap()
        .to_string();
    assert_eq!(text, expected);
    assert!(text.starts_with("the construction"), "{text}");
    let out = std::process::Command::new(exe)
        .args([
            "solve",
            "-n",
            "8",
            "--jobs",
            "1",
            "--explain",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["step"], "construct");
    assert_eq!(json["otherwise"]["then"]["conquer"], "lib:cadical");
    // A solve's JSON record carries the plan that ran.
    let out = std::process::Command::new(exe)
        .args(["solve", "-n", "8", "--jobs", "1", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(10));
    let rec: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["plan"], json);
    // Refused with a board format: a plan is text or JSON.
    let out = std::process::Command::new(exe)
        .args(["solve", "-n", "8", "--explain", "--format", "svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

/// The table of which option applies where (`applies::RULES`) and the plans agree: wherever the
/// table refuses a solve option, no value of the option changes the plan (or the library
/// refuses the request itself); and each option the table governs changes some plan where the
/// table lets it through.
#[test]
fn an_option_the_table_refuses_changes_no_plan() {
    use queens_sat::applies::{Command, Given, RULES, refusing};
    use queens_sat::certify::ProofFormat;
    use queens_sat::error::Opt;

    const GOVERNED: [Opt; 6] = [
        Opt::Jobs,
        Opt::Deterministic,
        Opt::Amo,
        Opt::Implied,
        Opt::BreakSymmetry,
        Opt::ProofFormat,
    ];
    // Every row of `solve` is about an option the plan decides.
    for rule in RULES.iter().filter(|r| r.command == Command::Solve) {
        assert!(GOVERNED.contains(&rule.option), "{rule:?}");
    }
    let instances = [Instance::plain(8), blocked(), symmetric_diagonals()];
    let solvers = [
        "auto",
        "varisat",
        "lib:cadical",
        "bitboard",
        "walk",
        "construct",
        "varisat,bitboard",
    ];
    let (mut refused, mut applied) = (0, 0);
    let mut changed = std::collections::BTreeSet::new();
    for inst in &instances {
        for solver in solvers {
            for cubes in [false, true] {
                for certify in [false, true] {
                    for jobs in [1usize, 3] {
                        let base = || {
                            let s = Solver::new(inst, QUEEN)
                                .solver(solver)
                                .certify(certify)
                                .jobs(Some(jobs));
                            if cubes { s.cubes(16) } else { s }
                        };
                        type Vary<'a> = Box<dyn Fn(Solver<'a>) -> Solver<'a> + 'a>;
                        for option in GOVERNED {
                            // The option's values, as changes of the request (the first is
                            // the option not given).
                            let values: Vec<Vary<'_>> = match option {
                                Opt::Jobs => vec![
                                    Box::new(|s| s.jobs(Some(1))),
                                    Box::new(|s| s.jobs(Some(3))),
                                ],
                                Opt::Deterministic => {
                                    vec![Box::new(|s| s), Box::new(|s| s.deterministic(true))]
                                }
                                Opt::Amo => [AmoKind::DEFAULT, AmoKind::parse("product").unwrap()]
                                    .into_iter()
                                    .map(|a| -> Vary<'_> {
                                        Box::new(move |s: Solver<'_>| {
                                            s.options(EncodeOptions::from(a))
                                        })
                                    })
                                    .collect(),
                                Opt::Implied => vec![
                                    Box::new(|s| s),
                                    Box::new(|s| s.implied(Implied::None)),
                                    Box::new(|s| s.implied(Implied::Sums)),
                                ],
                                Opt::BreakSymmetry => vec![
                                    Box::new(|s| s),
                                    Box::new(|s| s.auto_symmetry(AutoSymmetry::Off)),
                                    Box::new(|s| s.auto_symmetry(AutoSymmetry::Always)),
                                ],
                                Opt::ProofFormat => vec![
                                    Box::new(|s| s),
                                    Box::new(|s| s.proof_format(Some(ProofFormat::Lrat))),
                                    Box::new(|s| s.proof_format(Some(ProofFormat::Veripb))),
                                ],
                                _ => unreachable!(),
                            };
                            let plans: Vec<serde_json::Value> = values
                                .iter()
                                .filter_map(|vary| vary(base()).plan().ok())
                                .map(|p| p.to_json())
                                .collect();
                            let given = Given::new()
                                .value(Opt::Solver, solver)
                                .switch_if(Opt::Cubes, cubes)
                                .value(Opt::Jobs, jobs.to_string());
                            let differ = plans.windows(2).any(|w| w[0] != w[1]);
                            match refusing(Command::Solve, option, &given) {
                                Some(rule) => {
                                    refused += 1;
                                    assert!(
                                        !differ,
                                        "{option:?} is refused ({}) yet changes the plan of \
                                         solver {solver}, cubes {cubes}, certify {certify}, jobs \
                                         {jobs} on n = {}: {plans:#?}",
                                        rule.why, inst.n
                                    );
                                }
                                None => {
                                    applied += 1;
                                    if differ {
                                        changed.insert(format!("{option:?}"));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(
        refused > 100 && applied > 100,
        "{refused} refused, {applied} applied"
    );
    // No governed option is dead: each changes some plan where it applies.
    for option in GOVERNED {
        assert!(
            changed.contains(&format!("{option:?}")),
            "{option:?} changed no plan: {changed:?}"
        );
    }
}
