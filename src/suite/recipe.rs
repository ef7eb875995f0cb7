//! Suite recipes (`encodings/NAME.suite`): families of generated instances.
//!
//! A recipe is line based; `#` starts a comment. Each family starts with `family NAME` and is
//! followed by one statement per line (any order, each at most once):
//!
//! ```text
//! family NAME                 # letters, digits, '_', '.', '-'; unique in the recipe
//! piece queen,amazon          # or `all`; default queen
//! n 8..200:8                  # board sides (required)
//! generator blocked m=100..400:20 min-free=1
//! seeds 1..20                 # required for random generators, refused for `plain`
//! amo all                     # AMO encodings by --amo name, or `all` (default auto)
//! presolve off                # write the unpresolved formula (default on, see below)
//! ```
//!
//! Before the first family, `author TEXT` names the benchmarks' author (the rest of the line),
//! which `--pack` writes into the description (`suite --author` overrides it).
//!
//! `presolve on` (the default): an instance that presolve decides (pre-placed pieces that
//! attack each other, a line without a free cell) is recorded in the manifest with its verdict
//! and reason and not written, since its formula is the same fixed contradiction for all of
//! them; so is one whose formula unit propagation alone decides (no benchmark either).
//! `presolve off`: every instance is written unpresolved (every cell a variable, the
//! pre-placed pieces and unavailable cells as unit clauses, what `encode --no-presolve`
//! writes), with its real size, except one whose unpresolved formula unit propagation alone
//! decides (pre-placed pieces that attack each other among them): that one is recorded with
//! its verdict and the reason, as with `presolve on`, and not written.
//!
//! Integer lists are comma-separated items `A`, `A..B` (inclusive) or `A..B:S` (step `S`).
//! Generators: `plain`; `completion m=LIST` or `completion delta=LIST` (`m = n - delta`);
//! `blocked m=LIST min-free=LIST`; `diagonals min-free=LIST [diags=LIST] [to=completion]`
//! (the first `diags` entries of the list; `to=completion` applies the reduction, queens only).
//!
//! The **family parameter** is the one of `n` and the generator's integer parameters that takes
//! several values (at most one may); it is the x axis of `--plot`. With none, it is `n`.

use crate::encode::amo::AmoKind;
use crate::error::{Error, Result, clip};
use crate::generate::Generator;
use crate::piece::{PIECES, Piece};

/// Largest number of values one list may expand to.
const MAX_LIST: usize = 100_000;

/// A parsed recipe.
#[derive(Clone, Debug)]
pub struct Recipe {
    /// The suite's name (the recipe file's stem); output goes to `cnf-out/NAME/`.
    pub name: String,
    /// The families, in file order.
    pub families: Vec<Family>,
    /// `author TEXT` (before the first family), for the pack's description.
    pub author: Option<String>,
}

/// One family: a generator swept over its family parameter, for each piece, seed and AMO.
#[derive(Clone, Debug)]
pub struct Family {
    /// The family's name.
    pub name: String,
    /// Line of its `family` statement.
    pub line: usize,
    /// Pieces, in recipe order.
    pub pieces: Vec<Piece>,
    /// Name of the family parameter (`n` or a generator parameter).
    pub x_name: String,
    /// The concrete instances' generator settings, one per family-parameter value.
    pub members: Vec<Member>,
    /// Seeds (`[None]` for the plain generator).
    pub seeds: Vec<Option<u64>>,
    /// AMO encodings.
    pub amos: Vec<AmoKind>,
    /// `presolve on|off`: whether the written formulas are presolved (see the module docs).
    pub presolve: bool,
}

/// One value of the family parameter: board side and generator with concrete parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Board side given to the generator.
    pub n: u32,
    /// The generator.
    pub generator: Generator,
    /// `key=value` parameters as the manifest shows them, in canonical order.
    pub params: Vec<(String, String)>,
    /// The family parameter's value.
    pub x: i64,
}

impl Member {
    /// The file-name part for the parameters, e.g. `-m14-k1`.
    pub fn name_part(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.params {
            match k.as_str() {
                "to" => s += &format!("-{v}"),
                "min-free" => s += &format!("-k{v}"),
                "m" if self.params.iter().any(|(k, _)| k == "delta") => {}
                _ => s += &format!("-{k}{v}"),
            }
        }
        s
    }

    /// The parameters as one manifest field, `key=value` separated by spaces.
    pub fn params_field(&self) -> String {
        self.params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Parses recipe `text` read from `file`; the suite is named `name`.
pub fn parse(file: &str, name: &str, text: &str) -> Result<Recipe> {
    let mut families: Vec<Family> = Vec::new();
    let mut current: Option<Draft> = None;
    let mut author: Option<String> = None;
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let code = raw.split('#').next().unwrap_or("").trim();
        if code.is_empty() {
            continue;
        }
        let mut words = code.split_whitespace();
        let keyword = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        let err = |msg: String| Error::parse(file, line, msg);
        if keyword == "family" {
            if let Some(d) = current.take() {
                families.push(d.finish(file)?);
            }
            let [fname] = args.as_slice() else {
                return Err(err(format!(
                    "expected 'family NAME', found '{}'",
                    clip(code)
                )));
            };
            let valid = fname
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c));
            if !valid {
                return Err(err(format!(
                    "family name '{}' may only use letters, digits, '_', '.', '-'",
                    clip(fname)
                )));
            }
            if let Some(f) = families.iter().find(|f| f.name == *fname) {
                return Err(err(format!(
                    "duplicate family '{fname}' (first at line {})",
                    f.line
                )));
            }
            current = Some(Draft::new(fname, line));
            continue;
        }
        if keyword == "author" && current.is_none() && families.is_empty() {
            if author.is_some() {
                return Err(err("duplicate 'author'".into()));
            }
            if args.is_empty() {
                return Err(err("expected 'author TEXT'".into()));
            }
            author = Some(args.join(" "));
            continue;
        }
        let Some(d) = current.as_mut() else {
            return Err(err(format!(
                "expected 'family NAME' before '{}'",
                clip(keyword)
            )));
        };
        if let Some(first) = d.seen.iter().find(|(k, _)| k == keyword).map(|s| s.1) {
            return Err(err(format!(
                "duplicate '{keyword}' in family {} (first at line {first})",
                d.name
            )));
        }
        match keyword {
            "piece" | "n" | "seeds" | "amo" | "generator" | "presolve" => {
                d.seen.push((keyword.to_string(), line))
            }
            _ => {
                return Err(err(format!(
                    "unknown statement '{}' (expected family, piece, n, generator, seeds, amo or presolve)",
                    clip(keyword)
                )));
            }
        }
        if args.is_empty() {
            return Err(err(format!("'{keyword}' needs a value")));
        }
        match keyword {
            "piece" => {
                let one = single(&args, keyword).map_err(err)?;
                d.pieces = if one == "all" {
                    PIECES.to_vec()
                } else {
                    one.split(',')
                        .map(|p| {
                            Piece::by_name(p).ok_or_else(|| {
                                let known: Vec<&str> = PIECES.iter().map(|p| p.name).collect();
                                err(format!(
                                    "unknown piece '{}' (known: {}, all)",
                                    clip(p),
                                    known.join(", ")
                                ))
                            })
                        })
                        .collect::<Result<_>>()?
                };
            }
            "amo" => {
                let one = single(&args, keyword).map_err(err)?;
                d.amos = if one == "all" {
                    AmoKind::ALL.to_vec()
                } else {
                    one.split(',')
                        .map(|a| {
                            AmoKind::by_name(a).ok_or_else(|| {
                                err(format!(
                                    "unknown amo '{}' (known: {}, all)",
                                    clip(a),
                                    AmoKind::names().join(", ")
                                ))
                            })
                        })
                        .collect::<Result<_>>()?
                };
            }
            "n" => {
                let one = single(&args, keyword).map_err(err)?;
                let values = int_list(one, "n").map_err(err)?;
                for &v in &values {
                    if !(1..=i64::from(crate::board::MAX_N)).contains(&v) {
                        return Err(err(format!(
                            "n = {v} is out of range (1..={})",
                            crate::board::MAX_N
                        )));
                    }
                }
                d.ns = values;
            }
            "presolve" => {
                d.presolve = match single(&args, keyword).map_err(err)? {
                    "on" => true,
                    "off" => false,
                    other => {
                        return Err(err(format!(
                            "presolve takes on or off, not '{}'",
                            clip(other)
                        )));
                    }
                };
            }
            "seeds" => {
                let one = single(&args, keyword).map_err(err)?;
                let values = int_list(one, "seeds").map_err(err)?;
                if let Some(v) = values.iter().find(|&&v| v < 0) {
                    return Err(err(format!("seed {v} is negative")));
                }
                d.seeds = values;
            }
            _ => {
                let kind = args[0];
                if !["plain", "completion", "blocked", "diagonals"].contains(&kind) {
                    return Err(err(format!(
                        "unknown generator '{}' (known: plain, completion, blocked, diagonals)",
                        clip(kind)
                    )));
                }
                d.kind = kind.to_string();
                for kv in &args[1..] {
                    let Some((k, v)) = kv.split_once('=') else {
                        return Err(err(format!(
                            "generator parameter '{}' is not key=value",
                            clip(kv)
                        )));
                    };
                    let allowed: &[&str] = match kind {
                        "completion" => &["m", "delta"],
                        "blocked" => &["m", "min-free"],
                        "diagonals" => &["min-free", "diags", "to"],
                        _ => &[],
                    };
                    if !allowed.contains(&k) {
                        return Err(err(format!(
                            "generator {kind} has no parameter '{}' (known: {})",
                            clip(k),
                            if allowed.is_empty() {
                                "none".to_string()
                            } else {
                                allowed.join(", ")
                            }
                        )));
                    }
                    if d.params.iter().any(|(pk, _)| pk == k) {
                        return Err(err(format!("generator parameter '{k}' given twice")));
                    }
                    if k == "to" {
                        if v != "completion" {
                            return Err(err(format!(
                                "to={} is not supported (known: to=completion)",
                                clip(v)
                            )));
                        }
                        d.to_completion = true;
                        continue;
                    }
                    let values = int_list(v, k).map_err(err)?;
                    if let Some(v) = values.iter().find(|&&v| v < 0) {
                        return Err(err(format!("{k} = {v} is negative")));
                    }
                    d.params.push((k.to_string(), values));
                }
                let need: &[&str] = match kind {
                    "blocked" => &["m", "min-free"],
                    "diagonals" => &["min-free"],
                    _ => &[],
                };
                for k in need {
                    if !d.params.iter().any(|(pk, _)| pk == k) {
                        return Err(err(format!("generator {kind} needs {k}=...")));
                    }
                }
                if kind == "completion" {
                    let given = d
                        .params
                        .iter()
                        .filter(|(k, _)| k == "m" || k == "delta")
                        .count();
                    if given != 1 {
                        return Err(err(
                            "generator completion needs exactly one of m=... and delta=..."
                                .to_string(),
                        ));
                    }
                }
                d.generator_line = line;
            }
        }
    }
    if let Some(d) = current.take() {
        families.push(d.finish(file)?);
    }
    if families.is_empty() {
        return Err(Error::parse_file(file, "no 'family NAME' in the recipe"));
    }
    Ok(Recipe {
        name: name.to_string(),
        families,
        author,
    })
}

/// A family while its statements are read.
struct Draft {
    name: String,
    line: usize,
    seen: Vec<(String, usize)>,
    pieces: Vec<Piece>,
    ns: Vec<i64>,
    kind: String,
    params: Vec<(String, Vec<i64>)>,
    to_completion: bool,
    generator_line: usize,
    seeds: Vec<i64>,
    amos: Vec<AmoKind>,
    presolve: bool,
}

impl Draft {
    fn new(name: &str, line: usize) -> Draft {
        Draft {
            name: name.to_string(),
            line,
            seen: Vec::new(),
            pieces: vec![crate::piece::QUEEN],
            ns: Vec::new(),
            kind: "plain".to_string(),
            params: Vec::new(),
            to_completion: false,
            generator_line: line,
            seeds: Vec::new(),
            amos: vec![AmoKind::DEFAULT],
            presolve: true,
        }
    }

    fn line_of(&self, keyword: &str) -> usize {
        self.seen
            .iter()
            .find(|(k, _)| k == keyword)
            .map_or(self.line, |s| s.1)
    }

    fn finish(self, file: &str) -> Result<Family> {
        let at = |line: usize, msg: String| Error::parse(file, line, msg);
        let fam = &self.name;
        if self.ns.is_empty() {
            return Err(at(self.line, format!("family {fam} has no 'n' statement")));
        }
        let random = self.kind != "plain";
        if random && self.seeds.is_empty() {
            return Err(at(
                self.line,
                format!(
                    "family {fam}: generator {} needs a 'seeds' statement",
                    self.kind
                ),
            ));
        }
        if !random && !self.seeds.is_empty() {
            return Err(at(
                self.line_of("seeds"),
                format!("family {fam}: the plain generator takes no seeds"),
            ));
        }
        if self.to_completion && self.pieces.iter().any(|p| p.name != "queen") {
            return Err(at(
                self.generator_line,
                format!("family {fam}: to=completion is a reduction for queens only"),
            ));
        }
        // The family parameter: at most one multi-valued list among n and the parameters.
        let mut multi: Vec<&str> = Vec::new();
        if self.ns.len() > 1 {
            multi.push("n");
        }
        for (k, v) in &self.params {
            if v.len() > 1 {
                multi.push(k);
            }
        }
        if multi.len() > 1 {
            return Err(at(
                self.generator_line.max(self.line_of("n")),
                format!(
                    "family {fam}: only one of n and the generator parameters may take several values (the family parameter); {} do",
                    multi.join(" and ")
                ),
            ));
        }
        let x_name = multi.first().copied().unwrap_or("n").to_string();
        let x_values: Vec<i64> = if x_name == "n" {
            self.ns.clone()
        } else {
            self.params
                .iter()
                .find(|(k, _)| *k == x_name)
                .map(|p| p.1.clone())
                .unwrap_or_default()
        };
        let mut members = Vec::new();
        let gl = self.generator_line;
        for &x in &x_values {
            let n = if x_name == "n" { x } else { self.ns[0] } as u32;
            let get = |k: &str| -> Option<i64> {
                self.params
                    .iter()
                    .find(|(pk, _)| pk == k)
                    .map(|(_, v)| if k == x_name { x } else { v[0] })
            };
            let to_u32 = |k: &str, v: i64| -> Result<u32> {
                u32::try_from(v).map_err(|_| at(gl, format!("{k} = {v} is too large")))
            };
            let mut params: Vec<(String, String)> = Vec::new();
            let generator = match self.kind.as_str() {
                "plain" => Generator::Plain,
                "completion" => {
                    let m = match (get("m"), get("delta")) {
                        (Some(m), _) => m,
                        (None, Some(delta)) => {
                            params.push(("delta".into(), delta.to_string()));
                            i64::from(n) - delta
                        }
                        (None, None) => unreachable!("checked when the generator was read"),
                    };
                    if m < 0 || m > i64::from(n) {
                        return Err(at(
                            gl,
                            format!("family {fam}: completion m = {m} is outside 0..=n = {n}"),
                        ));
                    }
                    params.push(("m".into(), m.to_string()));
                    Generator::Completion { m: m as u32 }
                }
                "blocked" => {
                    let m = get("m").unwrap_or(0);
                    let k = get("min-free").unwrap_or(0);
                    params.push(("m".into(), m.to_string()));
                    params.push(("min-free".into(), k.to_string()));
                    Generator::Blocked {
                        m: to_u32("m", m)?,
                        min_free: to_u32("min-free", k)?,
                    }
                }
                _ => {
                    let k = get("min-free").unwrap_or(0);
                    params.push(("min-free".into(), k.to_string()));
                    let diags = get("diags");
                    if let Some(d) = diags {
                        params.push(("diags".into(), d.to_string()));
                    }
                    if self.to_completion {
                        params.push(("to".into(), "completion".into()));
                    }
                    Generator::Diagonals {
                        min_free: to_u32("min-free", k)?,
                        diags: diags.map(|d| d as usize),
                        to_completion: self.to_completion,
                    }
                }
            };
            members.push(Member {
                n,
                generator,
                params,
                x,
            });
        }
        Ok(Family {
            name: self.name,
            line: self.line,
            pieces: self.pieces,
            x_name,
            members,
            seeds: if random {
                self.seeds.iter().map(|&s| Some(s as u64)).collect()
            } else {
                vec![None]
            },
            amos: self.amos,
            presolve: self.presolve,
        })
    }
}

fn single<'a>(args: &[&'a str], keyword: &str) -> std::result::Result<&'a str, String> {
    match args {
        [one] => Ok(one),
        _ => Err(format!(
            "'{keyword}' takes one value without spaces, found '{}'",
            clip(&args.join(" "))
        )),
    }
}

/// Parses an integer list: comma-separated `A`, `A..B` or `A..B:S`.
///
/// ```
/// use queens_sat::suite::recipe::int_list;
/// assert_eq!(int_list("1,4..10:3,20", "n").unwrap(), vec![1, 4, 7, 10, 20]);
/// assert!(int_list("5..1", "n").is_err());
/// ```
pub fn int_list(text: &str, what: &str) -> std::result::Result<Vec<i64>, String> {
    let mut out: Vec<i64> = Vec::new();
    for item in text.split(',') {
        let bad = |why: &str| format!("{what}: bad list item '{}' ({why})", clip(item));
        let int = |s: &str| s.trim().parse::<i64>().map_err(|_| bad("not an integer"));
        let (range, step) = match item.split_once(':') {
            Some((r, s)) => (r, Some(int(s)?)),
            None => (item, None),
        };
        match range.split_once("..") {
            Some((a, b)) => {
                let (a, b) = (int(a)?, int(b)?);
                let step = step.unwrap_or(1);
                if step < 1 {
                    return Err(bad("the step must be at least 1"));
                }
                if a > b {
                    return Err(bad("the range is empty"));
                }
                if (b - a) / step >= MAX_LIST as i64 {
                    return Err(bad(&format!("more than {MAX_LIST} values")));
                }
                let mut v = a;
                while v <= b {
                    out.push(v);
                    v += step;
                }
            }
            None => {
                if step.is_some() {
                    return Err(bad("a step needs a range A..B:S"));
                }
                out.push(int(range)?);
            }
        }
        if out.len() > MAX_LIST {
            return Err(format!("{what}: more than {MAX_LIST} values"));
        }
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = out.iter().find(|v| !seen.insert(**v)) {
        return Err(format!("{what}: value {dup} is listed twice"));
    }
    Ok(out)
}
#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Recipe {
        parse("r.suite", "r", text).unwrap()
    }

    fn err(text: &str) -> String {
        parse("r.suite", "r", text).unwrap_err().to_string()
    }

    #[test]
    fn author_before_the_first_family() {
        let r = ok("author Ada Lovelace, Analytical Engines\nfamily a\nn 4\n");
        assert_eq!(
            r.author.as_deref(),
            Some("Ada Lovelace, Analytical Engines")
        );
        assert_eq!(ok("family a\nn 4\n").author, None);
        assert!(err("family a\nn 4\nauthor X\n").contains("unknown statement 'author'"));
        assert!(err("author A\nauthor B\nfamily a\nn 4\n").contains("duplicate 'author'"));
    }

    #[test]
    fn families_and_defaults() {
        let r = ok(
            "# header\nfamily a\nn 4..8:2  # sides\n\nfamily b\npiece all\nn 10\n\
                    generator blocked m=5..15:5 min-free=2\nseeds 1,2\namo all\n",
        );
        assert_eq!(r.families.len(), 2);
        let a = &r.families[0];
        assert_eq!((a.name.as_str(), a.line, a.x_name.as_str()), ("a", 2, "n"));
        assert_eq!(
            a.members.iter().map(|m| m.n).collect::<Vec<_>>(),
            vec![4, 6, 8]
        );
        assert_eq!(a.seeds, vec![None]);
        assert_eq!(a.amos, vec![AmoKind::Auto]);
        assert_eq!(a.pieces.len(), 1);
        let b = &r.families[1];
        assert_eq!(b.x_name, "m");
        assert_eq!(b.pieces.len(), PIECES.len());
        assert_eq!(b.amos, AmoKind::ALL.to_vec());
        assert_eq!(b.seeds, vec![Some(1), Some(2)]);
        assert_eq!(
            b.members[1].generator,
            Generator::Blocked { m: 10, min_free: 2 }
        );
        assert_eq!(b.members[1].params_field(), "m=10 min-free=2");
        assert_eq!(b.members[1].name_part(), "-m10-k2");
    }

    #[test]
    fn completion_delta_and_diagonals() {
        let r = ok("family d5\nn 5..9\ngenerator completion delta=5\nseeds 1\n\
                    family hard\nn 10\ngenerator diagonals min-free=1 diags=8..10 to=completion\nseeds 3\n");
        let d5 = &r.families[0];
        assert_eq!(d5.members[2].generator, Generator::Completion { m: 2 });
        assert_eq!(d5.members[2].params_field(), "delta=5 m=2");
        assert_eq!(d5.members[2].name_part(), "-delta5");
        let hard = &r.families[1];
        assert_eq!(hard.x_name, "diags");
        assert_eq!(
            hard.members[0].generator,
            Generator::Diagonals {
                min_free: 1,
                diags: Some(8),
                to_completion: true
            }
        );
        assert_eq!(hard.members[0].name_part(), "-k1-diags8-completion");
    }

    #[test]
    fn errors_name_file_line_and_value() {
        assert_eq!(err("n 5\n"), "r.suite:1: expected 'family NAME' before 'n'");
        assert_eq!(
            err("family a\nn 4\nsize 3\n"),
            "r.suite:3: unknown statement 'size' (expected family, piece, n, generator, seeds, amo or presolve)"
        );
        assert_eq!(
            err("family a\nn 4\nn 5\n"),
            "r.suite:3: duplicate 'n' in family a (first at line 2)"
        );
        assert_eq!(
            err("family a\n"),
            "r.suite:1: family a has no 'n' statement"
        );
        assert!(err("family a\nn 4..x\n").starts_with("r.suite:2: n: bad list item '4..x'"));
        assert!(err("family a\nn 0\n").contains("n = 0 is out of range"));
        assert!(err("family a\nn 4\namo magic\n").contains("r.suite:3: unknown amo 'magic'"));
        assert!(err("family a\nn 4\npiece rook\n").contains("unknown piece 'rook'"));
        assert!(err("family a\nn 4\ngenerator wild\n").contains("unknown generator 'wild'"));
        assert!(err("family a\nn 4\ngenerator blocked m=3\n").contains("needs min-free=..."));
        assert!(err("family a\nn 4\ngenerator blocked m=3 k=1\n").contains("no parameter 'k'"));
        assert!(err("family a\nn 4\ngenerator completion m=1\n").contains("needs a 'seeds'"));
        assert!(
            err("family a\nn 4\nseeds 1\n")
                .contains("r.suite:3: family a: the plain generator takes no seeds")
        );
        assert!(
            err("family a\nn 4..6\ngenerator completion m=1..2\nseeds 1\n").contains("n and m do")
        );
        assert!(
            err("family a\nn 4\ngenerator completion m=5\nseeds 1\n")
                .contains("m = 5 is outside 0..=n = 4")
        );
        assert!(
            err("family a\npiece amazon\nn 4\ngenerator diagonals min-free=1 to=completion\nseeds 1\n")
                .contains("queens only")
        );
        assert!(err("family a b\n").contains("expected 'family NAME'"));
        assert!(err("family a/b\n").contains("may only use"));
        assert!(err("family a\nn 4\nfamily a\nn 5\n").contains("r.suite:3: duplicate family 'a'"));
        assert!(err("family a\nn 4,4\n").contains("value 4 is listed twice"));
        assert!(err("family a\nn 1..1000000000\n").contains("more than"));
        assert_eq!(
            err("# nothing\n"),
            "r.suite: no 'family NAME' in the recipe"
        );
    }
}
