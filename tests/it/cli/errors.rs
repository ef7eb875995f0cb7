//! Bad input: one-line errors naming the file, line or value, and odd instance names.

use super::*;

// ---------------------------------------------------------------------------------------------
// 8. Bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_input_gives_one_line_errors() {
    let dir = tempdir();
    let d = dir.path();
    write(d, "empty.txt", "");
    write(d, "nonsquare.txt", "....\n...\n....\n....\n");
    write(d, "char.txt", "....\n..z.\n....\n....\n");
    write(d, "n0.param", "letting n = 0\n");
    write(d, "big.param", "letting n = 70000\n");
    write(d, "init.param", "letting n = 8\nletting init = [[0,8]]\n");
    write(
        d,
        "blocks.param",
        "letting n = 8\n\nletting blocks = [[0,1]]\n",
    );
    write(d, "list.param", "letting n = 8\nletting init = [[0,1]\n");
    write(d, "non.param", "letting init = [[0,1]]\n");
    write(
        d,
        "diags.txt",
        "n = 8\nnumdiags = 3\ndiags = [[7,1],[7,0],[3,1]]\n",
    );
    write(d, "noexec.sh", "#!/bin/sh\nexit 10\n");
    let cases: Vec<(Vec<&str>, Vec<&str>)> = vec![
        (
            vec!["solve", "--instance", "empty.txt"],
            vec!["empty.txt", "empty"],
        ),
        (
            vec!["solve", "--instance", "nonsquare.txt"],
            vec!["nonsquare.txt:2:", "3 cells", "expected 4"],
        ),
        (
            vec!["solve", "--instance", "char.txt"],
            vec!["char.txt:2:", "'z'", "column 3"],
        ),
        (
            vec!["solve", "--instance", "n0.param"],
            vec!["n0.param:1:", "n = 0"],
        ),
        (
            vec!["solve", "--instance", "big.param"],
            vec!["big.param:1:", "70000"],
        ),
        (
            vec!["solve", "--instance", "init.param"],
            vec!["init.param:2:", "[0,8]"],
        ),
        (
            vec!["solve", "--instance", "blocks.param"],
            vec!["blocks.param:3:", "[0,1]"],
        ),
        (
            vec!["solve", "--instance", "list.param"],
            vec!["list.param:2:", "init"],
        ),
        (
            vec!["solve", "--instance", "non.param"],
            vec!["non.param", "letting n"],
        ),
        (
            vec!["solve", "--instance", "diags.txt", "--diags", "9"],
            vec!["--diags 9", "numdiags = 3", "diags.txt"],
        ),
        (
            vec![
                "encode",
                "--instance",
                "diags.txt",
                "--diags",
                "9",
                "-o",
                "-",
            ],
            vec!["--diags 9"],
        ),
        (vec!["solve", "-n", "8", "--amo", "magic"], vec!["magic"]),
        (vec!["encode", "-n", "8", "--amo", "magic"], vec!["magic"]),
        (
            vec!["solve", "-n", "8", "--piece", "bishop"],
            vec!["bishop"],
        ),
        (
            vec!["verify", "empty.txt", "--piece", "bishop"],
            vec!["bishop"],
        ),
        (vec!["solve", "-n", "0"], vec!["-n 0"]),
        (vec!["encode", "-n", "0", "-o", "-"], vec!["-n 0"]),
        (
            vec!["solve", "-n", "8", "--solver", "/nonexistent/solver"],
            vec!["/nonexistent/solver", "does not exist"],
        ),
        (
            vec!["solve", "-n", "8", "--solver", "./noexec.sh"],
            vec!["noexec.sh", "not executable"],
        ),
        (
            vec!["solve", "-n", "8", "--timeout", "0"],
            vec!["--timeout"],
        ),
        (vec!["verify", "nonsquare.txt"], vec!["nonsquare.txt:2:"]),
        (
            vec!["verify", "missing-board.txt"],
            vec!["missing-board.txt"],
        ),
    ];
    for (args, needles) in &cases {
        assert_one_line_error(d, args, needles);
    }

    // decode: a literal out of range, and a CNF not written by queens-sat.
    run_expect(d, &["encode", "-n", "8", "-o", "q8.cnf"], 0);
    write(d, "range.out", "s SATISFIABLE\nv 99999 0\n");
    assert_one_line_error(
        d,
        &["decode", "--cnf", "q8.cnf", "--model", "range.out"],
        &["range.out:2:", "99999", "out of range"],
    );
    write(d, "foreign.cnf", "c some other tool\np cnf 3 1\n1 2 3 0\n");
    write(d, "foreign.out", "s SATISFIABLE\nv 1 -2 -3 0\n");
    assert_one_line_error(
        d,
        &["decode", "--cnf", "foreign.cnf", "--model", "foreign.out"],
        &["foreign.cnf", "not a queens-sat"],
    );
    assert!(
        !d.join("cnf-out").exists(),
        "failed encodes must not create cnf-out"
    );
}

/// The odd instance file name of the two tests below: newlines and a fake DIMACS header.
const ODD_NAME: &str = "odd\nc fake\np cnf 1 1\nname.param";

/// Encodes a 6-queens completion instance stored under [`ODD_NAME`] to `odd.cnf`.
fn encode_odd_name(d: &Path) {
    write(d, ODD_NAME, "letting n = 6\nletting init = [[0,1]]\n");
    let r = run_expect(d, &["encode", "--instance", ODD_NAME, "-o", "odd.cnf"], 0);
    assert!(r.stderr.contains("wrote odd.cnf"), "{}", r.stderr);
}

/// An instance path is free text in the CNF header: it must not break the DIMACS file. The name
/// is written escaped on one comment line, and the file stays valid DIMACS and decodes.
#[test]
fn encode_instance_name_with_newline_keeps_dimacs_valid() {
    let dir = tempdir();
    let d = dir.path();
    encode_odd_name(d);
    let text = fs::read_to_string(d.join("odd.cnf")).unwrap();
    let p_lines = text.lines().filter(|l| l.starts_with("p ")).count();
    assert_eq!(p_lines, 1, "exactly one 'p' line:\n{text}");
    // Everything before the p line is a comment.
    let header: Vec<&str> = text.lines().take_while(|l| !l.starts_with("p ")).collect();
    for line in &header {
        assert!(line.starts_with('c'), "non-comment header line {line:?}");
    }
    let cnf = parse_cnf(&text);
    assert_eq!(cnf.clauses.len() as u64, cnf.clauses_declared);
    // decode reads the header back (a solver's UNSAT answer needs no variable map).
    write(d, "unsat.out", "s UNSATISFIABLE\n");
    let r = run_expect(
        d,
        &["decode", "--cnf", "odd.cnf", "--model", "unsat.out"],
        20,
    );
    assert_eq!(r.stdout.trim(), "UNSAT");
    assert_eq!(
        cnf.comment_value("instance"),
        Some(ODD_NAME.replace('\n', "\\n").as_str()),
        "the name is escaped on one line"
    );
}

/// A real solver accepts the CNF of [`ODD_NAME`] and its model decodes to a valid board.
#[test_programs::requires(cadical)]
#[test]
fn odd_instance_name_cnf_solves_and_decodes() {
    require_solver("cadical");
    let dir = tempdir();
    let d = dir.path();
    encode_odd_name(d);
    assert_eq!(run_solver(d, "cadical", "odd.cnf", "odd.out"), 10);
    let r = run_expect(d, &["decode", "--cnf", "odd.cnf", "--model", "odd.out"], 10);
    let b = assert_solution(&r.stdout, 6, false);
    assert!(b.queens.contains(&(0, 1)), "pre-placed queen kept");
}
