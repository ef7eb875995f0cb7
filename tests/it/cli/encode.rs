//! `encode`: default paths, headers and counts, group sizes, `--no-presolve`, and atomic output.

use super::*;

// ---------------------------------------------------------------------------------------------
// 5. encode
// ---------------------------------------------------------------------------------------------

#[test]
fn encode_default_paths() {
    let dir = tempdir();
    let d = dir.path();
    let amo = default_amo(d);
    let r = run_expect(d, &["encode", "-n", "8"], 0);
    assert!(r.stdout.is_empty(), "nothing on stdout: {}", r.stdout);
    let path = d.join(format!("cnf-out/queen-8-{amo}.cnf"));
    let text = fs::read_to_string(&path).expect("default output file exists");
    let cnf = check_cnf(d, &text, &["-n", "8"], "queen", 8);
    assert!(cnf.has_comment(&format!("c amo {amo}")));
    assert!(cnf.has_comment("c cells rowmajor"));
    run_expect(d, &["encode", "-n", "8", "--amo", "sequential"], 0);
    assert!(d.join("cnf-out/queen-8-sequential.cnf").is_file());

    write(d, "comp.param", "letting n = 8\nletting init = [[0,0]]\n");
    let r = run_expect(
        d,
        &["encode", "--instance", "comp.param", "--amo", "pairwise"],
        0,
    );
    // The default name: piece, side, encoding, the instance's stem, then a hash of the
    // instance and options (tests/it/names.rs).
    let file = r.stderr.split_whitespace().nth(1).unwrap();
    assert!(
        file.starts_with("cnf-out/queen-8-pairwise-comp-") && file.ends_with(".cnf"),
        "{file}"
    );
    let text = fs::read_to_string(d.join(file))
        .expect("default output file with the instance stem exists");
    let cnf = check_cnf(
        d,
        &text,
        &["--instance", "comp.param", "--amo", "pairwise"],
        "queen",
        8,
    );
    assert!(cnf.has_comment("c amo pairwise"));

    let r = run_expect(d, &["encode", "-n", "10", "--piece", "amazon"], 0);
    assert!(r.stdout.is_empty());
    let text = fs::read_to_string(d.join(format!("cnf-out/amazon-10-{amo}.cnf")))
        .expect("amazon default output file exists");
    check_cnf(d, &text, &["-n", "10", "--piece", "amazon"], "amazon", 10);

    let mut names: Vec<String> = fs::read_dir(d.join("cnf-out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut expected = vec![
        format!("amazon-10-{amo}.cnf"),
        file.trim_start_matches("cnf-out/").to_string(),
        format!("queen-8-{amo}.cnf"),
        "queen-8-sequential.cnf".to_string(),
    ];
    expected.sort();
    expected.dedup();
    assert_eq!(
        names, expected,
        "exactly the expected files, no temp files left"
    );
}

#[test]
fn encode_stdout_header_and_counts() {
    let dir = tempdir();
    let d = dir.path();
    for amo in known_amos(d) {
        let amo = amo.as_str();
        let r = run_expect(d, &["encode", "-n", "8", "--amo", amo, "-o", "-"], 0);
        let cnf = check_cnf(d, &r.stdout, &["-n", "8", "--amo", amo], "queen", 8);
        assert!(cnf.has_comment(&format!("c amo {amo}")));
        assert!(cnf.has_comment("c cells rowmajor"), "{:?}", cnf.comments);
        assert!(
            !d.join("cnf-out").exists(),
            "-o - must not write the default file"
        );
        // Stdout and a file hold the same bytes.
        let f = format!("{amo}.cnf");
        run_expect(d, &["encode", "-n", "8", "--amo", amo, "-o", &f], 0);
        assert_eq!(fs::read_to_string(d.join(&f)).unwrap(), r.stdout);
    }

    // Amazons and larger boards, every encoding: exact headers.
    for amo in known_amos(d) {
        for (n, piece) in [(10, "amazon"), (13, "queen")] {
            let ns = n.to_string();
            let args = ["-n", ns.as_str(), "--piece", piece, "--amo", amo.as_str()];
            let mut all = vec!["encode", "-o", "-"];
            all.extend_from_slice(&args);
            let r = run_expect(d, &all, 0);
            check_cnf(d, &r.stdout, &args, piece, n);
        }
    }

    // A presolved completion instance: not row-major, cell count and row maps in the header.
    write(d, "comp.txt", &board_text(8, &[0]));
    let r = run_expect(d, &["encode", "--instance", "comp.txt", "-o", "-"], 0);
    let cnf = check_cnf(d, &r.stdout, &["--instance", "comp.txt"], "queen", 8);
    assert!(!cnf.has_comment("c cells rowmajor"), "{:?}", cnf.comments);
    assert!(cnf.has_comment("c presolve on"));
    assert!(cnf.has_comment("c placed 0,0"), "{:?}", cnf.comments);
    // (0,0) takes row 0, column 0 and the main diagonal: 49 - 7 = 42 live cells.
    assert_eq!(cnf.comment_value("cells"), Some("42"));

    // --stats in JSON agrees with the text form.
    let r = run_expect(d, &["encode", "-n", "8", "--stats", "--format", "json"], 0);
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("--stats JSON");
    let (vars, clauses) = stats(d, &["-n", "8"]);
    assert_eq!(v["vars"].as_u64(), Some(vars));
    assert_eq!(v["clauses"].as_u64(), Some(clauses));
    assert_eq!(v["cell_vars"].as_u64(), Some(64));
}

/// `--amo commander:G` / `bimander:G`: solved, recorded in the header as given (defaults by
/// their plain name), decoded from the header alone, and bad sizes are one-line errors.
#[test]
fn amo_group_sizes() {
    let dir = tempdir();
    let d = dir.path();
    for amo in ["commander:2", "commander:5", "bimander:1", "bimander:3"] {
        let r = run_expect(
            d,
            &["solve", "-n", "12", "--amo", amo, "--solver", "varisat"],
            10,
        );
        assert_solution(&r.stdout, 12, false);
        let r = run_expect(
            d,
            &["solve", "-n", "3", "--amo", amo, "--solver", "varisat"],
            20,
        );
        assert_eq!(r.stdout.trim(), "UNSAT", "--amo {amo} -n 3");
        let r = run_expect(d, &["encode", "-n", "13", "--amo", amo, "-o", "-"], 0);
        let cnf = check_cnf(d, &r.stdout, &["-n", "13", "--amo", amo], "queen", 13);
        assert_eq!(cnf.comment_value("amo"), Some(amo));
    }
    // The default size is the plain name, however it was spelled.
    let r = run_expect(
        d,
        &["encode", "-n", "6", "--amo", "commander:3", "-o", "-"],
        0,
    );
    assert_eq!(parse_cnf(&r.stdout).comment_value("amo"), Some("commander"));
    // Different sizes are different CNFs.
    let four = stats(d, &["-n", "30", "--amo", "commander:4"]);
    let three = stats(d, &["-n", "30", "--amo", "commander"]);
    assert_ne!(
        four, three,
        "commander:4 and commander:3 give the same CNF size"
    );
    for bad in [
        "commander:1",
        "commander:65",
        "bimander:0",
        "product:2",
        "commander:x",
    ] {
        assert_one_line_error(
            d,
            &["solve", "-n", "8", "--amo", bad],
            &[bad, "commander:G"],
        );
    }
}

/// decode reads a non-default group size back from the header of a CNF that a real solver
/// solved.
#[test_programs::requires(cadical)]
#[test]
fn amo_group_size_decoded_from_the_header() {
    require_solver("cadical");
    let dir = tempdir();
    let d = dir.path();
    run_expect(
        d,
        &["encode", "-n", "8", "--amo", "bimander:3", "-o", "b.cnf"],
        0,
    );
    assert_eq!(run_solver(d, "cadical", "b.cnf", "b.out"), 10);
    let r = run_expect(
        d,
        &[
            "decode", "--cnf", "b.cnf", "--model", "b.out", "--format", "json",
        ],
        10,
    );
    let v: Value = serde_json::from_str(r.stdout.trim()).expect("decode JSON");
    assert_eq!(v["amo"].as_str(), Some("bimander:3"));
    let board: Vec<&str> = v["board"]
        .as_array()
        .expect("board rows")
        .iter()
        .map(|row| row.as_str().expect("board row"))
        .collect();
    assert_solution(&board.join("\n"), 8, false);
}

#[test]
fn encode_no_presolve_unit_clauses() {
    let dir = tempdir();
    let d = dir.path();
    // Queen pre-placed at (2,3), cell (5,6) blocked, n = 8.
    let mut text = board_text(8, &[usize::MAX, usize::MAX, 3]);
    text.replace_range(5 * 9 + 6..5 * 9 + 7, "x");
    write(d, "units.txt", &text);
    let r = run_expect(
        d,
        &[
            "encode",
            "--instance",
            "units.txt",
            "--no-presolve",
            "-o",
            "-",
        ],
        0,
    );
    let cnf = check_cnf(
        d,
        &r.stdout,
        &["--instance", "units.txt", "--no-presolve"],
        "queen",
        8,
    );
    assert!(cnf.has_comment("c presolve off"));
    assert!(cnf.has_comment("c cells rowmajor"), "{:?}", cnf.comments);
    let queen_var = 2 * 8 + 3 + 1;
    let blocked_var = 5 * 8 + 6 + 1;
    assert!(
        cnf.clauses.contains(&vec![queen_var]),
        "missing unit clause '{queen_var} 0'"
    );
    assert!(
        cnf.clauses.contains(&vec![-blocked_var]),
        "missing unit clause '-{blocked_var} 0'"
    );
    // Solving the unpresolved encoding keeps the queen and avoids the blocked cell.
    let blocked: BTreeSet<Cell> = [(5, 6)].into();
    solve_and_verify_instance(d, "units.txt", &["--no-presolve"], 8, &[(2, 3)], &blocked);
}

// ---------------------------------------------------------------------------------------------
// 9. Atomic output
// ---------------------------------------------------------------------------------------------

/// Temp files `write_atomic` would leave behind in `dir`.
fn leftover_temps(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".queens-sat-") || n.ends_with(".tmp"))
        .collect()
}

#[test]
fn encode_output_is_atomic() {
    let dir = tempdir();
    let d = dir.path();

    // A missing folder: an error, nothing created.
    assert_one_line_error(
        d,
        &["encode", "-n", "8", "-o", "sub/missing/x.cnf"],
        &["sub/missing"],
    );
    assert!(!d.join("sub").exists(), "no folder may be created");

    // A failing encode leaves an existing target byte-identical.
    let precious = b"c precious old content\np cnf 1 1\n1 0\n";
    fs::write(d.join("existing.cnf"), precious).unwrap();
    write(d, "bad.txt", "Q..\n.z.\n...\n");
    assert_one_line_error(
        d,
        &["encode", "--instance", "bad.txt", "-o", "existing.cnf"],
        &["bad.txt:2:"],
    );
    assert_eq!(fs::read(d.join("existing.cnf")).unwrap(), precious);
    assert!(leftover_temps(d).is_empty(), "{:?}", leftover_temps(d));

    // A target that cannot be replaced (a directory) fails after the temp file was written:
    // the temp file must be cleaned up.
    fs::create_dir(d.join("adir")).unwrap();
    assert_one_line_error(d, &["encode", "-n", "8", "-o", "adir"], &["adir"]);
    assert!(d.join("adir").is_dir());
    assert_eq!(fs::read_dir(d.join("adir")).unwrap().count(), 0);
    assert!(leftover_temps(d).is_empty(), "{:?}", leftover_temps(d));

    // A successful encode replaces the old file completely.
    run_expect(d, &["encode", "-n", "8", "-o", "existing.cnf"], 0);
    let text = fs::read_to_string(d.join("existing.cnf")).unwrap();
    check_cnf(d, &text, &["-n", "8"], "queen", 8);
    assert!(leftover_temps(d).is_empty(), "{:?}", leftover_temps(d));

    // The new file gets ordinary permissions (as a plainly created file would), not the
    // private mode of a temp file.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    run_expect(d, &["encode", "-n", "8", "-o", "fresh.cnf"], 0);
    fs::write(d.join("plain.txt"), "x").unwrap();
    assert_eq!(
        mode(&d.join("fresh.cnf")),
        mode(&d.join("plain.txt")),
        "mode of a new CNF file"
    );
}
