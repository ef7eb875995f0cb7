//! `count`: text and JSON output, the cross-check and broken symmetry.

use super::*;

// ---------------------------------------------------------------------------------------------
// count, --symmetric, --break-symmetry

#[test]
fn count_text_and_json() {
    let dir = tempdir();
    let r = run_expect(dir.path(), &["count", "-n", "8"], 0);
    assert!(r.stdout.contains("total 92\n"), "{}", r.stdout);
    assert!(r.stdout.contains("unique 12\n"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("group id r90 r180 r270 flip_h flip_v flip_d flip_a\n")
    );
    assert!(
        r.stdout.contains("fixed id=92 r90=0 r180=4 r270=0"),
        "{}",
        r.stdout
    );
    let t = std::time::Instant::now();
    let r = run_expect(
        dir.path(),
        &["count", "-n", "10", "--piece", "amazon", "--format", "json"],
        0,
    );
    let wall = t.elapsed().as_secs_f64();
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["total"], 4);
    assert_eq!(v["unique"], 1);
    // auto: the bitboard counter, which applies (n <= 64), named.
    assert_eq!(v["engine"], "backtrack");
    assert_eq!(v["group"].as_array().unwrap().len(), 8);
    assert_eq!(v["fixed"]["id"], 4);
    // The counting time is part of the process's run time.
    let seconds = v["seconds"].as_f64().unwrap();
    assert!((0.0..=wall).contains(&seconds), "{seconds} s of {wall} s");
    // Burnside, from the printed numbers.
    let sum: u64 = v["fixed"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .sum();
    assert_eq!(sum, 8 * v["unique"].as_u64().unwrap());
}

#[test]
fn count_cross_check_and_broken_symmetry() {
    let dir = tempdir();
    // One blocked corner keeps only the main-diagonal transpose.
    let inst = write(
        dir.path(),
        "corner.txt",
        "x.......\n........\n........\n........\n........\n........\n........\n........\n",
    );
    let r = run_expect(
        dir.path(),
        &[
            "count",
            "--instance",
            inst.to_str().unwrap(),
            "--cross-check",
            "--format",
            "json",
        ],
        0,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["group"], serde_json::json!(["id", "flip_d"]));
    // auto is the bitboard counter; the cross-check adds the SAT engine.
    assert_eq!(v["engine"], "backtrack+sat");
    // 92 solutions minus those with a queen in the corner (4 of them).
    assert_eq!(v["total"], 88);
    assert_eq!(v["fixed"]["id"], 88);
    let total = v["total"].as_u64().unwrap() + v["fixed"]["flip_d"].as_u64().unwrap();
    assert_eq!(v["unique"].as_u64().unwrap() * 2, total);
    // The varisat enumeration engine, cross-checked the same way.
    let r = run_expect(
        dir.path(),
        &[
            "count",
            "--instance",
            inst.to_str().unwrap(),
            "--engine",
            "cdcl",
            "--cross-check",
            "--format",
            "json",
        ],
        0,
    );
    let w: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(w["engine"], "cdcl+backtrack");
    assert_eq!((&w["total"], &w["unique"]), (&v["total"], &v["unique"]));
}
