//! Cluster jobs: a count or a solve split into a folder of cubes and balanced tasks that Slurm,
//! GNU parallel or a shell loop runs ([`split`]), one task at a time ([`task::run_task`]), and
//! whose results are combined with the guarantees of a local run ([`merge`]).
//!
//! The folder is the whole contract between the three steps; no scheduler of our own:
//!
//! | file | what |
//! |---|---|
//! | `job.json` | [`Job`]: kind, the exact command, version, piece, encoding, engine or solver, cube source ([`source`]), job id |
//! | `instance.txt` | the instance, normalised to board text |
//! | `cubes` | one line per cube: `weight r,c r,c ...` (the cells the cube adds), or `fixed g` (the count of `g`-symmetric solutions) |
//! | `tasks.tsv` | `task`, the cube lines it runs (0-based, comma-separated), its estimated work |
//! | `cubes.icnf` | the instance's CNF with one `a` line per cube (`p inccnf`), for incremental external solvers |
//! | `run-slurm.sbatch` | a Slurm job array, one array task per task |
//! | `run-parallel.sh` | GNU parallel over the tasks, local by default, options (`--sshlogin`) passed through |
//! | `results/I.json` | [`TaskResult`] of task I, written atomically |
//! | `coverage.lrat`, `proofs/` | `--certify`: the proofs that `merge` checks again ([`proofs`]) |
//!
//! The job id hashes the instance, the cubes and the settings, so a result from another job
//! (or another cube set) is recognised as foreign; each result carries a checksum of its own
//! content, so a corrupted one is recognised too.

pub mod estimate;
pub mod merge;
pub mod proofs;
pub mod source;
pub mod split;
pub mod task;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::board::Cell;
use crate::error::{Error, Result};
use crate::instance::Instance;
use crate::piece::Piece;
use crate::symmetry::Symmetry;
use source::CubeSource;

/// `job.json`.
pub const JOB_FILE: &str = "job.json";
/// The normalised instance.
pub const INSTANCE_FILE: &str = "instance.txt";
/// The cube lines.
pub const CUBES_FILE: &str = "cubes";
/// The tasks.
pub const TASKS_FILE: &str = "tasks.tsv";
/// The cubes as an incremental CNF.
pub const ICNF_FILE: &str = "cubes.icnf";
/// The Slurm job array.
pub const SLURM_FILE: &str = "run-slurm.sbatch";
/// The GNU parallel script.
pub const PARALLEL_FILE: &str = "run-parallel.sh";
/// The results folder.
pub const RESULTS_DIR: &str = "results";
/// Logs of the engines (Slurm output, parallel's joblog).
pub const LOGS_DIR: &str = "logs";
/// Written (atomically) by the task that found a board, so that other tasks of a solve job skip
/// their remaining cubes.
pub const SOLVED_MARK: &str = "SOLVED";

/// What a job computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Count solutions (and fixed points per symmetry).
    Count,
    /// Find one board, or prove there is none.
    Solve,
}

impl Kind {
    /// `count` or `solve`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Count => "count",
            Kind::Solve => "solve",
        }
    }

    /// The cubes a split of this kind aims for when not told (`split --cubes`): 64 per task
    /// for a count (whole rings of border lines, at least that many), 16 per task for a solve.
    /// Public for the program's `split`.
    ///
    /// ```
    /// use queens_sat::cluster::Kind;
    /// assert_eq!((Kind::Count.default_cubes(16), Kind::Solve.default_cubes(16)), (1024, 256));
    /// ```
    pub fn default_cubes(self, tasks: usize) -> usize {
        match self {
            Kind::Count => 64 * tasks,
            Kind::Solve => 16 * tasks,
        }
    }
}

/// `job.json`: how the job was made and how its cubes are conquered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// `queens-sat`.
    pub tool: String,
    /// The version that split the job; `work` and `merge` refuse another.
    pub version: String,
    /// Count or solve.
    pub kind: Kind,
    /// The exact command line of `split`.
    pub command: Vec<String>,
    /// Board side.
    pub n: u32,
    /// The piece's name.
    pub piece: String,
    /// The AMO encoding's name.
    pub amo: String,
    /// Count: the engine that counts each cube (`sat`, `cdcl`, `backtrack`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Solve: the backend that solves each cube.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver: Option<String>,
    /// Solve: where the cubes come from ([`source`]); absent in folders written before the
    /// choice existed, which hold look-ahead cubes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cubes_from: Option<CubeSource>,
    /// Solve: the time limit per cube (seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
    /// Solve, `--certify`: the format of the cubes' proofs (`lrat`, `veripb`); the job's UNSAT
    /// then rests on checked proofs ([`proofs`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certify: Option<String>,
    /// `--symmetric`: only boards this element maps to themselves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symmetric: Option<String>,
    /// Number of cube lines in `cubes`.
    pub cubes: usize,
    /// Number of tasks in `tasks.tsv`.
    pub tasks: usize,
    /// Hash of the instance, the cubes, the tasks and the settings (hex); every result names it.
    pub job_id: String,
    /// Estimated work of the whole job (sum over the cubes; see [`estimate`]).
    pub estimate: f64,
}

impl Job {
    /// The piece, looked up by name.
    pub fn piece(&self) -> Result<Piece> {
        Piece::parse(&self.piece)
    }

    /// The job's encoding options (`--amo`, `--symmetric`; lex-leader constraints are refused
    /// by `split`).
    pub fn options(&self) -> Result<crate::encode::EncodeOptions> {
        Ok(crate::encode::EncodeOptions {
            symmetric: self.symmetric()?,
            ..crate::encode::EncodeOptions::from(crate::encode::amo::AmoKind::parse(&self.amo)?)
        })
    }

    /// The solver of a solve job's cubes: the one it was split with, else the library's default
    /// strategy (`auto`).
    pub fn solver_name(&self) -> &str {
        self.solver.as_deref().unwrap_or("auto")
    }

    /// A solve job's cube source ([`Job::cubes_from`]; look-ahead when none is recorded), or
    /// `None` for a count.
    pub fn cube_source(&self) -> Option<CubeSource> {
        (self.kind == Kind::Solve).then(|| self.cubes_from.unwrap_or(CubeSource::Lookahead))
    }

    /// The format of a certified solve job's proofs (`split solve --certify`), if it is one.
    pub fn proof_format(&self) -> Result<Option<crate::certify::ProofFormat>> {
        self.certify
            .as_deref()
            .map(|name| {
                crate::certify::ProofFormat::from_name(name).ok_or_else(|| {
                    Error::parse_file(JOB_FILE, format!("unknown proof format '{name}'"))
                })
            })
            .transpose()
    }

    /// The `--symmetric` element, if any.
    pub fn symmetric(&self) -> Result<Option<Symmetry>> {
        self.symmetric
            .as_deref()
            .map(|s| {
                Symmetry::by_name(s)
                    .ok_or_else(|| Error::parse_file(JOB_FILE, format!("unknown symmetry '{s}'")))
            })
            .transpose()
    }
}

/// One line of `cubes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CubeLine {
    /// The solutions through these cells (added to the instance's), counted `weight` times (the
    /// size of the cube's symmetry class).
    Cube {
        /// Class size.
        weight: u64,
        /// The cells the cube places.
        cells: Vec<Cell>,
    },
    /// The number of solutions of the whole instance that this element maps to themselves.
    Fixed(Symmetry),
}

impl CubeLine {
    /// The line as written in `cubes`.
    pub fn to_text(&self) -> String {
        match self {
            CubeLine::Cube { weight, cells } => {
                let mut s = weight.to_string();
                for c in cells {
                    s += &format!(" {},{}", c.row, c.col);
                }
                s
            }
            CubeLine::Fixed(g) => format!("fixed {g}"),
        }
    }

    /// Parses one line of `cubes` (`file` and `line` name it in errors).
    pub fn parse(file: &str, line: usize, text: &str) -> Result<CubeLine> {
        let bad = |why: String| Error::parse(file, line, why);
        let mut words = text.split_whitespace();
        let first = words.next().ok_or_else(|| bad("empty cube line".into()))?;
        if first == "fixed" {
            let g = words.next().unwrap_or("");
            return Symmetry::by_name(g)
                .map(CubeLine::Fixed)
                .ok_or_else(|| bad(format!("unknown symmetry '{g}'")));
        }
        let weight: u64 = first
            .parse()
            .map_err(|_| bad(format!("'{first}' is not a cube weight")))?;
        let cells = words
            .map(|w| {
                w.split_once(',')
                    .and_then(|(r, c)| Some(Cell::new(r.parse().ok()?, c.parse().ok()?)))
                    .ok_or_else(|| bad(format!("'{w}' is not a cell row,col")))
            })
            .collect::<Result<Vec<Cell>>>()?;
        Ok(CubeLine::Cube { weight, cells })
    }

    /// The cube as a completion instance of `base`.
    pub fn instance(&self, base: &Instance) -> Instance {
        let mut inst = base.clone();
        if let CubeLine::Cube { cells, .. } = self {
            inst.placed.extend(cells.iter().copied());
        }
        inst
    }
}

/// One row of `tasks.tsv`.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// The cube lines (0-based indices into `cubes`) this task runs.
    pub lines: Vec<usize>,
    /// Their estimated work.
    pub estimate: f64,
}

/// A job folder, read back: the job, the instance, the cube lines and the tasks.
#[derive(Clone, Debug)]
pub struct Folder {
    /// The folder.
    pub dir: PathBuf,
    /// `job.json`.
    pub job: Job,
    /// The normalised instance.
    pub instance: Instance,
    /// The cube lines.
    pub cubes: Vec<CubeLine>,
    /// The tasks.
    pub tasks: Vec<Task>,
}

impl Folder {
    /// Reads a job folder, checking that it was made by this version and that its files match
    /// the job id.
    pub fn open(dir: &Path) -> Result<Folder> {
        let read = |name: &str| {
            let path = dir.join(name);
            let name = path.display().to_string();
            String::from_utf8(crate::compress::read(&path)?)
                .map_err(|e| Error::parse_file(&name, format!("not UTF-8 text ({e})")))
        };
        let job_text = read(JOB_FILE)?;
        let job_path = dir.join(JOB_FILE).display().to_string();
        let job: Job = serde_json::from_str(&job_text)
            .map_err(|e| Error::parse_file(&job_path, format!("not a job file: {e}")))?;
        if job.version != env!("CARGO_PKG_VERSION") {
            return Err(Error::Usage(format!(
                "{job_path}: the job was split by queens-sat {}, this is {}; run it with that version or split again",
                job.version,
                env!("CARGO_PKG_VERSION")
            )));
        }
        let instance_text = read(INSTANCE_FILE)?;
        let instance = crate::instance::parse_board(
            &dir.join(INSTANCE_FILE).display().to_string(),
            &instance_text,
        )?;
        let cubes_text = read(CUBES_FILE)?;
        let cubes_name = dir.join(CUBES_FILE).display().to_string();
        let cubes = cubes_text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
            .map(|(i, l)| CubeLine::parse(&cubes_name, i + 1, l))
            .collect::<Result<Vec<_>>>()?;
        let tasks_text = read(TASKS_FILE)?;
        let tasks = parse_tasks(
            &dir.join(TASKS_FILE).display().to_string(),
            &tasks_text,
            cubes.len(),
        )?;
        let id = job_id(&job, &instance_text, &cubes_text, &tasks_text);
        if id != job.job_id || cubes.len() != job.cubes || tasks.len() != job.tasks {
            return Err(Error::parse_file(
                &job_path,
                format!(
                    "the folder's instance, cubes or tasks do not match the job (id {} recorded, {id} computed); split again",
                    job.job_id
                ),
            ));
        }
        Ok(Folder {
            dir: dir.to_path_buf(),
            job,
            instance,
            cubes,
            tasks,
        })
    }

    /// `results/I.json`.
    pub fn result_path(&self, task: usize) -> PathBuf {
        self.dir.join(RESULTS_DIR).join(format!("{task}.json"))
    }

    /// `results/I.started`: the marker of a task being run.
    pub fn started_path(&self, task: usize) -> PathBuf {
        self.dir.join(RESULTS_DIR).join(format!("{task}.started"))
    }
}

/// Parses `tasks.tsv`: a `#` header, then `task<TAB>lines<TAB>estimate` rows numbered 0, 1, ...
fn parse_tasks(file: &str, text: &str, cubes: usize) -> Result<Vec<Task>> {
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |why: String| Error::parse(file, i + 1, why);
        let fields: Vec<&str> = line.split('\t').collect();
        let [index, lines, estimate] = fields[..] else {
            return Err(bad(format!(
                "expected 3 tab-separated fields, found {}",
                fields.len()
            )));
        };
        if index.parse::<usize>().ok() != Some(tasks.len()) {
            return Err(bad(format!(
                "expected task {}, found '{index}'",
                tasks.len()
            )));
        }
        let lines = if lines == "-" {
            Vec::new()
        } else {
            lines
                .split(',')
                .map(|w| {
                    w.parse::<usize>()
                        .ok()
                        .filter(|&k| k < cubes)
                        .ok_or_else(|| bad(format!("'{w}' is not a cube line (0..{cubes})")))
                })
                .collect::<Result<Vec<_>>>()?
        };
        let estimate = estimate
            .parse::<f64>()
            .map_err(|_| bad(format!("'{estimate}' is not a number")))?;
        tasks.push(Task { lines, estimate });
    }
    Ok(tasks)
}

/// `tasks.tsv` for `tasks`.
fn tasks_text(tasks: &[Task]) -> String {
    let mut s = String::from("# task\tcube lines (0-based)\testimated work\n");
    for (i, t) in tasks.iter().enumerate() {
        let lines = if t.lines.is_empty() {
            "-".to_string()
        } else {
            t.lines
                .iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        s += &format!("{i}\t{lines}\t{:.4e}\n", t.estimate);
    }
    s
}

/// Hex SHA-256 prefix of the parts, separated.
fn digest(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0u8]);
    }
    h.finalize()[..12]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The job id: a hash of everything that decides the answer of each task (the cube source
/// only when recorded, so that the ids of older folders stay as they were).
fn job_id(job: &Job, instance: &str, cubes: &str, tasks: &str) -> String {
    let source = job.cubes_from.map(|s| format!("cubes-from {}", s.name()));
    let timeout = job.timeout.map_or("-".to_string(), |t| t.to_string());
    let mut parts: Vec<&str> = vec![
        &job.tool,
        &job.version,
        job.kind.name(),
        &job.piece,
        &job.amo,
        job.engine.as_deref().unwrap_or("-"),
        job.solver.as_deref().unwrap_or("-"),
        &timeout,
        job.symmetric.as_deref().unwrap_or("-"),
        instance,
        cubes,
        tasks,
    ];
    parts.extend(source.as_deref());
    let certify = job.certify.as_ref().map(|f| format!("certify {f}"));
    parts.extend(certify.as_deref());
    digest(&parts)
}

/// `results/I.json`: what one task computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// `queens-sat`.
    pub tool: String,
    /// The version that ran the task.
    pub version: String,
    /// The job's id (from `job.json`).
    pub job_id: String,
    /// The task's index.
    pub task: usize,
    /// The cube lines it ran, as in `tasks.tsv`.
    pub lines: Vec<usize>,
    /// Count: per cube line, the unweighted count of the cube (or the fixed-point count of a
    /// `fixed` line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<Vec<u64>>,
    /// Count: per cube line, the CPU seconds of the thread that counted it (the run log of a
    /// long count names each piece's cost; absent in results written before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<Vec<f64>>,
    /// Solve: per cube line, `SAT`, `UNSAT`, `UNKNOWN: why`, or `SKIPPED` (another cube found a
    /// board first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Vec<String>>,
    /// Solve: the verified board's pieces as `[row, col]`, when a cube was SAT.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<[u32; 2]>>,
    /// Why the task failed (then no count or answer is used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The host that ran it.
    pub host: String,
    /// SHA-256 prefix of the result's content (with this field empty): a changed byte is seen.
    pub checksum: String,
}

impl TaskResult {
    /// The checksum over every other field.
    pub fn compute_checksum(&self) -> String {
        // Seconds to the microsecond: a float need not survive a JSON round trip bit for bit.
        let json = |v: &dyn erased::Json| v.json();
        let (task, seconds) = (self.task.to_string(), format!("{:.6}", self.seconds));
        let (lines, counts, answers) = (json(&self.lines), json(&self.counts), json(&self.answers));
        let (board, error) = (json(&self.board), json(&self.error));
        let mut parts: Vec<&str> = vec![
            &self.tool,
            &self.version,
            &self.job_id,
            &task,
            &lines,
            &counts,
            &answers,
            &board,
            &error,
            &seconds,
            &self.host,
        ];
        // The CPU seconds to the microsecond, and only where present (older results keep
        // their checksums).
        let cpu = self
            .cpu_seconds
            .as_ref()
            .map(|c| c.iter().map(|s| format!("{s:.6},")).collect::<String>());
        parts.extend(cpu.as_deref());
        digest(&parts)
    }
}

mod erased {
    /// JSON text of a serialisable value (for checksums).
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).expect("a result field serialises")
        }
    }
}

/// This machine's host name (for results and `merge --status`).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cube_lines_round_trip() {
        for line in [
            CubeLine::Cube {
                weight: 8,
                cells: vec![Cell::new(0, 3), Cell::new(10, 0)],
            },
            CubeLine::Fixed(Symmetry::R90),
        ] {
            assert_eq!(CubeLine::parse("c", 1, &line.to_text()).unwrap(), line);
        }
        let e = CubeLine::parse("cubes", 7, "2 0,3 x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("cubes:7") && e.contains("'x'"), "{e}");
    }

    /// A `job.json` written before the cube source was recorded reads as look-ahead cubes,
    /// with the job id it had (the source enters the hash only when recorded).
    #[test]
    fn old_job_files_read_as_lookahead_cubes() {
        let text = r#"{"tool":"queens-sat","version":"0.1.0","kind":"solve","command":[],
            "n":8,"piece":"queen","amo":"pairwise","solver":"auto","cubes":0,"tasks":1,
            "job_id":"x","estimate":1.0}"#;
        let mut job: Job = serde_json::from_str(text).unwrap();
        assert_eq!(job.cubes_from, None);
        assert_eq!(job.cube_source(), Some(CubeSource::Lookahead));
        let old = job_id(&job, "i", "c", "t");
        job.cubes_from = Some(CubeSource::Lookahead);
        assert_ne!(job_id(&job, "i", "c", "t"), old);
        job.cubes_from = None;
        assert_eq!(job_id(&job, "i", "c", "t"), old);
        job.kind = Kind::Count;
        assert_eq!(job.cube_source(), None);
    }

    #[test]
    fn tasks_round_trip_and_errors() {
        let tasks = vec![
            Task {
                lines: vec![2, 0],
                estimate: 12.5,
            },
            Task {
                lines: vec![],
                estimate: 0.0,
            },
        ];
        let text = tasks_text(&tasks);
        assert_eq!(parse_tasks("t", &text, 3).unwrap(), tasks);
        let e = parse_tasks("t", "0\t5\t1\n", 3).unwrap_err().to_string();
        assert!(e.contains("t:1") && e.contains("'5'"), "{e}");
    }
}
