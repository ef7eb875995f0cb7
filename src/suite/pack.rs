//! `suite RECIPE --solve --pack DIR`: what a SAT Competition benchmark track asks for, from a
//! solved suite.
//!
//! | file | what |
//! |---|---|
//! | `<stem>-<gbdhash>.cnf.xz` | every instance, xz-compressed (one thread, the suite's level) |
//! | `instances.csv`, `instances.json` | one row per instance ([`PackRow`]): GBD hash, family, parameters, seed, verdict, whether it is certified, seconds by the suite's solver and by a reference CDCL solver at a stated limit |
//! | `DESCRIPTION.md` | the family, the command and recipe that regenerate every file, the verdicts per parameter (the phase transition), the hardness spread, after `--select` the selection (both solvers, their limits and times, the processor), every instance with its GBD hash, the licence (CC BY 4.0) and the author, references |
//! | `description.html`, `description.tex` | the same, as HTML and as an IEEE Proceedings (`IEEEtran` conference) LaTeX source ([`super::typeset`]) |
//! | `description.pdf` | the LaTeX source typeset, when `tectonic` or `pdflatex` is on PATH and succeeds |
//! | `phase.svg`, `cactus.svg` | P(SAT) and median time per parameter; solved instances against time |
//!
//! Columns are named after GBD's attributes where one exists (`hash`, `family`, `filename`,
//! `variables`, `clauses`, `result`). The verdicts of the two solvers must agree (a contradiction
//! is an error), and a SAT answer of the reference solver is decoded from the file's header and
//! checked by the verifier like any other.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::answer::Answer;
use crate::atomic_file::{write_atomic, write_text_atomic};
use crate::compress::{Codec, Compressor};
use crate::error::{Error, Result};
use crate::interrupt::Cancel;
use crate::solve::external::ExternalSolver;

use super::manifest::Row;
use super::recipe::Recipe;
use super::select::{Selection, run_checked};

/// How to make a pack.
#[derive(Clone, Debug)]
pub struct PackOptions {
    /// The pack's folder.
    pub dir: PathBuf,
    /// The reference CDCL solver (`kissat`, `cadical`, a path), run on every packed file.
    pub reference: Option<String>,
    /// Its time limit per instance.
    pub reference_timeout: Duration,
    /// The xz level of the packed files.
    pub level: u32,
    /// The command that made the suite and the pack, quoted in `DESCRIPTION.md`.
    pub command: String,
    /// The benchmarks' author (`--author`; else the recipe's `author`).
    pub author: Option<String>,
}

/// The command line `words` (the program's name first) as one shell line for
/// [`PackOptions::command`]: a word of letters, digits and `-_./=,:` as it is, any other in
/// single quotes (a `'` inside written `'\''`), so that pasting the line into a shell runs the
/// same command. Public (feature `harness`, as this module) for the program's `suite --pack`.
pub fn shell_command(words: impl IntoIterator<Item = String>) -> String {
    words
        .into_iter()
        .map(|w| {
            if w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=,:".contains(c))
            {
                w
            } else {
                format!("'{}'", w.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One row of `instances.csv` / `instances.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PackRow {
    /// The GBD hash.
    pub hash: String,
    /// The family (the recipe's).
    pub family: String,
    /// The packed file's name.
    pub filename: String,
    /// The piece.
    pub piece: String,
    /// The board side given to the generator.
    pub n: u32,
    /// The generator.
    pub generator: String,
    /// Its parameters, `key=value` separated by spaces.
    pub params: String,
    /// The generator's seed.
    pub seed: Option<u64>,
    /// The AMO encoding.
    pub amo: String,
    /// `p cnf` variables.
    pub variables: u64,
    /// `p cnf` clauses.
    pub clauses: u64,
    /// `sat`, `unsat` or `unknown` (GBD's values), by the suite's solver or, when that gave
    /// none, by the reference solver.
    pub result: String,
    /// Whether the verdict comes with a checked certificate: a verified board for `sat`, a
    /// checked refutation (`suite --certify`) for `unsat`.
    pub certified: bool,
    /// The suite's solver (`auto` is the default strategy).
    pub solver: String,
    /// Its verdict (`sat`, `unsat`, `unknown`).
    pub solver_result: String,
    /// Its seconds (the limit when unknown).
    pub seconds: Option<f64>,
    /// The reference solver.
    pub ref_solver: String,
    /// Its verdict (`sat`, `unsat`, `unknown`).
    pub ref_result: String,
    /// Its wall-clock seconds, including the decompression it does itself.
    pub ref_seconds: Option<f64>,
    /// Its time limit, seconds.
    pub ref_timeout: Option<f64>,
    /// `--select`'s budget solver (empty without `--select`).
    #[serde(default)]
    pub budget_solver: String,
    /// Its verdict (`sat`, `unsat`, `unknown`; empty without `--select`).
    #[serde(default)]
    pub budget_result: String,
    /// Its wall-clock seconds.
    #[serde(default)]
    pub budget_seconds: Option<f64>,
    /// Its limit, seconds.
    #[serde(default)]
    pub budget_limit: Option<f64>,
    /// The suite solver's limit under `--select`, seconds.
    #[serde(default)]
    pub limit: Option<f64>,
    /// The processor model the `--select` runs were timed on.
    #[serde(default)]
    pub cpu: String,
    /// The exact model count (`--select --counter`; empty otherwise).
    #[serde(default)]
    pub count: String,
}

/// GBD's spelling of a manifest status.
fn gbd_result(status: &str) -> String {
    match status {
        "SAT" => "sat",
        "UNSAT" => "unsat",
        _ => "unknown",
    }
    .to_string()
}

/// The packed file name of a suite row: its name without `.cnf[.xz|.gz|.zst]`, the GBD hash,
/// `.cnf.xz`.
fn packed_name(row: &Row) -> String {
    let stem = row.file.split(".cnf").next().unwrap_or(&row.file);
    format!("{stem}-{}.cnf.xz", row.gbdhash)
}

/// Writes the pack of a solved suite (see the module documentation): `recipe` is the parsed
/// recipe and its text, `rows` are the manifest's, `suite_dir` holds their files, `phase_svg`
/// is the suite's phase-transition picture, `selection` what `--select` found.
pub(super) fn write(
    (recipe, recipe_text): (&Recipe, &str),
    rows: &[Row],
    suite_dir: &Path,
    (phase_svg, selection): (&str, Option<&Selection>),
    options: &PackOptions,
    jobs: usize,
    cancel: &Cancel,
) -> Result<Vec<PackRow>> {
    if let Some(row) = rows.iter().find(|r| r.status.is_empty()) {
        return Err(Error::Usage(format!(
            "--pack needs every instance solved ({} is not): add --solve",
            row.file
        )));
    }
    let dir = &options.dir;
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir.display().to_string(), e))?;
    let reference = options
        .reference
        .as_deref()
        .map(|name| {
            let mut s = ExternalSolver::new(name)?;
            s.timeout = Some(options.reference_timeout);
            Ok::<_, Error>(s)
        })
        .transpose()?;

    // 1. The files, xz-compressed (the suite's own .xz files are copied as they are when the
    //    level is the same, which the manifest cannot tell: so they are recompressed always,
    //    from the decompressed text, which gives the same bytes for the same level).
    let items: Vec<usize> = (0..rows.len()).collect();
    let (done, error) = crate::work::run(&items, jobs, cancel, &|_, _| {}, |&i| {
        let row = &rows[i];
        let name = packed_name(row);
        let path = dir.join(&name);
        let text = crate::compress::read(&suite_dir.join(&row.file))?;
        write_atomic(&path, |f| {
            let mut c = Compressor::new(Codec::Xz, options.level, f)
                .map_err(|e| Error::io(path.display().to_string(), e))?;
            std::io::Write::write_all(&mut c, &text)
                .and_then(|_| c.finish().map(|_| ()))
                .map_err(|e| Error::io(path.display().to_string(), e))
        })?;
        let reference_run = match &reference {
            Some(s) => Some(run_checked(s, &path, cancel)?),
            None => None,
        };
        Ok((name, reference_run))
    });
    if let Some(e) = error {
        return Err(e);
    }
    let mut out = Vec::new();
    for (row, done) in rows.iter().zip(done) {
        let Some((filename, reference_run)) = done else {
            return Err(Error::Interrupted);
        };
        let (ref_result, ref_seconds) = match &reference_run {
            Some((Answer::Sat(()), s)) => ("sat", Some(*s)),
            Some((Answer::Unsat, s)) => ("unsat", Some(*s)),
            Some((Answer::Unknown(_), s)) => ("unknown", Some(*s)),
            None => ("", None),
        };
        let mut result = gbd_result(&row.status);
        if ref_result != "unknown" && !ref_result.is_empty() {
            if result != "unknown" && result != ref_result {
                return Err(Error::WrongAnswer(format!(
                    "{}: {} says {result} but {} says {ref_result}",
                    row.file,
                    row.solver,
                    options.reference.as_deref().unwrap_or("the reference")
                )));
            }
            result = ref_result.to_string();
        }
        let certified = match result.as_str() {
            // Every SAT answer is a verified board (ours and the reference's).
            "sat" => true,
            "unsat" => row.certified && row.status == "UNSAT",
            _ => false,
        };
        out.push(PackRow {
            hash: row.gbdhash.clone(),
            family: row.family.clone(),
            filename,
            piece: row.piece.clone(),
            n: row.n,
            generator: row.generator.clone(),
            params: row.params.clone(),
            seed: row.seed,
            amo: row.amo.clone(),
            variables: row.vars,
            clauses: row.clauses,
            result,
            certified,
            solver: row.solver.clone(),
            solver_result: gbd_result(&row.status),
            seconds: row.seconds,
            ref_solver: options.reference.clone().unwrap_or_default(),
            ref_result: ref_result.to_string(),
            ref_seconds,
            ref_timeout: reference
                .as_ref()
                .map(|_| options.reference_timeout.as_secs_f64()),
            budget_solver: row.budget_solver.clone(),
            budget_result: match row.budget_status.as_str() {
                "" => String::new(),
                s => gbd_result(s),
            },
            budget_seconds: row.budget_seconds,
            budget_limit: row.budget_limit,
            limit: row.limit,
            cpu: row.cpu.clone(),
            count: row.count.clone(),
        });
    }

    // 2. The tables.
    let csv_path = dir.join("instances.csv");
    write_atomic(&csv_path, |f| {
        let name = csv_path.display().to_string();
        let mut w = csv::Writer::from_writer(f);
        for row in &out {
            w.serialize(row)
                .map_err(|e| Error::parse_file(&name, e.to_string()))?;
        }
        w.flush().map_err(|e| Error::io(&name, e))
    })?;
    let json = serde_json::to_string_pretty(&out).map_err(|e| Error::Internal(e.to_string()))?;
    write_text_atomic(&dir.join("instances.json"), &(json + "\n"))?;

    // 3. The pictures and the description.
    write_text_atomic(&dir.join("phase.svg"), phase_svg)?;
    let mut series = vec![(
        format!(
            "{} (limit per run)",
            rows.first().map_or("", |r| r.solver.as_str())
        ),
        solved_times(
            out.iter()
                .map(|r| (r.solver_result != "unknown", r.seconds)),
        ),
    )];
    if let Some(sel) = selection.filter(|s| !s.budget.is_empty()) {
        series.push((
            format!("{}, {} s limit", sel.budget, sel.budget_limit),
            solved_times(out.iter().map(|r| {
                (
                    r.budget_result == "sat" || r.budget_result == "unsat",
                    r.budget_seconds,
                )
            })),
        ));
    }
    if let Some(name) = &options.reference {
        series.push((
            format!(
                "{name}, {} s limit",
                options.reference_timeout.as_secs_f64()
            ),
            solved_times(
                out.iter()
                    .map(|r| (r.ref_result != "unknown", r.ref_seconds)),
            ),
        ));
    }
    let cactus =
        super::cactus::render_cactus(&format!("{}: solved instances", recipe.name), &series)?;
    write_text_atomic(&dir.join("cactus.svg"), &cactus)?;
    let text = description(recipe, recipe_text, &out, selection, options);
    write_text_atomic(&dir.join("DESCRIPTION.md"), &text)?;
    let author = options
        .author
        .clone()
        .or_else(|| recipe.author.clone())
        .unwrap_or_else(|| "(author not given)".into());
    write_text_atomic(&dir.join("description.html"), &super::typeset::html(&text))?;
    let tex = super::typeset::latex(&text, &author);
    write_text_atomic(&dir.join("description.tex"), &tex)?;
    super::typeset::pdf(dir, "description.tex");
    Ok(out)
}

/// The sorted times of the solved runs.
fn solved_times(runs: impl Iterator<Item = (bool, Option<f64>)>) -> Vec<f64> {
    let mut t: Vec<f64> = runs
        .filter_map(|(ok, s)| if ok { s } else { None })
        .collect();
    t.sort_by(f64::total_cmp);
    t
}

/// The median of `xs` (none when empty).
fn median(xs: &mut [f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(f64::total_cmp);
    Some(xs[xs.len() / 2])
}

/// What a family's generator makes, in prose.
fn family_text(generator: &str) -> &'static str {
    match generator {
        "diagonals" => {
            "n-queens with excluded diagonals (Gent, Jefferson & Nightingale 2017; csplib prob079 / \
             prob080): whole diagonals of the board are closed, the first `diags` of a random \
             list that keeps `min-free` free cells per row and column; the instance asks for n \
             non-attacking queens on what is left."
        }
        "completion" => {
            "n-queens completion (Gent, Jefferson & Nightingale 2017; csplib prob079): `m` queens \
             are pre-placed, none attacking another; the instance asks whether they extend to n \
             non-attacking queens."
        }
        "diagonals to=completion" => {
            "excluded diagonals reduced to n-queens completion (Gent, Jefferson & Nightingale \
             2017): the excluded-diagonal instance on a board of side about 266 n with all but n \
             queens pre-placed; presolve takes the pre-placed queens out again, so the CNF is \
             the excluded-diagonal formula (the same GBD hash as its diagonal form)."
        }
        "blocked" => {
            "blocked n-queens (csplib prob080): `m` random cells are blocked, keeping `min-free` \
             free cells per row and column; the instance asks for n non-attacking queens on the \
             free cells."
        }
        _ => "the plain n-queens (or n-amazons) problem on the empty board.",
    }
}

/// The generators of the rows, each once, in order of first appearance (`diagonals
/// to=completion` apart from `diagonals`): the keys of [`family_text`].
fn generator_kinds(rows: &[PackRow]) -> Vec<&'static str> {
    let mut kinds: Vec<&'static str> = Vec::new();
    for r in rows {
        let kind = match r.generator.as_str() {
            "diagonals" if r.params.split(' ').any(|p| p == "to=completion") => {
                "diagonals to=completion"
            }
            "diagonals" => "diagonals",
            "completion" => "completion",
            "blocked" => "blocked",
            _ => "plain",
        };
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    kinds
}

/// The `## Selection` section of the description.
fn selection_text(sel: &Selection, rows: &[PackRow]) -> String {
    let limit = sel
        .limit
        .map_or("no limit".to_string(), |l| format!("{l} s per instance"));
    let mut s = String::from("## Selection by hardness\n\n");
    if sel.budget.is_empty() {
        s += &format!(
            "For the Model Counting Competition: every file carries `c t pmc` and `c p show` (the \
             projection onto the cell variables: the projected count is the number of solutions). \
             The counter `{}` ran on every instance, {limit}: what it counted in under {} s is \
             dropped as easy, what it counted within its limit passed (the exact count is in \
             `instances.csv`, column `count`), the rest is too hard. Each family keeps up to {} of \
             what passed, drawn with seed {}{}. Times are wall-clock seconds measured on {}.\n\n",
            sel.solver,
            sel.budget_limit,
            sel.per_family,
            sel.seed,
            sel.total.map_or(String::new(), |t| format!(
                "; the whole selection keeps up to {t}, the families that keep the most giving \
                 way first"
            )),
            sel.cpu
        );
    } else {
        s += &format!(
            "As the SAT Competition selects: every instance went to the budget solver `{}` with a \
         limit of {} s; what it decided is dropped as easy. What it left undecided went to the \
         reference solver `{}` (queens-sat's; `auto` is its default strategy), {limit}: what that \
         decided passed, the rest is too hard. {} Times are wall-clock seconds measured on {}.\n\n",
            sel.budget,
            sel.budget_limit,
            sel.solver,
            match sel.total {
                None => format!(
                    "Each family keeps up to {} of what passed, drawn with seed {} and balanced \
                     (kept SAT and UNSAT differ by at most {}).",
                    sel.per_family,
                    sel.seed,
                    super::select::MAX_IMBALANCE
                ),
                Some(total) => format!(
                    "Each family keeps up to {} of what passed, drawn with seed {}, and the whole \
                     selection keeps up to {total}, balanced over all families (kept SAT and UNSAT \
                     differ by at most {}): the families that keep the most give way first.",
                    sel.per_family,
                    sel.seed,
                    super::select::MAX_IMBALANCE
                ),
            },
            sel.cpu
        );
    }
    s += "| family | instances | presolve-decided | duplicates | easy | too hard | passed | kept | kept sat | kept unsat | shortfall |\n";
    s += "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for t in &sel.families {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            t.family,
            t.instances,
            t.presolved,
            t.duplicates,
            t.easy,
            t.too_hard,
            t.passed,
            t.kept(),
            t.kept_sat,
            t.kept_unsat,
            t.shortfall
        );
    }
    let mut budget: Vec<f64> = rows.iter().filter_map(|r| r.budget_seconds).collect();
    let mut ours: Vec<f64> = rows.iter().filter_map(|r| r.seconds).collect();
    let fmt = |m: Option<f64>| m.map_or("-".to_string(), |x| format!("{x:.3}"));
    let max = |xs: &[f64]| {
        xs.iter()
            .copied()
            .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
    };
    if sel.budget.is_empty() {
        return s;
    }
    s += &format!(
        "\nOn the {} kept instances: `{}` median {} s (max {} s), none decided, \
         `{}` median {} s (max {} s), every one decided.\n\n",
        rows.len(),
        sel.budget,
        fmt(median(&mut budget)),
        fmt(max(&budget)),
        sel.solver,
        fmt(median(&mut ours)),
        fmt(max(&ours)),
    );
    s
}

/// `DESCRIPTION.md`.
fn description(
    recipe: &Recipe,
    recipe_text: &str,
    rows: &[PackRow],
    selection: Option<&Selection>,
    options: &PackOptions,
) -> String {
    let mut s = String::new();
    let version = env!("CARGO_PKG_VERSION");
    s += &format!("# {}: a queens-sat benchmark family\n\n", recipe.name);
    s += &format!(
        "{} instances in DIMACS CNF, xz-compressed, named `<family>-<piece>-n<N>-<params>-s<seed>-<amo>-<gbdhash>.cnf.xz`. \
         Every file carries a queens-sat comment header (the instance, the cell-variable map) so \
         that any model decodes into a board, `c t pmc` and `c p show` (the projection onto the \
         cell variables: the projected model count is the number of solutions).\n\n",
        rows.len()
    );
    s += "## The family\n\n";
    for g in generator_kinds(rows) {
        s += &format!("- `{g}`: {}\n", family_text(g));
    }
    s += "\n## Regenerating every file\n\n";
    s += &format!(
        "With queens-sat {version}:\n\n```sh\n{}\n```\n\nThe recipe:\n\n```text\n{}```\n\n",
        options.command, recipe_text
    );
    s += &format!(
        "The CNF text, and so every GBD hash, is reproducible byte for byte from the recipe (the \
         generators draw from a seeded ChaCha8). The `.xz` bytes are too, given queens-sat's \
         pinned `liblzma` crate, level {} and one thread. Timing columns are not.\n\n",
        options.level
    );
    s += "## Verdicts per family and parameter (the phase transition)\n\n";
    s += "`phase.svg` draws the same.\n\n";
    s += "| family | parameters | instances | sat | unsat | unknown | certified | median s (solver) | median s (reference) |\n";
    s += "|---|---|---|---|---|---|---|---|---|\n";
    let mut groups: Vec<(String, String, u32)> = Vec::new();
    for r in rows {
        let key = (r.family.clone(), r.params.clone(), r.n);
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    for (family, params, n) in &groups {
        let group: Vec<&PackRow> = rows
            .iter()
            .filter(|r| &r.family == family && &r.params == params && r.n == *n)
            .collect();
        let count = |res: &str| group.iter().filter(|r| r.result == res).count();
        let certified = group.iter().filter(|r| r.certified).count();
        let mut ours: Vec<f64> = group.iter().filter_map(|r| r.seconds).collect();
        let mut theirs: Vec<f64> = group.iter().filter_map(|r| r.ref_seconds).collect();
        let fmt = |m: Option<f64>| m.map_or("-".to_string(), |x| format!("{x:.3}"));
        s += &format!(
            "| {family} | n={n} {params} | {} | {} | {} | {} | {certified} | {} | {} |\n",
            group.len(),
            count("sat"),
            count("unsat"),
            count("unknown"),
            fmt(median(&mut ours)),
            fmt(median(&mut theirs)),
        );
    }
    let solver = rows.first().map_or("", |r| r.solver.as_str());
    s += &format!(
        "\nSolver: `{solver}` (queens-sat's; `auto` is the default strategy). Reference: {}.\n\n",
        match &options.reference {
            Some(r) => format!(
                "`{r}` at {} s per instance, on the `.xz` file",
                options.reference_timeout.as_secs_f64()
            ),
            None => "none".into(),
        }
    );
    if let Some(sel) = selection {
        s += &selection_text(sel, rows);
    }
    s += "## Hardness spread\n\n![Instances solved against seconds, per solver](cactus.svg)\n\n";
    s += "## Instances\n\n| file | GBD hash | result |";
    let budget = selection.is_some_and(|s| !s.budget.is_empty());
    let counted = selection.is_some_and(|s| s.budget.is_empty());
    if budget {
        s += " budget solver | budget s |";
    }
    if counted {
        s += " count |";
    }
    s += " solver s |\n|---|---|---|";
    if budget {
        s += "---|---|";
    }
    if counted {
        s += "---|";
    }
    s += "---|\n";
    let secs = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.3}"));
    for r in rows {
        s += &format!("| {} | `{}` | {} |", r.filename, r.hash, r.result);
        if budget {
            s += &format!(" {} | {} |", r.budget_result, secs(r.budget_seconds));
        }
        if counted {
            s += &format!(" {} |", r.count);
        }
        s += &format!(" {} |\n", secs(r.seconds));
    }
    s += "\n";
    s += "## Files\n\n`instances.csv` and `instances.json`: `hash` (GBD hash), `family`, `filename`, \
          `piece`, `n`, `generator`, `params`, `seed`, `amo`, `variables`, `clauses`, `result` \
          (`sat`, `unsat`, `unknown`), `certified` (a verified board for sat; a checked refutation \
          for unsat), `solver`, `solver_result`, `seconds`, `ref_solver`, `ref_result`, `ref_seconds`, \
          `ref_timeout`; after `--select`, `budget_solver`, `budget_result`, `budget_seconds`, \
          `budget_limit`, `limit` (the solver's) and `cpu`.\n\n";
    s += &format!(
        "## Licence and author\n\nThe instances and this description are licensed under CC BY 4.0 \
         (Creative Commons Attribution 4.0 International, \
         <https://creativecommons.org/licenses/by/4.0/>). Author: {}.\n\n",
        options
            .author
            .as_deref()
            .or(recipe.author.as_deref())
            .unwrap_or("not given (`suite --author`, or `author` in the recipe)")
    );
    s += "## References\n\n\
          - I. P. Gent, C. Jefferson, P. Nightingale. Complexity of n-Queens Completion. JAIR 59 (2017) 815-848.\n\
          - CSPLib prob079 (n-Queens Completion) and prob080 (Blocked n-Queens).\n\
          - M. Iser, C. Sinz. A Problem Meta-Data Library for Research in SAT. Pragmatics of SAT 2018 (GBD hashes).\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(generator: &str, params: &str) -> PackRow {
        serde_json::from_value(serde_json::json!({
            "hash": "0", "family": "f", "filename": "f.cnf.xz", "piece": "queen", "n": 8,
            "generator": generator, "params": params, "seed": 1, "amo": "auto",
            "variables": 1, "clauses": 1, "result": "sat", "certified": false,
            "solver": "auto", "solver_result": "sat", "seconds": 0.1, "ref_solver": "",
            "ref_result": "", "ref_seconds": null, "ref_timeout": null
        }))
        .unwrap()
    }

    /// Plain words stay as they are; a word with a space, a quote or a shell character is
    /// single-quoted, its quote closed, escaped and reopened.
    #[test]
    fn shell_command_quotes_what_a_shell_would_split() {
        let words = [
            "queens-sat",
            "suite",
            "a b.suite",
            "--author",
            "O'Neil",
            "--level=1",
            "x;y",
        ];
        assert_eq!(
            shell_command(words.map(String::from)),
            r"queens-sat suite 'a b.suite' --author 'O'\''Neil' --level=1 'x;y'"
        );
        assert_eq!(shell_command(Vec::new()), "");
    }

    /// Each generator is described once, however many families use it and in whatever order,
    /// and the completion form of excluded diagonals gets its own entry.
    #[test]
    fn each_generator_is_described_once() {
        let rows = [
            row("blocked", "m=5 min-free=1"),
            row("diagonals", "min-free=1 diags=3 to=completion"),
            row("blocked", "m=6 min-free=1"),
            row("diagonals", "min-free=1 diags=3"),
            row("diagonals", "min-free=1 diags=4 to=completion"),
            row("diagonals", "min-free=1 diags=4"),
        ];
        assert_eq!(
            generator_kinds(&rows),
            ["blocked", "diagonals to=completion", "diagonals"]
        );
        assert!(family_text("diagonals to=completion").contains("completion"));
    }
}
