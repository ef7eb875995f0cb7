//! Compressed CNFs and GBD hashes end to end: `encode -o FILE.cnf.xz|.gz|.zst` gives the plain
//! file's bytes once decompressed; the GBD hash computed while writing equals the one read back
//! from the file (plain or compressed) and the published value; decode, external solvers, suites
//! and cluster job folders read compressed files by content.

use std::path::Path;

use queens_sat::board::Cell;
use queens_sat::compress::{self, Codec};
use queens_sat::encode::amo::AmoKind;
use queens_sat::export::gbd::{gbdhash_file, gbdhash_reader};
use queens_sat::export::{Format, WriteOptions, write_piped};
use queens_sat::instance::{ExcludedDiagonal, Instance};
use queens_sat::piece::{AMAZON, LineKind, QUEEN};
use queens_sat::presolve::Problem;
use queens_sat::solve::external::ExternalSolver;

use crate::common::{self, assert_one_line_error, run_expect};

/// The record `encode --format json` prints.
fn encode_json(d: &Path, args: &[&str]) -> serde_json::Value {
    let r = run_expect(d, args, 0);
    serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

#[test]
fn compressed_output_decompresses_to_the_plain_bytes_with_the_same_gbd_hash() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let plain = encode_json(
        d,
        &[
            "encode",
            "-n",
            "8",
            "--amo",
            "pairwise",
            "-o",
            "q8.cnf",
            "--gbdhash",
            "--format",
            "json",
        ],
    );
    // The value gbdc gives this file (and its .xz).
    assert_eq!(plain["gbdhash"], "781e91553a5502980a9bb7a54213c757");
    assert_eq!(plain["compress"], "none");
    assert_eq!(plain["bytes"], plain["file_bytes"]);
    let bytes = std::fs::read(d.join("q8.cnf")).unwrap();
    assert_eq!(gbdhash_file(&d.join("q8.cnf")).unwrap(), plain["gbdhash"]);
    for codec in [Codec::Xz, Codec::Gzip, Codec::Zstd] {
        let name = format!("q8.cnf.{}", codec.extension().unwrap());
        let r = encode_json(
            d,
            &[
                "encode",
                "-n",
                "8",
                "--amo",
                "pairwise",
                "-o",
                &name,
                "--gbdhash",
                "--format",
                "json",
            ],
        );
        assert_eq!(r["gbdhash"], plain["gbdhash"], "{codec}");
        assert_eq!(r["compress"], codec.name());
        let path = d.join(&name);
        let stored = std::fs::metadata(&path).unwrap().len();
        assert_eq!(r["file_bytes"], stored, "{codec}");
        assert!(stored < bytes.len() as u64 / 2, "{codec}: {stored} bytes");
        assert_eq!(compress::codec_of(&path).unwrap(), codec);
        assert_eq!(compress::read(&path).unwrap(), bytes, "{codec}");
        assert_eq!(gbdhash_file(&path).unwrap(), plain["gbdhash"], "{codec}");
        // The header reader (decode) reads it by content, also under a misleading name.
        let renamed = d.join(format!("renamed-{}.cnf", codec.name()));
        std::fs::copy(&path, &renamed).unwrap();
        let header = queens_sat::export::header::read_header_file(&renamed).unwrap();
        assert_eq!(
            (header.instance.n, header.num_vars, header.num_clauses),
            (8, 64, 744)
        );
    }
    // Levels are checked against the codec.
    assert_one_line_error(
        d,
        &["encode", "-n", "8", "-o", "x.cnf.xz", "--level", "12"],
        &["--level 12", "0..=9"],
    );
    assert_one_line_error(
        d,
        &["encode", "-n", "8", "-o", "x.cnf", "--level", "3"],
        &["--level"],
    );
    // A compressed form this build does not write is refused, not written as plain text.
    assert_one_line_error(
        d,
        &["encode", "-n", "8", "-o", "x.cnf.bz2"],
        &["x.cnf.bz2", ".xz"],
    );
    assert!(!d.join("x.cnf.xz").exists() && !d.join("x.cnf").exists());
    assert!(!d.join("x.cnf.bz2").exists());
    // Different levels give different files with the same text.
    run_expect(
        d,
        &["encode", "-n", "12", "-o", "l0.cnf.xz", "--level", "0"],
        0,
    );
    run_expect(
        d,
        &["encode", "-n", "12", "-o", "l6.cnf.xz", "--level", "6"],
        0,
    );
    assert_eq!(
        compress::read(&d.join("l0.cnf.xz")).unwrap(),
        compress::read(&d.join("l6.cnf.xz")).unwrap()
    );
}

#[test]
fn the_gbd_hash_while_writing_equals_the_hash_of_the_file_for_every_encoding_and_instance() {
    let mut excluded = Instance::plain(9);
    excluded.excluded = vec![
        ExcludedDiagonal {
            kind: LineKind::Diagonal,
            key: 8,
        },
        ExcludedDiagonal {
            kind: LineKind::AntiDiagonal,
            key: 3,
        },
    ];
    let mut blocked = Instance::plain(9);
    blocked.blocked = vec![Cell { row: 0, col: 1 }, Cell { row: 4, col: 4 }];
    let mut placed = Instance::plain(9);
    placed.placed = vec![Cell { row: 0, col: 2 }];
    let instances = [Instance::plain(9), excluded, blocked, placed];
    for amo in AmoKind::ALL {
        for inst in &instances {
            for piece in [QUEEN, AMAZON] {
                let problem = Problem::presolve(inst, piece).unwrap();
                for codec in [Codec::Plain, Codec::Xz] {
                    let write = WriteOptions {
                        codec,
                        level: codec.default_level(),
                        gbdhash: true,
                    };
                    let (bytes, report) =
                        write_piped(Format::Dimacs, Vec::new(), &problem, amo, None, write)
                            .unwrap();
                    let text = compress::decoder(&bytes[..]).unwrap();
                    let want = gbdhash_reader(text).unwrap();
                    assert_eq!(
                        report.gbdhash.as_deref(),
                        Some(want.as_str()),
                        "{amo} {codec}"
                    );
                    assert_eq!(report.file_bytes, bytes.len() as u64);
                }
            }
        }
    }
}

#[test]
fn a_corrupt_compressed_file_is_a_one_line_error() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    run_expect(d, &["encode", "-n", "20", "-o", "q.cnf.xz"], 0);
    let mut bytes = std::fs::read(d.join("q.cnf.xz")).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(d.join("q.cnf.xz"), &bytes).unwrap();
    std::fs::write(d.join("answer.txt"), "s SATISFIABLE\nv 1 0\n").unwrap();
    // The header is at the start, so decode reads it; the answer is checked against the
    // instance, so the cut clauses cannot pass.
    let r = common::run(d, &["decode", "--cnf", "q.cnf.xz", "--model", "answer.txt"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    // A file cut inside the header is an error naming it.
    bytes.truncate(40);
    std::fs::write(d.join("q.cnf.xz"), &bytes).unwrap();
    assert_one_line_error(
        d,
        &["decode", "--cnf", "q.cnf.xz", "--model", "answer.txt"],
        &["q.cnf.xz"],
    );
}

/// Solves the compressed file with `solver` and decodes its answer into a verified board.
fn solve_and_decode(d: &Path, solver: &str, cnf: &str) {
    let vars = queens_sat::export::header::read_header_file(&d.join(cnf))
        .unwrap()
        .num_vars;
    let ext = ExternalSolver::new(solver).unwrap();
    let answer = ext.solve_file(&d.join(cnf), vars as usize).unwrap();
    let queens_sat::answer::Answer::Sat(model) = answer else {
        panic!("{solver} on {cnf}: {answer:?}");
    };
    let lits: Vec<String> = (1..=vars as u32)
        .map(|v| {
            if model.value(v) {
                v.to_string()
            } else {
                format!("-{v}")
            }
        })
        .collect();
    let out = format!("{cnf}.out");
    std::fs::write(
        d.join(&out),
        format!("s SATISFIABLE\nv {} 0\n", lits.join(" ")),
    )
    .unwrap();
    let r = run_expect(d, &["decode", "--cnf", cnf, "--model", &out], 10);
    assert!(r.stdout.contains('Q'), "{}", r.stdout);
}

#[test_programs::requires(cadical, minisat)]
#[test]
fn external_solvers_take_compressed_cnfs() {
    common::require_solver("cadical");
    common::require_solver("minisat");
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    for name in ["q.cnf.xz", "q.cnf.gz", "q.cnf.zst"] {
        run_expect(d, &["encode", "-n", "14", "-o", name], 0);
    }
    std::fs::copy(d.join("q.cnf.xz"), d.join("xz-named-plain.cnf")).unwrap();
    let cadical = ExternalSolver::new("cadical").unwrap();
    // CaDiCaL reads .xz and .gz itself (by suffix); a .zst, or an .xz under a plain name, is
    // decompressed first.
    assert!(cadical.reads_compressed(Codec::Xz, Path::new("q.cnf.xz")));
    assert!(!cadical.reads_compressed(Codec::Zstd, Path::new("q.cnf.zst")));
    assert!(!cadical.reads_compressed(Codec::Xz, Path::new("xz-named-plain.cnf")));
    let minisat = ExternalSolver::new("minisat").unwrap();
    assert!(!minisat.reads_compressed(Codec::Gzip, Path::new("q.cnf.gz")));
    for cnf in ["q.cnf.xz", "q.cnf.gz", "q.cnf.zst", "xz-named-plain.cnf"] {
        solve_and_decode(d, "cadical", cnf);
        solve_and_decode(d, "minisat", cnf);
    }
}

#[test]
fn a_compressed_suite_has_the_plain_suites_gbd_hashes_and_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let recipe = d.join("tiny.suite");
    std::fs::write(
        &recipe,
        "family plain\nn 5..7\namo pairwise,sequential\n\nfamily ex\nn 10\ngenerator diagonals min-free=1 diags=4\nseeds 1..2\n",
    )
    .unwrap();
    let recipe = recipe.display().to_string();
    run_expect(d, &["suite", &recipe, "--out", "plain"], 0);
    let r = run_expect(d, &["suite", &recipe, "--out", "xz", "--compress", "xz"], 0);
    assert!(r.stderr.contains("wrote"), "{}", r.stderr);
    let read =
        |dir: &str| queens_sat::suite::manifest::read(&d.join(dir).join("manifest.csv")).unwrap();
    let (plain, xz) = (read("plain"), read("xz"));
    assert_eq!(plain.len(), xz.len());
    assert!(!plain.is_empty());
    for (p, x) in plain.iter().zip(&xz) {
        assert_eq!(x.file, format!("{}.xz", p.file));
        assert_eq!(x.gbdhash, p.gbdhash, "{}", x.file);
        assert_eq!(p.gbdhash.len(), 32);
        let path = d.join("xz").join(&x.file);
        assert_eq!(gbdhash_file(&path).unwrap(), x.gbdhash);
        assert_eq!(std::fs::metadata(&path).unwrap().len(), x.bytes);
        assert_eq!(compress::codec_of(&path).unwrap(), Codec::Xz);
    }
    // A re-run keeps every file.
    let r = run_expect(d, &["suite", &recipe, "--out", "xz", "--compress", "xz"], 0);
    assert!(r.stderr.contains("wrote 0 (0 bytes)"), "{}", r.stderr);
    assert_one_line_error(
        d,
        &["suite", &recipe, "--compress", "bz2"],
        &["--compress 'bz2'", "xz"],
    );
}

#[test]
fn a_cluster_job_folder_reads_compressed_files() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let dir = d.join("job").display().to_string();
    run_expect(
        d,
        &["split", "count", "-n", "8", "-o", &dir, "--tasks", "2"],
        0,
    );
    // Compress the instance and the cubes in place, under their own names.
    for name in ["instance.txt", "cubes"] {
        let path = d.join("job").join(name);
        let text = std::fs::read(&path).unwrap();
        let mut c = compress::Compressor::new(Codec::Xz, 1, Vec::new()).unwrap();
        std::io::Write::write_all(&mut c, &text).unwrap();
        std::fs::write(&path, c.finish().unwrap()).unwrap();
        assert_eq!(compress::codec_of(&path).unwrap(), Codec::Xz);
    }
    for task in ["0", "1"] {
        run_expect(d, &["work", &dir, "--task", task], 0);
    }
    let r = run_expect(d, &["merge", &dir], 10);
    assert!(
        r.stdout.contains("total 92") && r.stdout.contains("unique 12"),
        "{}",
        r.stdout
    );
}

#[test_programs::requires(cadical)]
#[test]
fn a_submission_pack_is_complete_and_reproducible() {
    common::require_solver("cadical");
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    std::fs::write(
        d.join("tiny.suite"),
        "family ex\nn 12\ngenerator diagonals min-free=1 diags=6,10\nseeds 1..3\n",
    )
    .unwrap();
    let pack = |out: &str, pack: &str| {
        run_expect(
            d,
            &[
                "suite",
                "tiny.suite",
                "--out",
                out,
                "--solve",
                "--certify",
                "--pack",
                pack,
                "--reference",
                "cadical",
                "--reference-timeout",
                "30",
                "--jobs",
                "1",
            ],
            0,
        );
        let rows: Vec<serde_json::Value> = serde_json::from_str(
            &std::fs::read_to_string(d.join(pack).join("instances.json")).unwrap(),
        )
        .unwrap();
        rows
    };
    let rows = pack("s1", "p1");
    assert_eq!(rows.len(), 6);
    let manifest = queens_sat::suite::manifest::read(&d.join("s1/manifest.csv")).unwrap();
    for (row, m) in rows.iter().zip(&manifest) {
        let file = row["filename"].as_str().unwrap();
        let hash = row["hash"].as_str().unwrap();
        assert_eq!(hash, m.gbdhash);
        assert!(file.ends_with(&format!("-{hash}.cnf.xz")), "{file}");
        let path = d.join("p1").join(file);
        assert_eq!(compress::codec_of(&path).unwrap(), Codec::Xz);
        assert_eq!(gbdhash_file(&path).unwrap(), hash);
        // The verdicts agree, and --certify certified every UNSAT.
        let result = row["result"].as_str().unwrap();
        assert_eq!(row["ref_result"], result, "{file}");
        assert_eq!(row["solver_result"], result, "{file}");
        assert_eq!(result, m.status.to_lowercase());
        assert_eq!(row["certified"], true, "{file}: {row}");
        assert_eq!(row["ref_timeout"], 30.0);
    }
    // Both verdicts occur in this family (seeds 1..3 of n = 12 at 6 and 10 diagonals).
    assert!(
        rows.iter().any(|r| r["result"] == "sat") && rows.iter().any(|r| r["result"] == "unsat")
    );
    let text = std::fs::read_to_string(d.join("p1/DESCRIPTION.md")).unwrap();
    for needle in [
        "queens-sat suite tiny.suite",
        "generator diagonals min-free=1 diags=6,10",
        "Gent",
        "prob079",
        "| ex |",
    ] {
        assert!(
            text.contains(needle),
            "no '{needle}' in DESCRIPTION.md:\n{text}"
        );
    }
    for svg in ["phase.svg", "cactus.svg"] {
        let s = std::fs::read_to_string(d.join("p1").join(svg)).unwrap();
        roxmltree::Document::parse(&s).unwrap();
    }
    let csv = std::fs::read_to_string(d.join("p1/instances.csv")).unwrap();
    assert!(csv.starts_with("hash,family,filename,"), "{csv}");
    // A second pack from scratch: the same files, byte for byte; the same rows but for the
    // timing columns.
    let again = pack("s2", "p2");
    let untimed = |rows: &[serde_json::Value]| -> Vec<serde_json::Value> {
        rows.iter()
            .map(|r| {
                let mut r = r.clone();
                r["seconds"] = serde_json::Value::Null;
                r["ref_seconds"] = serde_json::Value::Null;
                r
            })
            .collect()
    };
    assert_eq!(untimed(&rows), untimed(&again));
    for row in &rows {
        let file = row["filename"].as_str().unwrap();
        assert_eq!(
            std::fs::read(d.join("p1").join(file)).unwrap(),
            std::fs::read(d.join("p2").join(file)).unwrap(),
            "{file}"
        );
    }
    // A pack needs solved instances (a usage error: one line, exit 1), and nothing is written.
    common::assert_one_line_error(d, &["suite", "tiny.suite", "--pack", "p3"], &["--solve"]);
    assert!(!d.join("p3").exists());
}
