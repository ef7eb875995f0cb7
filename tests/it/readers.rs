//! Readers at the edges (issue 52 §3): `-` is standard input wherever a file is read, a
//! compressed input is told by its content, a binary or endless input gets one line at its first
//! non-text byte, every whole-file read has a size limit, and a file of the wrong kind is named
//! as such.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::common::{BIN, assert_one_line_error, run_expect};

/// Runs the binary in `dir` with `stdin` as its standard input: (exit code, stdout, stderr).
fn run_with_stdin(dir: &Path, args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const ATTACKING: &str =
    "Q.......\n........\n........\n...Q....\n........\n........\n........\n........\n";

fn xz(text: &[u8]) -> Vec<u8> {
    let mut c =
        queens_sat::compress::Compressor::new(queens_sat::compress::Codec::Xz, 1, Vec::new())
            .unwrap();
    c.write_all(text).unwrap();
    c.finish().unwrap()
}

#[test]
fn a_dash_is_standard_input_plain_or_compressed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // An instance on stdin, plain and xz-compressed: presolve's UNSAT either way.
    for input in [ATTACKING.as_bytes().to_vec(), xz(ATTACKING.as_bytes())] {
        let (code, _, err) = run_with_stdin(d, &["solve", "--instance", "-"], &input);
        assert_eq!(code, 20, "{err}");
        assert!(err.contains("share a diagonal"), "{err}");
    }
    // A board on stdin for verify: the solver's own board is valid, a bad one is named
    // `<stdin>`.
    let board = run_expect(d, &["solve", "-n", "10"], 10).stdout;
    let (code, _, err) = run_with_stdin(d, &["verify", "-"], board.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run_with_stdin(d, &["verify", "-"], ATTACKING.as_bytes());
    assert_eq!(code, 1);
    assert!(
        err.starts_with("queens-sat: error: <stdin>: invalid"),
        "{err}"
    );
    // A model on stdin for decode.
    run_expect(d, &["encode", "-n", "6", "-o", "q6.cnf"], 0);
    let r = run_expect(d, &["solve", "-n", "6", "--format", "json"], 10);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    let cols: Vec<u64> = v["queens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q[1].as_u64().unwrap())
        .collect();
    let model: String = (0..6u64)
        .flat_map(|r| (0..6u64).map(move |c| (r, c)))
        .map(|(r, c)| {
            let var = (r * 6 + c + 1) as i64;
            if cols[r as usize] == c { var } else { -var }
        })
        .map(|l| l.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let answer = format!("s SATISFIABLE\nv {model} 0\n");
    let (code, out, err) = run_with_stdin(
        d,
        &["decode", "--cnf", "q6.cnf", "--model", "-"],
        answer.as_bytes(),
    );
    assert_eq!(code, 10, "{err}");
    assert_eq!(out.matches('Q').count(), 6, "{out}");
}

#[test]
fn compressed_inputs_are_told_by_content() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // xz bytes under a plain name.
    std::fs::write(d.join("inst.txt"), xz(ATTACKING.as_bytes())).unwrap();
    let r = run_expect(d, &["solve", "--instance", "inst.txt"], 20);
    assert!(r.stderr.contains("share a diagonal"), "{}", r.stderr);
}

#[test]
fn binary_and_endless_inputs_get_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // An endless device: refused at its first control byte (the test would hang otherwise).
    assert_one_line_error(
        d,
        &["solve", "--instance", "/dev/urandom"],
        &["/dev/urandom:", "is not text"],
    );
    assert_one_line_error(
        d,
        &["verify", "/dev/urandom"],
        &["/dev/urandom:", "is not text"],
    );
    // A NUL in line 2 of a board: named by line and column.
    std::fs::write(d.join("nul.txt"), b"Q...\n..\x00.\n").unwrap();
    assert_one_line_error(
        d,
        &["solve", "--instance", "nul.txt"],
        &["nul.txt:2:", "byte 0x00 at column 3 is not text"],
    );
    // The size limit (here 100 bytes, through the library; the command line's is 1 GiB).
    let big = d.join("big.txt");
    std::fs::write(&big, ".".repeat(101)).unwrap();
    let e = queens_sat::compress::read_limited(&big, 100)
        .unwrap_err()
        .to_string();
    assert!(e.contains("longer than 100 bytes, the input limit"), "{e}");
    assert_eq!(
        queens_sat::compress::read_limited(&big, 101).unwrap().len(),
        101
    );
}

#[test]
fn files_of_the_wrong_kind_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_expect(d, &["encode", "-n", "6", "-o", "q6.cnf.xz"], 0);
    assert_one_line_error(
        d,
        &["solve", "--instance", "q6.cnf.xz"],
        &["q6.cnf.xz:1:", "this is a DIMACS CNF, not an instance"],
    );
    // A model of another file: the inputs disagree, no solver is at fault.
    run_expect(d, &["encode", "-n", "6", "-o", "q6.cnf"], 0);
    run_expect(
        d,
        &[
            "encode",
            "-n",
            "6",
            "--amo",
            "sequential",
            "-o",
            "other.cnf",
        ],
        0,
    );
    let all_true: String = (1..=36).map(|v| format!("{v} ")).collect();
    std::fs::write(d.join("m.txt"), format!("s SATISFIABLE\nv {all_true}0\n")).unwrap();
    let line = assert_one_line_error(
        d,
        &["decode", "--cnf", "q6.cnf", "--model", "m.txt"],
        &["m.txt", "is not a solution of q6.cnf"],
    );
    assert!(!line.contains("solver fault"), "{line}");
}

/// The `# piece:` header (issue 54 §3): it names the piece where `--piece` is absent, a
/// `--piece` that differs is refused naming both, `convert` carries it over, and `verify` takes
/// it from the instance or the board file.
#[test]
fn the_piece_header_applies_where_piece_is_absent() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Amazons n = 4..9 have no solution; queens n = 8 have 92: the header decides the answer.
    std::fs::write(
        d.join("am.txt"),
        format!("# piece: amazon\n{}", "........\n".repeat(8)),
    )
    .unwrap();
    let r = run_expect(
        d,
        &["solve", "--instance", "am.txt", "--format", "json"],
        20,
    );
    assert!(r.stdout.contains(r#""piece":"amazon""#), "{}", r.stdout);
    let r = run_expect(
        d,
        &["solve", "--instance", "am.txt", "--piece", "amazon"],
        20,
    );
    assert!(r.stdout.starts_with("UNSAT"), "{}", r.stdout);
    assert_one_line_error(
        d,
        &["solve", "--instance", "am.txt", "--piece", "queen"],
        &["--piece 'queen'", "am.txt", "piece: amazon"],
    );
    let r = run_expect(d, &["count", "--instance", "am.txt", "--format", "json"], 0);
    assert!(r.stdout.contains(r#""total":0"#), "{}", r.stdout);
    // convert keeps the header; the param file reads back as amazons.
    run_expect(
        d,
        &[
            "convert",
            "--instance",
            "am.txt",
            "--to",
            "param",
            "-o",
            "am.param",
        ],
        0,
    );
    let text = std::fs::read_to_string(d.join("am.param")).unwrap();
    assert!(text.contains("piece: amazon"), "{text}");
    let r = run_expect(
        d,
        &["solve", "--instance", "am.param", "--format", "json"],
        20,
    );
    assert!(r.stdout.contains(r#""piece":"amazon""#), "{}", r.stdout);
    assert_one_line_error(
        d,
        &["convert", "--instance", "am.txt", "--to", "completion"],
        &["--to completion", "amazon"],
    );
    // verify: a queens solution of n = 8 is no amazons solution (a knight's leap apart).
    let board = "# piece: amazon\n...Q....\n.Q......\n......Q.\n..Q.....\n.....Q..\n.......Q\n....Q...\nQ.......\n";
    std::fs::write(d.join("b.txt"), board).unwrap();
    let plain = board.replace("# piece: amazon\n", "");
    std::fs::write(d.join("q.txt"), &plain).unwrap();
    run_expect(d, &["verify", "q.txt"], 0);
    run_expect(d, &["verify", "b.txt"], 1);
    run_expect(d, &["verify", "q.txt", "--instance", "am.txt"], 1);
    assert_one_line_error(
        d,
        &["verify", "b.txt", "--piece", "queen"],
        &["--piece 'queen'", "piece: amazon"],
    );
    assert_one_line_error(d, &["solve", "--instance", "bad.txt"], &["bad.txt"]);
    std::fs::write(
        d.join("rook.txt"),
        "# piece: rook\n....\n....\n....\n....\n",
    )
    .unwrap();
    assert_one_line_error(
        d,
        &["solve", "--instance", "rook.txt"],
        &["rook.txt:1", "unknown piece"],
    );
}
