//! `cnf-out/NAME/manifest.csv`: one row per CNF file of a suite.
//!
//! Columns: `file` (relative to the manifest), `family`, `piece`, `n` (the side given to the
//! generator; a converted instance's board side is in the CNF header), `generator`, `params`
//! (`key=value` separated by spaces), `seed` (empty for the plain generator), `amo`, `vars`,
//! `clauses`, `bytes`, `sha256` (of the file, lowercase hex), `gbdhash` (of the CNF, see
//! [`crate::export::gbd`]), and after `--solve`: `solver`,
//! `status` (`SAT`, `UNSAT` or `UNKNOWN`), `seconds` (solver time; 0 when presolve decided) and
//! `certified` (a checked verdict: a verified board, or a refutation checked under `--certify`;
//! the pack's column means the same), `skipped` and
//! `duplicates` (rows without a file), and after `--select` ([`super::select`]):
//! `budget_solver`, `budget_status`, `budget_seconds`, `budget_limit` (the budget solver's run),
//! `limit` (the reference solver's limit; the reference is `solver`), `cpu` (the processor
//! model the runs were timed on), `selection` (`kept`, `not-chosen`, `easy`, `too-hard`) and
//! `count` (the exact model count, `--counter`).

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::atomic_file::write_atomic;
use crate::error::{Error, Result};

/// The start of `skipped` for a row whose formula unit propagation alone decides.
pub(crate) const UNIT_PROPAGATION: &str = "unit propagation: ";

/// One manifest row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// File name, relative to the manifest's folder.
    pub file: String,
    /// Family name.
    pub family: String,
    /// Piece name.
    pub piece: String,
    /// Board side given to the generator.
    pub n: u32,
    /// Generator kind.
    pub generator: String,
    /// Generator parameters, `key=value` separated by spaces.
    pub params: String,
    /// Seed (none for the plain generator).
    pub seed: Option<u64>,
    /// AMO encoding.
    pub amo: String,
    /// Variables (from the `p cnf` line).
    pub vars: u64,
    /// Clauses (from the `p cnf` line).
    pub clauses: u64,
    /// File size in bytes.
    pub bytes: u64,
    /// SHA-256 of the file, lowercase hex.
    pub sha256: String,
    /// The GBD hash of the CNF ([`crate::export::gbd`]): the same for the plain and the
    /// compressed file, and across comment changes (empty in a manifest from before it).
    #[serde(default)]
    pub gbdhash: String,
    /// Solver that produced `status` (empty until solved).
    pub solver: String,
    /// `SAT`, `UNSAT`, `UNKNOWN`, or empty until solved.
    pub status: String,
    /// Solver seconds (none until solved).
    pub seconds: Option<f64>,
    /// Whether the verdict is checked, the same meaning as the pack's column: a SAT status is a
    /// board verified against the instance (every solve's), an UNSAT one a refutation checked
    /// (`suite --certify`: the solver's proof, or presolve's); false for UNKNOWN and before
    /// `--solve`.
    #[serde(default)]
    pub certified: bool,
    /// Why the row has no file (empty when it has one): `presolve: REASON` (presolve decided
    /// the instance: `status` is its verdict), `unit propagation: ...` (unit propagation alone
    /// decides the formula, SAT with every clause satisfied or UNSAT by a conflict: `status` is
    /// that verdict, `solver` is `unit-propagation`), or `duplicate of FILE` (the same formula
    /// by GBD hash, or the same instance up to a rotation or mirror: `status` is FILE's).
    #[serde(default)]
    pub skipped: String,
    /// The rows whose formula is this row's file (`duplicate of` it), space separated.
    #[serde(default)]
    pub duplicates: String,
    /// `--select`: the budget solver (a name or path, as given) that ran on the file.
    #[serde(default)]
    pub budget_solver: String,
    /// `--select`: its verdict (`SAT`, `UNSAT`, `UNKNOWN`).
    #[serde(default)]
    pub budget_status: String,
    /// `--select`: its wall-clock seconds.
    #[serde(default)]
    pub budget_seconds: Option<f64>,
    /// `--select`: its limit, seconds.
    #[serde(default)]
    pub budget_limit: Option<f64>,
    /// `--select`: the reference solver's (`solver`) limit, seconds.
    #[serde(default)]
    pub limit: Option<f64>,
    /// `--select`: the processor model the two runs were timed on.
    #[serde(default)]
    pub cpu: String,
    /// `--select`: `kept` (chosen), `not-chosen` (passed, beyond the family's quota or its
    /// SAT/UNSAT balance), `easy` (the budget solver decided it within its limit) or `too-hard`
    /// (neither solver decided it).
    #[serde(default)]
    pub selection: String,
    /// `--select --counter`: the exact model count (decimal), when the counter gave one.
    #[serde(default)]
    pub count: String,
}

impl Row {
    /// A row with every column empty (zero, none).
    pub fn empty() -> Row {
        Row {
            file: String::new(),
            family: String::new(),
            piece: String::new(),
            n: 0,
            generator: String::new(),
            params: String::new(),
            seed: None,
            amo: String::new(),
            vars: 0,
            clauses: 0,
            bytes: 0,
            sha256: String::new(),
            gbdhash: String::new(),
            solver: String::new(),
            status: String::new(),
            seconds: None,
            certified: false,
            skipped: String::new(),
            duplicates: String::new(),
            budget_solver: String::new(),
            budget_status: String::new(),
            budget_seconds: None,
            budget_limit: None,
            limit: None,
            cpu: String::new(),
            selection: String::new(),
            count: String::new(),
        }
    }

    /// Whether both rows describe the same instance and encoding (every column up to `amo`).
    pub fn same_instance(&self, other: &Row) -> bool {
        (
            &self.file,
            &self.family,
            &self.piece,
            self.n,
            &self.generator,
            &self.params,
            self.seed,
            &self.amo,
        ) == (
            &other.file,
            &other.family,
            &other.piece,
            other.n,
            &other.generator,
            &other.params,
            other.seed,
            &other.amo,
        )
    }

    /// Clears the solving columns.
    pub fn clear_status(&mut self) {
        self.solver.clear();
        self.status.clear();
        self.seconds = None;
        self.certified = false;
    }

    /// Clears the `--select` columns.
    pub fn clear_selection(&mut self) {
        self.budget_solver.clear();
        self.budget_status.clear();
        self.budget_seconds = None;
        self.budget_limit = None;
        self.limit = None;
        self.cpu.clear();
        self.selection.clear();
        self.count.clear();
    }

    /// The row's verdict: the suite's solver's, else the budget solver's (`--select` runs the
    /// reference solver only on what the budget solver left undecided); empty when neither ran.
    pub fn verdict(&self) -> &str {
        match self.status.as_str() {
            "" | "UNKNOWN" if !self.budget_status.is_empty() && self.budget_status != "UNKNOWN" => {
                &self.budget_status
            }
            s => s,
        }
    }

    /// Whether the row was decided before solving, without a file: by presolve (`skipped` =
    /// `presolve: REASON`) or by unit propagation on its formula (`unit propagation: ...`).
    pub(crate) fn decided_unwritten(&self) -> bool {
        self.skipped.starts_with("presolve: ") || self.skipped.starts_with(UNIT_PROPAGATION)
    }
}

/// Reads a manifest.
pub fn read(path: &Path) -> Result<Vec<Row>> {
    let name = path.display().to_string();
    let mut reader = csv::Reader::from_path(path).map_err(|e| csv_error(&name, e))?;
    reader
        .deserialize()
        .map(|r| r.map_err(|e| csv_error(&name, e)))
        .collect()
}

/// Writes a manifest atomically.
pub fn write(path: &Path, rows: &[Row]) -> Result<()> {
    let name = path.display().to_string();
    write_atomic(path, |f| {
        let mut w = csv::Writer::from_writer(f);
        for row in rows {
            w.serialize(row).map_err(|e| csv_error(&name, e))?;
        }
        if rows.is_empty() {
            w.write_record(HEADER).map_err(|e| csv_error(&name, e))?;
        }
        w.flush().map_err(|e| Error::io(&name, e))
    })
}

/// The column names, in order.
pub const HEADER: [&str; 27] = [
    "file",
    "family",
    "piece",
    "n",
    "generator",
    "params",
    "seed",
    "amo",
    "vars",
    "clauses",
    "bytes",
    "sha256",
    "gbdhash",
    "solver",
    "status",
    "seconds",
    "certified",
    "skipped",
    "duplicates",
    "budget_solver",
    "budget_status",
    "budget_seconds",
    "budget_limit",
    "limit",
    "cpu",
    "selection",
    "count",
];

fn csv_error(name: &str, e: csv::Error) -> Error {
    let line = e.position().map(|p| p.line() as usize);
    match line {
        Some(l) => Error::parse(name, l, e.to_string()),
        None => Error::parse_file(name, e.to_string()),
    }
}

/// Lowercase hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a file's content, lowercase hex.
pub fn sha256_file(path: &Path) -> Result<String> {
    let name = path.display().to_string();
    let mut f = std::fs::File::open(path).map_err(|e| Error::io(&name, e))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let k = f.read(&mut buf).map_err(|e| Error::io(&name, e))?;
        if k == 0 {
            break;
        }
        hasher.update(&buf[..k]);
    }
    Ok(hex(&hasher.finalize()))
}

/// A writer that hashes everything written through it with SHA-256.
pub struct HashingWriter<W> {
    inner: W,
    hasher: Sha256,
}

impl<W: std::io::Write> HashingWriter<W> {
    /// Wraps `inner`.
    pub fn new(inner: W) -> HashingWriter<W> {
        HashingWriter {
            inner,
            hasher: Sha256::new(),
        }
    }

    /// The inner writer and the hex digest of what went through.
    pub fn finish(self) -> (W, String) {
        (self.inner, hex(&self.hasher.finalize()))
    }
}

impl<W: std::io::Write> std::io::Write for HashingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let k = self.inner.write(buf)?;
        self.hasher.update(&buf[..k]);
        Ok(k)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn row(file: &str) -> Row {
        Row {
            file: file.into(),
            family: "f".into(),
            piece: "queen".into(),
            n: 8,
            generator: "completion".into(),
            params: "m=3".into(),
            seed: Some(4),
            amo: "product".into(),
            vars: 10,
            clauses: 20,
            bytes: 30,
            sha256: "ab".into(),
            gbdhash: "cd".into(),
            solver: String::new(),
            status: String::new(),
            seconds: None,
            certified: false,
            skipped: String::new(),
            duplicates: String::new(),
            ..Row::empty()
        }
    }

    #[test]
    fn round_trip_and_header() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.csv");
        let mut b = row("b.cnf");
        b.seed = None;
        b.solver = "varisat".into();
        b.status = "SAT".into();
        b.seconds = Some(0.25);
        let rows = vec![row("a.cnf"), b];
        write(&path, &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().next().unwrap(), HEADER.join(","));
        assert_eq!(read(&path).unwrap(), rows);
        assert!(rows[0].same_instance(&rows[0].clone()));
        assert!(!rows[0].same_instance(&rows[1]));
    }

    #[test]
    fn hashing_writer_matches_file_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x");
        let mut w = HashingWriter::new(std::fs::File::create(&path).unwrap());
        w.write_all(b"abc").unwrap();
        let (_, digest) = w.finish();
        assert_eq!(
            digest,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(sha256_file(&path).unwrap(), digest);
    }

    #[test]
    fn bad_manifest_names_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.csv");
        std::fs::write(&path, format!("{}\na,b\n", HEADER.join(","))).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("manifest.csv:2"), "{e}");
    }
}
