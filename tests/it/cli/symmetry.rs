//! `--symmetric` and `--break-symmetry lex`: recorded in the header and checked by `decode`.

use super::*;

#[test]
fn symmetric_and_lex_leader_flags() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["count", "-n", "12", "--symmetric", "r90"], 0);
    assert!(r.stdout.starts_with("total 8\n"), "{}", r.stdout);
    let r = run_expect(
        dir.path(),
        &["count", "-n", "10", "--break-symmetry", "lex"],
        0,
    );
    assert!(r.stdout.starts_with("unique 92\n"), "{}", r.stdout);
    // A r90-symmetric 12-queens board, verified.
    let r = run_expect(dir.path(), &["solve", "-n", "12", "--symmetric", "r90"], 10);
    let drawn = assert_solution(&r.stdout, 12, false);
    let set: BTreeSet<Cell> = drawn.queens.iter().copied().collect();
    for &(r0, c0) in &drawn.queens {
        assert!(
            set.contains(&(c0, 11 - r0)),
            "not r90-symmetric: {}",
            r.stdout
        );
    }
    // No 8-queens solution is r90-symmetric.
    run_expect(dir.path(), &["solve", "-n", "8", "--symmetric", "r90"], 20);
    // The exported CNF records the restriction.
    let r = run_expect(
        dir.path(),
        &[
            "encode",
            "-n",
            "6",
            "--symmetric",
            "r180",
            "--break-symmetry",
            "lex",
            "-o",
            "-",
        ],
        0,
    );
    assert!(r.stdout.contains("c symmetric r180\n"));
    assert_one_line_error(
        dir.path(),
        &["count", "-n", "8", "--symmetric", "r45"],
        &["r45"],
    );
    assert_one_line_error(
        dir.path(),
        &["count", "-n", "8", "--break-symmetry", "magic"],
        &["magic"],
    );
}

/// Issue 63: `--symmetric g` adds each equivalence x(d) <-> x(g(d)) as its two implications,
/// once per pair {d, g(d)}: on the 12x12 board r180 and flip_h pair the 144 cells into 72 pairs
/// (144 clauses on top of the plain CNF; r180 wrote 576, every pair from both cells in both
/// directions twice), r90 cycles them in 36 orbits of 4, that is 144 pairs (288 clauses); no
/// clause twice, and the `p cnf` line counts what is written.
#[test]
fn symmetric_cnf_states_each_clause_once() {
    let dir = tempdir();
    let d = dir.path();
    let clauses = |text: &str| -> Vec<Vec<i32>> {
        text.lines()
            .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
            .map(|l| {
                let mut c: Vec<i32> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
                assert_eq!(c.pop(), Some(0), "{l}");
                c.sort_unstable();
                c
            })
            .collect()
    };
    let declared = |text: &str| -> usize {
        let p = text.lines().find(|l| l.starts_with("p cnf ")).unwrap();
        p.split_whitespace().nth(3).unwrap().parse().unwrap()
    };
    let plain = run_expect(d, &["encode", "-n", "12", "-o", "-"], 0).stdout;
    for (g, added) in [("r180", 144), ("flip_h", 144), ("r90", 288)] {
        let sym = run_expect(d, &["encode", "-n", "12", "--symmetric", g, "-o", "-"], 0).stdout;
        let list = clauses(&sym);
        assert_eq!(list.len(), declared(&sym), "{g}");
        assert_eq!(list.len(), declared(&plain) + added, "{g}");
        let distinct: BTreeSet<&Vec<i32>> = list.iter().collect();
        assert_eq!(distinct.len(), list.len(), "{g}: a clause twice");
    }
}

/// A model file for `cnf` that puts pieces on `cols[r]` of each row r (row-major cell
/// variables, as on a plain board) and sets every other variable false.
fn model_for(cnf: &str, n: u32, cols: &[u32]) -> String {
    let vars: u64 = cnf
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .parse()
        .unwrap();
    let on: BTreeSet<u64> = cols
        .iter()
        .enumerate()
        .map(|(r, &c)| r as u64 * n as u64 + c as u64 + 1)
        .collect();
    let lits: Vec<String> = (1..=vars)
        .map(|v| {
            if on.contains(&v) {
                format!("{v}")
            } else {
                format!("-{v}")
            }
        })
        .collect();
    format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))
}

/// Defect 3 (issue 11): `--symmetric` and `--break-symmetry lex` are recorded in the header,
/// and `decode` rejects a board that breaks them, so an exported model can be re-checked.
#[test]
fn decode_checks_the_recorded_symmetry_and_lex_leader() {
    let dir = tempdir();
    let d = dir.path();
    // r180: the header records it; a valid but asymmetric board is rejected.
    run_expect(
        d,
        &["encode", "-n", "8", "--symmetric", "r180", "-o", "s.cnf"],
        0,
    );
    let cnf = fs::read_to_string(d.join("s.cnf")).unwrap();
    assert!(cnf.contains("c symmetric r180\n"), "{cnf}");
    // 8-queens solution 0 4 7 5 2 6 1 3: not r180-symmetric (r180 maps it to 4 6 1 5 2 0 3 7).
    fs::write(
        d.join("asym.out"),
        model_for(&cnf, 8, &[0, 4, 7, 5, 2, 6, 1, 3]),
    )
    .unwrap();
    assert_one_line_error(
        d,
        &["decode", "--cnf", "s.cnf", "--model", "asym.out"],
        &["asym.out", "not r180-symmetric"],
    );
    // 2 4 1 7 0 6 3 5 is r180-symmetric: accepted.
    fs::write(
        d.join("sym.out"),
        model_for(&cnf, 8, &[2, 4, 1, 7, 0, 6, 3, 5]),
    )
    .unwrap();
    run_expect(d, &["decode", "--cnf", "s.cnf", "--model", "sym.out"], 10);

    // Lex-leader: 6-queens has one class of 4 boards; 1 3 5 0 2 4 is its leader (its row-0
    // piece is leftmost), 4 2 0 5 3 1 (its mirror image) is not.
    run_expect(
        d,
        &[
            "encode",
            "-n",
            "6",
            "--break-symmetry",
            "lex",
            "-o",
            "l.cnf",
        ],
        0,
    );
    let cnf = fs::read_to_string(d.join("l.cnf")).unwrap();
    let line = cnf
        .lines()
        .find(|l| l.starts_with("c lex-leader "))
        .unwrap();
    for g in [
        "r90", "r180", "r270", "flip_h", "flip_v", "flip_d", "flip_a",
    ] {
        assert!(line.split_whitespace().any(|w| w == g), "{line}");
    }
    fs::write(
        d.join("leader.out"),
        model_for(&cnf, 6, &[1, 3, 5, 0, 2, 4]),
    )
    .unwrap();
    run_expect(
        d,
        &["decode", "--cnf", "l.cnf", "--model", "leader.out"],
        10,
    );
    fs::write(d.join("other.out"), model_for(&cnf, 6, &[4, 2, 0, 5, 3, 1])).unwrap();
    assert_one_line_error(
        d,
        &["decode", "--cnf", "l.cnf", "--model", "other.out"],
        &["other.out", "lex-leader"],
    );
}
