//! Running an external DIMACS solver on a CNF file and interpreting its answer.
//!
//! The solver runs as `program [args] cnf [resultfile]` in its own process group with stdin
//! closed. Its stdout is read with a byte cap, the tail of its stderr is kept for messages, and
//! on a time limit, an oversized output or any early return the whole process group is killed
//! with `SIGKILL`, so no solver process (nor any child it started) outlives the call.
//!
//! The answer is parsed by [`crate::export::output`] and cross-checked against the exit status
//! (10 = SAT, 20 = UNSAT by convention).

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::Duration;

use super::Answer;
use super::engine::{Capabilities, Engine, EngineInfo, Outcome, Proofs, Settings};
use crate::error::{BadOption, Error, Opt, Result};
use crate::export::output::{parse_output, parse_output_bytes};
use crate::process::Ended;

/// Default cap on a solver's output (stdout, or the result file): 256 MiB.
pub(crate) const DEFAULT_MAX_OUTPUT_BYTES: u64 = 256 * 1024 * 1024;

/// How a solver reports its answer.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// SAT-competition output on stdout: `s SATISFIABLE` and `v ... 0` lines.
    Competition,
    /// minisat style: the answer (`SAT` / `UNSAT` / `INDET` and the model) is written to a file
    /// given as an extra last argument; stdout carries only statistics.
    ResultFile,
}

/// The convention a solver program follows, judged by its file name: [`Convention::ResultFile`]
/// when the name contains `minisat` (but not `cryptominisat`, which prints competition output),
/// otherwise [`Convention::Competition`].
pub(crate) fn convention_for(program: &Path) -> Convention {
    let name = program
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if name.contains("minisat") && !name.contains("cryptominisat") {
        Convention::ResultFile
    } else {
        Convention::Competition
    }
}

/// What [`resolve_solver`] says of an empty name ([`super::engine::Backend::from_name`] adds
/// the built-in solvers).
pub(crate) const EMPTY: &str = "is empty: give a solver's name or path";

/// What [`resolve_solver`] says of a name found nowhere on PATH
/// ([`super::engine::Backend::from_name`] adds the built-in solvers).
pub(crate) const NOT_ON_PATH: &str = "is not a program on PATH";

/// Finds a solver: a value containing `/` is a path, anything else is looked up on `PATH`.
///
/// Errors are typed [`Opt::Solver`] errors (`--solver 'foo' is not ...` on the command line,
/// `solver='foo' is not ...` in Python): an empty name (`EMPTY`), a name found nowhere on
/// PATH (`NOT_ON_PATH`), a path that does not exist, or one that is not executable (no
/// execute bit, or not a regular file).
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn resolve_solver(name_or_path: &str) -> Result<PathBuf> {
    let bad = |why: String| BadOption::invalid(Opt::Solver, name_or_path, why);
    if name_or_path.trim().is_empty() {
        return Err(bad(EMPTY.into()));
    }
    if name_or_path.contains('/') {
        let path = PathBuf::from(name_or_path);
        return match fs::metadata(&path) {
            Err(_) => Err(bad("is a path to a solver that does not exist".into())),
            Ok(meta) if is_executable_file(&meta) => Ok(path),
            Ok(_) => Err(bad(
                "is not executable (no execute bit, or not a file)".into()
            )),
        };
    }
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    let mut not_executable: Option<PathBuf> = None;
    for dir in std::env::split_paths(&path_var) {
        // An empty PATH entry means the current directory; do not pick solvers up from there.
        if dir.as_os_str().is_empty() {
            continue;
        }
        let candidate = dir.join(name_or_path);
        match fs::metadata(&candidate) {
            Ok(meta) if is_executable_file(&meta) => return Ok(candidate),
            Ok(meta) if meta.is_file() => {
                not_executable.get_or_insert(candidate);
            }
            _ => {}
        }
    }
    Err(bad(match not_executable {
        Some(path) => format!("is on PATH as {}, which is not executable", path.display()),
        None => NOT_ON_PATH.into(),
    }))
}

fn is_executable_file(meta: &fs::Metadata) -> bool {
    meta.is_file() && meta.permissions().mode() & 0o111 != 0
}

/// An external DIMACS solver and how to run it.
#[cfg_attr(
    not(any(feature = "front", feature = "oracle")),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalSolver {
    /// The executable.
    pub program: PathBuf,
    /// Extra arguments, placed before the CNF file.
    pub args: Vec<String>,
    /// Where the answer comes from.
    pub convention: Convention,
    /// Wall-clock limit; on expiry the solver is killed and the answer is `Unknown`.
    pub timeout: Option<Duration>,
    /// Cap on stdout (and on the result file); exceeding it kills the solver and is an error.
    pub max_output_bytes: u64,
    /// Where to ask for a text DRAT proof (`--certify`): passed after the CNF, with
    /// `--no-binary` before it (the cadical / kissat command line).
    pub proof: Option<PathBuf>,
    /// Stops the solver (process group killed, answer UNKNOWN) when raised: the loser of a race.
    pub cancel: Option<crate::interrupt::Cancel>,
}

impl ExternalSolver {
    /// A solver found by [`resolve_solver`], with no extra arguments, the convention given by
    /// `convention_for`, no time limit and a `DEFAULT_MAX_OUTPUT_BYTES` output cap.
    pub fn new(name_or_path: &str) -> Result<Self> {
        let program = resolve_solver(name_or_path)?;
        let convention = convention_for(&program);
        Ok(ExternalSolver {
            program,
            args: Vec::new(),
            convention,
            timeout: None,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
            proof: None,
            cancel: None,
        })
    }

    /// Whether the solver writes DRAT proofs with the cadical / kissat command line
    /// (`--no-binary <cnf> <proof>`).
    pub fn writes_drat(&self) -> bool {
        let name = self.name();
        name.contains("cadical") || name.contains("kissat")
    }

    /// The program's file name, used in messages.
    pub fn name(&self) -> String {
        self.program
            .file_name()
            .unwrap_or(self.program.as_os_str())
            .to_string_lossy()
            .into_owned()
    }

    /// Runs the solver on the DIMACS file `cnf` (over `num_vars` variables) and returns its
    /// verdict.
    ///
    /// * Time limit reached: the process group is killed; `Ok(Answer::Unknown("time limit of
    ///   N s reached"))`.
    /// * Output (or result file) beyond [`ExternalSolver::max_output_bytes`]: killed;
    ///   [`Error::Solver`] `"<name>: solver output exceeded 256 MiB; aborted"`.
    /// * Killed by a signal: [`Error::Solver`] naming the signal.
    /// * Exit code 10 must come with a SAT answer and 20 with UNSAT; any other code is an error
    ///   quoting the last line of stderr, unless the solver answered UNKNOWN / INDET, which
    ///   gives `Unknown`. Malformed answers are parse errors naming the solver.
    ///
    /// The model is returned unverified (only its literals' range and consistency are checked).
    ///
    /// A compressed `cnf` (`.xz`, `.gz`, `.zst`, told by content) goes to the solver as it is
    /// when the solver reads that form itself ([`ExternalSolver::reads_compressed`]), and as a
    /// decompressed temporary file otherwise.
    pub fn solve_file(&self, cnf: &Path, num_vars: usize) -> Result<Answer> {
        let name = self.name();
        fs::metadata(cnf).map_err(|e| Error::io(cnf.display().to_string(), e))?;
        let codec = crate::compress::codec_of(cnf)?;
        let plain_dir;
        let plain_path;
        let cnf = if codec == crate::compress::Codec::Plain || self.reads_compressed(codec, cnf) {
            cnf
        } else {
            plain_dir = tempfile::TempDir::new()
                .map_err(|e| Error::io("temporary directory for the decompressed CNF", e))?;
            plain_path = plain_dir.path().join("instance.cnf");
            let mut input = crate::compress::open(cnf)?;
            let mut out = fs::File::create(&plain_path)
                .map_err(|e| Error::io(plain_path.display().to_string(), e))?;
            io::copy(&mut input, &mut out).map_err(|e| Error::io(cnf.display().to_string(), e))?;
            plain_path.as_path()
        };

        let result_dir = match self.convention {
            Convention::ResultFile => Some(
                tempfile::TempDir::new()
                    .map_err(|e| Error::io("temporary directory for the solver result", e))?,
            ),
            Convention::Competition => None,
        };
        let result_path = result_dir.as_ref().map(|d| d.path().join("result.txt"));

        let mut cmd = Command::new(&self.program);
        if self.proof.is_some() {
            cmd.arg("--no-binary");
        }
        cmd.args(&self.args).arg(cnf);
        if let Some(proof) = &self.proof {
            cmd.arg(proof);
        }
        if let Some(path) = &result_path {
            cmd.arg(path);
        }
        let done = crate::process::run(
            &mut cmd,
            &name,
            &crate::process::Limits {
                timeout: self.timeout,
                term_grace: Duration::ZERO,
                max_stdout: self.max_output_bytes,
                cancel: self.cancel.clone(),
            },
        )?;
        let status = done.status;
        match done.ended {
            Ended::Overflow => return Err(overflow_error(&name, self.max_output_bytes)),
            Ended::Cancelled => return Ok(Answer::Unknown("cancelled".into())),
            Ended::TimedOut => {
                let secs = self.timeout.unwrap_or_default().as_secs_f64();
                return Ok(Answer::Unknown(format!("time limit of {secs} s reached")));
            }
            Ended::Exited => {}
        }
        let stdout = done.stdout.map_err(|why| {
            if why.starts_with("more than") {
                overflow_error(&name, self.max_output_bytes)
            } else {
                Error::Solver(format!("{why}; aborted"))
            }
        })?;
        let stderr_tail = done.stderr_tail;

        if let Some(signal) = status.signal() {
            return Err(Error::Solver(format!(
                "{name} was killed by signal {signal} (exit {})",
                128 + signal
            )));
        }

        let answer = match &result_path {
            None => parse_output(
                &format!("{name} output"),
                &String::from_utf8_lossy(&stdout),
                num_vars,
            ),
            Some(path) => self.read_result_file(&name, path, num_vars),
        };
        drop(result_dir);

        judge(&name, status, answer, &stderr_tail, &stdout)
    }

    /// Whether the solver reads a `codec`-compressed file at `path` itself: CaDiCaL and Kissat
    /// read `.xz` and `.gz` (by the name's suffix, so the name must match the content).
    pub fn reads_compressed(&self, codec: crate::compress::Codec, path: &Path) -> bool {
        use crate::compress::Codec;
        let program = self
            .program
            .file_name()
            .map(|f| f.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        (program.contains("cadical") || program.contains("kissat"))
            && matches!(codec, Codec::Xz | Codec::Gzip)
            && Codec::from_path(path) == codec
    }

    /// Parses the result file a [`Convention::ResultFile`] solver wrote, within the output cap.
    fn read_result_file(&self, name: &str, path: &Path, num_vars: usize) -> Result<Answer> {
        let cap = self.max_output_bytes;
        let file = match fs::File::open(path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(Error::Solver(format!("{name} wrote no result file")));
            }
            Err(e) => return Err(Error::io(path.display().to_string(), e)),
        };
        let io_err = |e| Error::io(path.display().to_string(), e);
        if file.metadata().map_err(io_err)?.len() > cap {
            return Err(overflow_error(name, cap));
        }
        let mut bytes = Vec::new();
        file.take(cap.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(io_err)?;
        if bytes.len() as u64 > cap {
            return Err(overflow_error(name, cap));
        }
        parse_output_bytes(&format!("{name} result file"), &bytes, num_vars)
    }
}

/// Combines the exit status with the parsed answer.
fn judge(
    name: &str,
    status: ExitStatus,
    answer: Result<Answer>,
    stderr_tail: &[u8],
    stdout: &[u8],
) -> Result<Answer> {
    let code = status.code().unwrap_or(-1);
    let expected = match code {
        10 => "SATISFIABLE",
        20 => "UNSATISFIABLE",
        _ => {
            return match answer {
                Ok(Answer::Unknown(reason)) => Ok(Answer::Unknown(reason)),
                _ => Err(Error::Solver(format!(
                    "{name} exited with code {code} (expected 10 for SAT or 20 for UNSAT); {}",
                    last_message(stderr_tail, stdout)
                ))),
            };
        }
    };
    let answer = answer?;
    let got = match &answer {
        Answer::Sat(_) if code == 10 => return Ok(answer),
        Answer::Unsat if code == 20 => return Ok(answer),
        Answer::Sat(_) => "SATISFIABLE",
        Answer::Unsat => "UNSATISFIABLE",
        Answer::Unknown(_) => "UNKNOWN",
    };
    Err(Error::Solver(format!(
        "{name} exited with code {code} ({expected}) but answered {got}"
    )))
}

/// `last stderr line: '...'`, else the last non-comment stdout line, for exit-code errors.
fn last_message(stderr_tail: &[u8], stdout: &[u8]) -> String {
    let last_line = |bytes: &[u8], skip_comments: bool| {
        String::from_utf8_lossy(bytes)
            .lines()
            .map(str::trim)
            .rfind(|l| !(l.is_empty() || (skip_comments && l.starts_with("c "))))
            .map(shorten)
    };
    if let Some(line) = last_line(stderr_tail, false) {
        format!("last stderr line: '{line}'")
    } else if let Some(line) = last_line(stdout, true) {
        format!("no stderr; last output line: '{line}'")
    } else {
        "no message on stderr".to_string()
    }
}

/// One line, escaped, at most 200 characters.
fn shorten(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(200)
        .flat_map(char::escape_debug)
        .collect();
    if text.chars().nth(200).is_some() {
        out.push_str("...");
    }
    out
}

fn overflow_error(name: &str, cap: u64) -> Error {
    Error::Solver(format!(
        "{name}: solver output exceeded {}; aborted",
        human_bytes(cap)
    ))
}

fn human_bytes(n: u64) -> String {
    const KIB: u64 = 1024;
    const MIB: u64 = 1024 * 1024;
    const GIB: u64 = 1024 * 1024 * 1024;
    match n {
        0 => "0 bytes".to_string(),
        n if n % GIB == 0 => format!("{} GiB", n / GIB),
        n if n % MIB == 0 => format!("{} MiB", n / MIB),
        n if n % KIB == 0 => format!("{} KiB", n / KIB),
        n => format!("{n} bytes"),
    }
}

impl Engine for ExternalSolver {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: self.name().into(),
            about: format!("external DIMACS solver {}", self.program.display()).into(),
            caps: Capabilities {
                in_process: false,
                unsat: true,
                proofs: match self.writes_drat() {
                    true => Proofs::Drat,
                    false => Proofs::None,
                },
                incremental: None,
                memory: None,
                encodes: true,
                threads: false,
                proof_format: false,
            },
        }
    }

    /// Writes the CNF to a temporary file and runs the program on it (its own time limit when
    /// the settings give none).
    fn solve(
        &self,
        problem: &crate::presolve::Problem,
        settings: &Settings,
        cancel: &crate::interrupt::Cancel,
    ) -> Result<Outcome> {
        let t0 = std::time::Instant::now();
        let dir = tempfile::tempdir().map_err(|e| Error::io("temp dir", e))?;
        let cnf = dir.path().join("instance.cnf");
        let file = fs::File::create(&cnf).map_err(|e| Error::io(cnf.display().to_string(), e))?;
        // The input of a big board is gigabytes: its writing stops with the token (the time
        // limit, a signal, a lost race) like the solver's run after it.
        let written = crate::export::dimacs::write_cnf_until(
            io::BufWriter::new(file),
            problem,
            settings.options,
            None,
            Some(cancel),
        );
        let encode = t0.elapsed().as_secs_f64();
        let written = match written {
            Ok((_, written)) => written,
            Err(Error::Interrupted) if cancel.is_stopped() => {
                let why = super::traits::stopped_why(cancel, "stopped");
                let timing = super::traits::Timing { encode, solve: 0.0 };
                return Ok(Outcome::of_model(Answer::Unknown(why), timing));
            }
            Err(e) => return Err(e),
        };
        let t1 = std::time::Instant::now();
        let mut ext = self.clone();
        if settings.timeout.is_some() {
            ext.timeout = settings.timeout;
        }
        ext.cancel = Some(cancel.clone());
        ext.proof = settings.proof.map(Path::to_path_buf);
        let answer = ext.solve_file(&cnf, written.stats.vars as usize)?;
        let timing = super::traits::Timing {
            encode,
            solve: t1.elapsed().as_secs_f64(),
        };
        Ok(Outcome::of_model(answer, timing))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::Model;
    use crate::error::Naming;
    use std::thread;
    use std::time::Instant;

    const SAT_CNF: &str = "p cnf 3 2\n1 -2 0\n2 3 0\n";
    const SAT_CLAUSES: &[&[i32]] = &[&[1, -2], &[2, 3]];
    const UNSAT_CNF: &str = "p cnf 1 2\n1 0\n-1 0\n";

    fn write_cnf(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, text).unwrap();
        path
    }

    fn write_script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn fake_solver(dir: &Path, name: &str, body: &str) -> ExternalSolver {
        let path = write_script(dir, name, body);
        ExternalSolver::new(path.to_str().unwrap()).unwrap()
    }

    fn satisfies(model: &Model, clauses: &[&[i32]]) -> bool {
        clauses.iter().all(|clause| {
            clause
                .iter()
                .any(|&lit| model.value(lit.unsigned_abs()) == (lit > 0))
        })
    }

    /// The installed solver; panics when it is missing (its test is then marked ignored by
    /// `#[test_programs::requires]`, unless the solver went away after the build or `CI=true`).
    fn real_solver(name: &str) -> ExternalSolver {
        ExternalSolver::new(name).unwrap_or_else(|e| panic!("solver {name} is not installed: {e}"))
    }

    fn check_real_solver(name: &str, expected: Convention) {
        let solver = real_solver(name);
        assert_eq!(solver.convention, expected, "{name}");
        let dir = tempfile::TempDir::new().unwrap();
        let sat = write_cnf(dir.path(), "sat.cnf", SAT_CNF);
        let unsat = write_cnf(dir.path(), "unsat.cnf", UNSAT_CNF);
        match solver.solve_file(&sat, 3) {
            Ok(Answer::Sat(model)) => {
                assert_eq!(model.num_vars(), 3);
                assert!(satisfies(&model, SAT_CLAUSES), "{name}: {model:?}");
            }
            other => panic!("{name} on a satisfiable CNF: {other:?}"),
        }
        match solver.solve_file(&unsat, 1) {
            Ok(Answer::Unsat) => {}
            other => panic!("{name} on an unsatisfiable CNF: {other:?}"),
        }
    }

    #[test_programs::requires(cadical)]
    #[test]
    fn real_cadical() {
        check_real_solver("cadical", Convention::Competition);
    }

    #[test_programs::requires(minisat)]
    #[test]
    fn real_minisat() {
        check_real_solver("minisat", Convention::ResultFile);
    }

    #[test_programs::requires(picosat)]
    #[test]
    fn real_picosat() {
        check_real_solver("picosat", Convention::Competition);
    }

    #[test_programs::requires(cryptominisat5)]
    #[test]
    fn real_cryptominisat5() {
        check_real_solver("cryptominisat5", Convention::Competition);
    }

    #[test]
    fn conventions_by_name() {
        assert_eq!(
            convention_for(Path::new("/usr/bin/minisat")),
            Convention::ResultFile
        );
        assert_eq!(
            convention_for(Path::new("MiniSat-2.2")),
            Convention::ResultFile
        );
        for p in [
            "/usr/bin/cadical",
            "picosat",
            "/usr/bin/cryptominisat5",
            "/",
        ] {
            assert_eq!(convention_for(Path::new(p)), Convention::Competition, "{p}");
        }
    }

    #[test]
    fn resolving_solvers() {
        let sh = resolve_solver("sh").unwrap();
        assert!(sh.is_absolute() && sh.ends_with("sh"), "{sh:?}");

        let message = |r: Result<PathBuf>| match r {
            Err(Error::Option(b)) => b.message(Naming::Argument),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            message(resolve_solver("no-such-solver-xyzzy")),
            "solver='no-such-solver-xyzzy' is not a program on PATH"
        );
        assert_eq!(
            message(resolve_solver("./no/such/solver")),
            "solver='./no/such/solver' is a path to a solver that does not exist"
        );

        let dir = tempfile::TempDir::new().unwrap();
        let plain = dir.path().join("solver");
        fs::write(&plain, "#!/bin/sh\n").unwrap();
        fs::set_permissions(&plain, fs::Permissions::from_mode(0o644)).unwrap();
        let plain = plain.to_str().unwrap().to_string();
        assert_eq!(
            message(resolve_solver(&plain)),
            format!("solver='{plain}' is not executable (no execute bit, or not a file)")
        );
        let dir_path = format!("{}/", dir.path().display());
        assert!(message(resolve_solver(&dir_path)).ends_with("(no execute bit, or not a file)"));
        assert_eq!(
            message(resolve_solver("")),
            "solver='' is empty: give a solver's name or path"
        );
    }

    #[test]
    fn missing_cnf_is_io_error() {
        let dir = tempfile::TempDir::new().unwrap();
        let solver = fake_solver(dir.path(), "s", "echo 's UNSATISFIABLE'; exit 20");
        let err = solver
            .solve_file(&dir.path().join("nope.cnf"), 1)
            .unwrap_err();
        assert!(matches!(err, Error::Io { .. }), "{err:?}");
    }

    #[test]
    fn fake_competition_solver_with_args() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        // Checks its arguments: `--flag` then the CNF path.
        let mut solver = fake_solver(
            dir.path(),
            "argcheck",
            "[ \"$1\" = --flag ] && [ -f \"$2\" ] && [ $# -eq 2 ] || exit 3\n\
             echo 'c hello'; echo 'v -1'; echo 's SATISFIABLE'; echo 'v -2 3 0'; exit 10",
        );
        solver.args = vec!["--flag".to_string()];
        assert_eq!(
            solver.solve_file(&cnf, 3).unwrap(),
            Answer::Sat(Model::from_true_vars(3, [3]))
        );
    }

    #[test]
    fn fake_result_file_solver() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        let solver = fake_solver(
            dir.path(),
            "fake-minisat",
            "printf 'SAT\\n1 -2 3 0\\n' > \"$2\"; echo SATISFIABLE; exit 10",
        );
        assert_eq!(solver.convention, Convention::ResultFile);
        assert_eq!(
            solver.solve_file(&cnf, 3).unwrap(),
            Answer::Sat(Model::from_true_vars(3, [1, 3]))
        );

        let silent = fake_solver(dir.path(), "silent-minisat", "exit 10");
        let err = silent.solve_file(&cnf, 3).unwrap_err().to_string();
        assert!(err.contains("silent-minisat wrote no result file"), "{err}");

        let indet = fake_solver(dir.path(), "indet-minisat", "echo INDET > \"$2\"; exit 0");
        assert!(matches!(indet.solve_file(&cnf, 3), Ok(Answer::Unknown(_))));

        let mut huge = fake_solver(
            dir.path(),
            "huge-minisat",
            "echo SAT > \"$2\"; head -c 2097152 /dev/zero >> \"$2\"; exit 10",
        );
        huge.max_output_bytes = 1024 * 1024;
        let err = huge.solve_file(&cnf, 3).unwrap_err().to_string();
        assert!(
            err.contains("solver output exceeded 1 MiB; aborted"),
            "{err}"
        );
    }

    #[test]
    fn crashing_solver_reports_signal() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        let solver = fake_solver(dir.path(), "segv", "echo 'c starting'\nkill -SEGV $$");
        match solver.solve_file(&cnf, 3) {
            Err(Error::Solver(msg)) => {
                assert_eq!(msg, "segv was killed by signal 11 (exit 139)")
            }
            other => panic!("{other:?}"),
        }
    }

    /// True once `pid` no longer runs: gone (ESRCH), or a zombie waiting for its new parent to
    /// reap it (some container init processes never reap orphans).
    fn process_is_dead(pid: libc::pid_t) -> bool {
        // SAFETY: signal 0 only checks for existence.
        let rc = unsafe { libc::kill(pid, 0) };
        if rc == -1 && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH) {
            return true;
        }
        match fs::read_to_string(format!("/proc/{pid}/stat")) {
            // The state follows the parenthesised command name.
            Ok(stat) => stat
                .rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with(['Z', 'X'])),
            Err(_) => true,
        }
    }

    fn assert_dead_soon(pid_file: &Path) {
        let pid: libc::pid_t = fs::read_to_string(pid_file)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        for _ in 0..100 {
            if process_is_dead(pid) {
                return;
            }
            thread::sleep(Duration::from_millis(20));
        }
        panic!("process {pid} started by the solver is still alive");
    }

    #[test]
    fn hanging_solver_times_out_and_leaves_no_process() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        let pid_file = dir.path().join("child.pid");
        let mut solver = fake_solver(
            dir.path(),
            "hang",
            &format!(
                "sleep 1000 &\necho $! > '{}.tmp'\nmv '{0}.tmp' '{0}'\nwhile :; do sleep 1; done",
                pid_file.display()
            ),
        );
        solver.timeout = Some(Duration::from_secs(1));
        let start = Instant::now();
        let answer = solver.solve_file(&cnf, 3).unwrap();
        let elapsed = start.elapsed();
        assert_eq!(
            answer,
            Answer::Unknown("time limit of 1 s reached".to_string())
        );
        assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
        assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
        assert_dead_soon(&pid_file);
    }

    #[test]
    fn children_left_behind_after_exit_are_killed() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", UNSAT_CNF);
        let pid_file = dir.path().join("child.pid");
        // The background sleep inherits stdout: without the group kill the read would hang.
        let solver = fake_solver(
            dir.path(),
            "leaky",
            &format!(
                "sleep 1000 &\necho $! > '{}'\necho 's UNSATISFIABLE'\nexit 20",
                pid_file.display()
            ),
        );
        let start = Instant::now();
        assert_eq!(solver.solve_file(&cnf, 1).unwrap(), Answer::Unsat);
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_dead_soon(&pid_file);
    }

    #[test]
    fn garbage_output_is_an_error() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        let solver = fake_solver(
            dir.path(),
            "garbage",
            "echo 'hello world'\necho '%%%'\nexit 10",
        );
        match solver.solve_file(&cnf, 3) {
            Err(Error::Parse { file, line, msg }) => {
                assert_eq!(file, "garbage output");
                assert_eq!(line, Some(2));
                assert!(msg.contains("'%%%'"), "{msg}");
            }
            other => panic!("{other:?}"),
        }
        let solver = fake_solver(
            dir.path(),
            "badlit",
            "echo 's SATISFIABLE'\necho 'v 1 foo 0'\nexit 10",
        );
        let err = solver.solve_file(&cnf, 3).unwrap_err().to_string();
        assert_eq!(
            err,
            "badlit output:2: invalid literal 'foo' (expected an integer)"
        );
        let solver = fake_solver(
            dir.path(),
            "range",
            "echo 's SATISFIABLE'\necho 'v 1 -9 0'\nexit 10",
        );
        let err = solver.solve_file(&cnf, 3).unwrap_err().to_string();
        assert!(
            err.starts_with("range output:2: literal '-9' out of range"),
            "{err}"
        );
    }

    #[test]
    fn exit_10_without_s_line_is_an_error() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        let solver = fake_solver(dir.path(), "nos", "echo 'c hi'\necho 'v 1 0'\nexit 10");
        let err = solver.solve_file(&cnf, 3).unwrap_err();
        assert!(
            matches!(&err, Error::Parse { msg, .. } if msg.contains("no verdict")),
            "{err:?}"
        );
    }

    #[test]
    fn truncated_model_is_an_error() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        let solver = fake_solver(
            dir.path(),
            "trunc",
            "echo 's SATISFIABLE'\necho 'v 1 2'\nexit 10",
        );
        let err = solver.solve_file(&cnf, 3).unwrap_err().to_string();
        assert_eq!(
            err,
            "trunc output:2: model not terminated by 0 (output truncated?)"
        );
    }

    #[test]
    fn endless_output_is_capped() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);
        let mut solver = fake_solver(dir.path(), "chatty", "yes");
        solver.max_output_bytes = 1024 * 1024;
        solver.timeout = Some(Duration::from_secs(60));
        let start = Instant::now();
        match solver.solve_file(&cnf, 3) {
            Err(Error::Solver(msg)) => {
                assert_eq!(msg, "chatty: solver output exceeded 1 MiB; aborted")
            }
            other => panic!("{other:?}"),
        }
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn exit_code_and_answer_must_agree() {
        let dir = tempfile::TempDir::new().unwrap();
        let cnf = write_cnf(dir.path(), "f.cnf", SAT_CNF);

        let liar = fake_solver(dir.path(), "liar", "echo 's UNSATISFIABLE'\nexit 10");
        let err = liar.solve_file(&cnf, 3).unwrap_err().to_string();
        assert!(
            err.contains("liar exited with code 10 (SATISFIABLE) but answered UNSATISFIABLE"),
            "{err}"
        );

        let liar = fake_solver(
            dir.path(),
            "liar20",
            "echo 's SATISFIABLE'\necho 'v 1 0'\nexit 20",
        );
        let err = liar.solve_file(&cnf, 3).unwrap_err().to_string();
        assert!(
            err.contains("exited with code 20 (UNSATISFIABLE) but answered SATISFIABLE"),
            "{err}"
        );

        let zero = fake_solver(
            dir.path(),
            "zero",
            "echo 's SATISFIABLE'\necho 'v 1 0'\necho 'warning: x' >&2\necho 'fatal: out of memory' >&2\nexit 0",
        );
        match zero.solve_file(&cnf, 3) {
            Err(Error::Solver(msg)) => assert_eq!(
                msg,
                "zero exited with code 0 (expected 10 for SAT or 20 for UNSAT); \
                 last stderr line: 'fatal: out of memory'"
            ),
            other => panic!("{other:?}"),
        }

        let one = fake_solver(
            dir.path(),
            "one",
            "echo 'ERROR! Could not open file'\nexit 1",
        );
        let err = one.solve_file(&cnf, 3).unwrap_err().to_string();
        assert!(
            err.contains("code 1 ") && err.contains("'ERROR! Could not open file'"),
            "{err}"
        );

        let unknown = fake_solver(dir.path(), "unk", "echo 's UNKNOWN'\nexit 0");
        assert_eq!(
            unknown.solve_file(&cnf, 3).unwrap(),
            Answer::Unknown("solver answered UNKNOWN".to_string())
        );
    }

    #[test]
    fn byte_sizes_are_human() {
        assert_eq!(human_bytes(DEFAULT_MAX_OUTPUT_BYTES), "256 MiB");
        assert_eq!(human_bytes(1024 * 1024), "1 MiB");
        assert_eq!(human_bytes(2048), "2 KiB");
        assert_eq!(human_bytes(1000), "1000 bytes");
    }
}
