//! `verify`: valid boards accepted, violations named.

use super::*;

// ---------------------------------------------------------------------------------------------
// 4. verify
// ---------------------------------------------------------------------------------------------

#[test]
fn verify_accepts_valid_and_names_violations() {
    let dir = tempdir();
    let d = dir.path();
    let good = board_text(8, &SOLUTION_8);
    assert_solution(&good, 8, false);
    write(d, "good.txt", &good);
    let r = run_expect(d, &["verify", "good.txt"], 0);
    assert!(r.stderr.contains("valid"), "{}", r.stderr);

    // `--format json`: the verdict as a record on stdout.
    let r = run_expect(d, &["verify", "good.txt", "--format", "json"], 0);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        (&v["valid"], &v["pieces"], &v["n"]),
        (&true.into(), &8.into(), &8.into())
    );
    assert_eq!(v["violation"], Value::Null);

    // The only attacking pair is (0,0)-(3,3).
    write(d, "diag.txt", &board_text(8, &[0, 2, 5, 3, 1, 7, 4, 6]));
    let r = run_expect(d, &["verify", "diag.txt", "--format", "json"], 1);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["valid"], false);
    assert_eq!(v["cells"], serde_json::json!([[0, 0], [3, 3]]));
    assert!(
        v["violation"]
            .as_str()
            .unwrap()
            .contains("share a diagonal"),
        "{v}"
    );
    assert_one_line_error(
        d,
        &["verify", "diag.txt"],
        &["diag.txt", "queens at (0,0) and (3,3) share a diagonal"],
    );

    // Two queens in one column.
    let mut col = SOLUTION_8;
    col[7] = col[0];
    write(d, "col.txt", &board_text(8, &col));
    assert_one_line_error(d, &["verify", "col.txt"], &["col.txt", "column"]);

    // A queen missing.
    write(d, "seven.txt", &board_text(8, &SOLUTION_8[..7]));
    assert_one_line_error(
        d,
        &["verify", "seven.txt"],
        &["seven.txt", "7 queens, expected 8"],
    );

    // The same valid queens board is not an amazon solution: it has knight pairs.
    let msg = assert_one_line_error(
        d,
        &["verify", "good.txt", "--piece", "amazon"],
        &["good.txt", "amazons at", "leap apart"],
    );
    let cells: Vec<usize> = msg
        .split(|ch: char| !ch.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    let pair = &cells[cells.len() - 4..];
    assert!(
        is_knight_move((pair[0], pair[1]), (pair[2], pair[3])),
        "the named pair is not a knight move apart: {msg}"
    );

    // Against an instance: a missing pre-placed queen, a queen on a blocked cell.
    write(d, "init.param", "letting n = 8\nletting init = [[0,0]]\n");
    write(d, "other.txt", &board_text(8, &SOLUTION_8_B));
    assert_solution(&board_text(8, &SOLUTION_8_B), 8, false);
    run_expect(d, &["verify", "good.txt", "--instance", "init.param"], 0);
    assert_one_line_error(
        d,
        &["verify", "other.txt", "--instance", "init.param"],
        &["other.txt", "pre-placed queen at (0,0) is missing"],
    );
    write(
        d,
        "blocks.param",
        "language ESSENCE' 1.0\nletting n be 8\nletting blocks be [[1,1]]\n",
    );
    run_expect(d, &["verify", "other.txt", "--instance", "blocks.param"], 0);
    assert_one_line_error(
        d,
        &["verify", "good.txt", "--instance", "blocks.param"],
        &["good.txt", "(0,0)", "blocked"],
    );
}
