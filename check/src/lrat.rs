//! An LRAT checker (RUP steps with hints; Cruz-Filipe, Heule, Hunt, Kaufmann, Schneider-Kamp,
//! "Efficient certified RAT verification", CADE 2017), for the proofs the bitboard search
//! of `queens-sat` writes under `--certify` (`queens_sat::solve::bitboard::proof`).
//!
//! Each added clause names, in order, the clauses that become unit (or false) once the clause's
//! literals are all false: checking a step walks its hints once, with no propagation search, so
//! checking costs about as much as reading the proof. The checker shares no code with the
//! search that writes the proof: it reads the formula's clauses and the steps, nothing else.
//! RAT steps (negative hints) are refused: the proofs checked here never need them.
//!
//! Steps travel in memory as [`Steps`] (a flat run of words, so a long proof is not millions of
//! small allocations), and are written as standard text LRAT ([`Steps::write_text`]), which
//! any LRAT checker (cake_lpr, lrat-check) reads against the formula's DIMACS file.

use crate::error::{Error, Format, Result};
use crate::ids::IdMap;

const ADD: i64 = 1;
const DELETE: i64 = 2;

/// A run of LRAT steps, as a flat list of words: `1 id |lits| lits.. |hints| hints..` for an
/// added clause, `2 |ids| ids..` for a deletion.
#[derive(Clone, Debug, Default)]
pub struct Steps {
    words: Vec<i64>,
    /// The id of the last clause added before the run.
    base_id: u64,
    /// The id of the last clause added so far.
    last_id: u64,
}

impl Steps {
    /// No steps.
    pub fn new() -> Steps {
        Steps::default()
    }

    /// Adds the clause `lits` (DIMACS literals) with the id `id`, justified by the clauses
    /// `hints`, in order.
    pub fn add(&mut self, id: u64, lits: &[i32], hints: &[u64]) {
        self.words.reserve(4 + lits.len() + hints.len());
        self.words.extend([ADD, id as i64, lits.len() as i64]);
        self.words.extend(lits.iter().map(|&l| i64::from(l)));
        self.words.push(hints.len() as i64);
        self.words.extend(hints.iter().map(|&h| h as i64));
        self.last_id = id;
    }

    /// Reads a text LRAT proof (`ID LITS 0 HINTS 0` and `ID d IDS 0` lines; a RAT hint, a
    /// negative id, is kept and refused by the checker). `source` names the text in errors.
    pub fn parse_text(text: &str, source: &str) -> Result<Steps> {
        let mut steps = Steps::new();
        for (i, line) in text.lines().enumerate() {
            steps.parse_line(line, source, i + 1)?;
        }
        Ok(steps)
    }

    /// Reads one line of a text LRAT proof (line `number` of `source`, for errors) into the
    /// steps; a blank line adds nothing.
    pub fn parse_line(&mut self, line: &str, source: &str, number: usize) -> Result<()> {
        let bad = |what: &str| Error::parse(source, number, what.to_string());
        let mut words = line.split_whitespace();
        let Some(id) = words.next() else {
            return Ok(());
        };
        let id: u64 = id.parse().map_err(|_| bad("not an LRAT line"))?;
        let mut rest: Vec<&str> = words.collect();
        if rest.first() == Some(&"d") {
            rest.remove(0);
            let ids = rest
                .iter()
                .take_while(|w| **w != "0")
                .map(|w| w.parse::<u64>().map_err(|_| bad("bad clause id")))
                .collect::<Result<Vec<_>>>()?;
            self.delete(&ids);
            return Ok(());
        }
        let split = rest
            .iter()
            .position(|w| *w == "0")
            .ok_or_else(|| bad("a clause without its 0"))?;
        let lits = rest[..split]
            .iter()
            .map(|w| w.parse::<i32>().map_err(|_| bad("bad literal")))
            .collect::<Result<Vec<_>>>()?;
        let hints = rest[split + 1..]
            .iter()
            .take_while(|w| **w != "0")
            .map(|w| w.parse::<i64>().map_err(|_| bad("bad hint")))
            .collect::<Result<Vec<_>>>()?;
        if hints.iter().any(|&h| h <= 0) {
            return Err(bad("a RAT hint (the checker takes RUP steps only)"));
        }
        let hints: Vec<u64> = hints.into_iter().map(|h| h as u64).collect();
        self.add(id, &lits, &hints);
        Ok(())
    }

    /// Deletes the clauses `ids`.
    pub fn delete(&mut self, ids: &[u64]) {
        if ids.is_empty() {
            return;
        }
        self.words.extend([DELETE, ids.len() as i64]);
        self.words.extend(ids.iter().map(|&h| h as i64));
    }

    /// The words held (a measure of the run's size).
    pub fn words(&self) -> usize {
        self.words.len()
    }

    /// Whether no step is held.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Writes the steps as text LRAT: `id lits 0 hints 0` per added clause, `id d ids 0` per
    /// deletion (the leading id of a deletion is the last id added, as LRAT checkers expect).
    pub fn write_text(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut line = String::with_capacity(256);
        let mut last = self.base_id;
        let mut w = self.words.iter().copied();
        use std::fmt::Write as _;
        while let Some(tag) = w.next() {
            line.clear();
            if tag == ADD {
                let id = w.next().unwrap_or(0);
                last = id as u64;
                let _ = write!(line, "{id}");
                for _ in 0..w.next().unwrap_or(0) {
                    let _ = write!(line, " {}", w.next().unwrap_or(0));
                }
                line.push_str(" 0");
                for _ in 0..w.next().unwrap_or(0) {
                    let _ = write!(line, " {}", w.next().unwrap_or(0));
                }
                line.push_str(" 0\n");
            } else {
                let _ = write!(line, "{last} d");
                for _ in 0..w.next().unwrap_or(0) {
                    let _ = write!(line, " {}", w.next().unwrap_or(0));
                }
                line.push_str(" 0\n");
            }
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// An empty run that goes on after `prev` (its deletions name `prev`'s last id until a
    /// clause is added).
    pub fn starting_after(prev: &Steps) -> Steps {
        Steps {
            words: Vec::with_capacity(prev.words.capacity()),
            base_id: prev.last_id,
            last_id: prev.last_id,
        }
    }

    /// Appends the steps of `other`.
    pub fn append(&mut self, other: &Steps) {
        self.words.extend_from_slice(&other.words);
        self.last_id = other.last_id;
    }

    /// The steps unpacked, one [`Step`] each: for tests that corrupt a proof, and for handing
    /// the lemmas to another checker.
    pub fn decode(&self) -> Vec<Step> {
        let mut out = Vec::new();
        let mut w = self.words.iter().copied();
        while let Some(tag) = w.next() {
            let take = |w: &mut dyn Iterator<Item = i64>| -> Vec<i64> {
                let k = w.next().unwrap_or(0);
                (0..k).map(|_| w.next().unwrap_or(0)).collect()
            };
            if tag == ADD {
                let id = w.next().unwrap_or(0) as u64;
                let lits = take(&mut w).into_iter().map(|l| l as i32).collect();
                let hints = take(&mut w).into_iter().map(|h| h as u64).collect();
                out.push(Step::Add { id, lits, hints });
            } else {
                out.push(Step::Delete(
                    take(&mut w).into_iter().map(|h| h as u64).collect(),
                ));
            }
        }
        out
    }

    /// The steps `steps` as a run (the inverse of [`Steps::decode`]).
    pub fn encode(steps: &[Step]) -> Steps {
        let mut out = Steps::new();
        for s in steps {
            match s {
                Step::Add { id, lits, hints } => out.add(*id, lits, hints),
                Step::Delete(ids) => out.delete(ids),
            }
        }
        out
    }
}

/// One LRAT step, unpacked ([`Steps::decode`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The clause `lits` added as `id`, justified by `hints`.
    Add {
        /// The new clause's id.
        id: u64,
        /// Its DIMACS literals.
        lits: Vec<i32>,
        /// The clauses that become unit, in order, then false.
        hints: Vec<u64>,
    },
    /// The clauses deleted.
    Delete(Vec<u64>),
}

/// Checks LRAT steps against a formula ([`Lrat::check`]) until the empty clause is derived.
pub struct Lrat {
    num_vars: u32,
    /// The formula's clauses (ids `1..=m`), flat: clause i is `lits[start[i - 1]..start[i]]`,
    /// while `alive[i - 1]`.
    start: Vec<usize>,
    lits: Vec<i32>,
    alive: Vec<bool>,
    /// The live clauses added by the proof, by id.
    clauses: IdMap<Box<[i32]>>,
    /// Per variable: 0 unassigned, 1 true, -1 false.
    value: Vec<i8>,
    trail: Vec<u32>,
    /// The highest id in use: a new clause must have a higher one.
    top: u64,
    steps: u64,
    refuted: bool,
}

impl Lrat {
    /// A checker for the formula `clauses` (DIMACS literals over variables `1..=num_vars`; the
    /// i-th clause has id i + 1).
    pub fn new(num_vars: u32, clauses: impl IntoIterator<Item = Vec<i32>>) -> Result<Lrat> {
        let mut top = 0u64;
        let mut refuted = false;
        let (mut start, mut lits) = (vec![0], Vec::new());
        for c in clauses {
            top += 1;
            if let Some(&l) = c.iter().find(|l| l.unsigned_abs() > num_vars || **l == 0) {
                return Err(Error::Invalid(format!(
                    "formula clause {top}: literal {l} is not a variable of 1..={num_vars}"
                )));
            }
            refuted |= c.is_empty();
            lits.extend_from_slice(&c);
            start.push(lits.len());
        }
        Ok(Lrat {
            num_vars,
            alive: vec![true; start.len() - 1],
            start,
            lits,
            clauses: IdMap::default(),
            value: vec![0; num_vars as usize + 1],
            trail: Vec::new(),
            top,
            steps: 0,
            refuted,
        })
    }

    /// Whether the empty clause has been derived (or was in the formula).
    pub fn refuted(&self) -> bool {
        self.refuted
    }

    /// Steps checked so far (added clauses).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Checks the text LRAT proof that `reader` gives (`source` names it in errors), after the
    /// steps checked before, reading it in chunks so that a proof larger than memory checks in
    /// bounded memory. `stop` is asked between chunks: `Ok(false)` when it said stop before the
    /// end, `Ok(true)` when the whole proof was read and every step checked.
    pub fn check_reader(
        &mut self,
        mut reader: impl std::io::BufRead,
        source: &str,
        stop: &dyn Fn() -> bool,
    ) -> Result<bool> {
        /// Proof words checked at a time.
        const CHUNK_WORDS: usize = 1 << 20;
        let mut steps = Steps::new();
        let mut line = String::new();
        let mut number = 0;
        loop {
            line.clear();
            let read = reader
                .read_line(&mut line)
                .map_err(|e| Error::io(source, e))?;
            if read > 0 {
                number += 1;
                steps.parse_line(&line, source, number)?;
            }
            if read == 0 || steps.words() >= CHUNK_WORDS {
                self.check(&steps)?;
                steps = Steps::starting_after(&steps);
                if read == 0 {
                    return Ok(true);
                }
                if stop() {
                    return Ok(false);
                }
            }
        }
    }

    /// Checks the steps `run`, after those checked before. A step that does not check is an
    /// error naming it; nothing after it is read.
    pub fn check(&mut self, run: &Steps) -> Result<()> {
        let w = &run.words;
        let mut at = 0;
        let word = |at: usize| -> Result<i64> {
            w.get(at).copied().ok_or_else(|| {
                Error::rejected(Format::Lrat, None, "the LRAT proof ends inside a step")
            })
        };
        while at < w.len() {
            let tag = w[at];
            if tag == DELETE {
                let k = word(at + 1)? as usize;
                for j in 0..k {
                    let id = word(at + 2 + j)? as u64;
                    let formula = (id as usize).wrapping_sub(1) < self.alive.len();
                    if formula && self.alive[id as usize - 1] {
                        self.alive[id as usize - 1] = false;
                    } else if formula || self.clauses.remove(&id).is_none() {
                        return Err(self.fail(id, "deletes a clause that is not there"));
                    }
                }
                at += 2 + k;
                continue;
            }
            if tag != ADD {
                return Err(Error::rejected(
                    Format::Lrat,
                    None,
                    format!("LRAT step word {tag} is not a step"),
                ));
            }
            let id = word(at + 1)? as u64;
            let nl = usize::try_from(word(at + 2)?).unwrap_or(usize::MAX);
            let lits_at = at + 3;
            let nh = usize::try_from(word(lits_at + nl)?).unwrap_or(usize::MAX);
            let hints_at = lits_at + nl + 1;
            if hints_at.saturating_add(nh) > w.len() {
                return Err(Error::rejected(
                    Format::Lrat,
                    None,
                    "the LRAT proof ends inside a step",
                ));
            }
            if id <= self.top {
                return Err(self.fail(id, "reuses an id (ids must increase)"));
            }
            let lits: Box<[i32]> = w[lits_at..lits_at + nl].iter().map(|&l| l as i32).collect();
            let ok = self.rup(&lits, &w[hints_at..hints_at + nh]);
            self.undo();
            ok.map_err(|why| self.fail(id, &why))?;
            self.steps += 1;
            self.top = id;
            self.refuted |= lits.is_empty();
            self.clauses.insert(id, lits);
            at = hints_at + nh;
        }
        Ok(())
    }

    fn fail(&self, id: u64, why: &str) -> Error {
        Error::rejected(
            Format::Lrat,
            Some(self.steps + 1),
            format!(
                "the LRAT proof does not check: step {} (clause {id}) {why}",
                self.steps + 1
            ),
        )
    }

    fn assign(&mut self, lit: i32) {
        let v = lit.unsigned_abs();
        self.value[v as usize] = if lit > 0 { 1 } else { -1 };
        self.trail.push(v);
    }

    fn undo(&mut self) {
        for v in self.trail.drain(..) {
            self.value[v as usize] = 0;
        }
    }

    /// The value of `lit`: 1 true, -1 false, 0 unassigned.
    fn val(&self, lit: i32) -> i8 {
        let v = self.value[lit.unsigned_abs() as usize];
        if lit > 0 { v } else { -v }
    }

    /// Whether `lits` follows by unit propagation along `hints` (a reason when not).
    fn rup(&mut self, lits: &[i32], hints: &[i64]) -> std::result::Result<(), String> {
        for &l in lits {
            if l == 0 || l.unsigned_abs() > self.num_vars {
                return Err(format!("has literal {l}, not a variable of the formula"));
            }
            match self.val(l) {
                // A tautology (both `l` and `-l`): true whatever the assignment.
                1 => return Ok(()),
                // A repeated literal.
                -1 => {}
                _ => self.assign(-l),
            }
        }
        for &h in hints {
            if h <= 0 {
                return Err(format!("has hint {h}: RAT steps are not accepted"));
            }
            let i = h as usize - 1;
            let c: &[i32] = match self.alive.get(i) {
                Some(true) => Some(&self.lits[self.start[i]..self.start[i + 1]]),
                Some(false) => None,
                None => self.clauses.get(&(h as u64)).map(|c| &c[..]),
            }
            .ok_or_else(|| format!("names clause {h}, which is not there"))?;
            let mut unit = 0;
            for &l in c.iter() {
                match self.val(l) {
                    -1 => {}
                    1 => return Err(format!("names clause {h}, which is already true")),
                    _ if unit == 0 || unit == l => unit = l,
                    _ => return Err(format!("names clause {h}, which is not unit")),
                }
            }
            if unit == 0 {
                return Ok(());
            }
            self.assign(unit);
        }
        Err("does not end in a conflict".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (x1 or x2), (x1 or -x2), (-x1 or x2), (-x1 or -x2).
    fn four() -> Lrat {
        Lrat::new(2, vec![vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]]).unwrap()
    }

    #[test]
    fn accepts_a_refutation_and_writes_text() {
        let mut run = Steps::new();
        run.add(5, &[1], &[1, 2]);
        run.delete(&[1, 2]);
        run.add(6, &[], &[5, 3, 4]);
        let mut c = four();
        c.check(&run).unwrap();
        assert!(c.refuted());
        assert_eq!(c.steps(), 2);
        let mut text = Vec::new();
        run.write_text(&mut text).unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            "5 1 0 1 2 0\n5 d 1 2 0\n6 0 5 3 4 0\n"
        );
        assert_eq!(Steps::encode(&run.decode()).words, run.words);
    }

    /// An added clause, for the test tables.
    fn add(id: u64, lits: &[i32], hints: &[u64]) -> Step {
        Step::Add {
            id,
            lits: lits.to_vec(),
            hints: hints.to_vec(),
        }
    }

    #[test]
    fn refuses_wrong_steps() {
        let cases: Vec<(Vec<Step>, &str)> = vec![
            // Hints that stop short of a conflict; a hint that is not unit.
            (vec![add(5, &[1], &[1])], "does not end in a conflict"),
            (vec![add(5, &[], &[1])], "not unit"),
            // A deleted clause used as a hint; an id used twice.
            (
                vec![Step::Delete(vec![2]), add(5, &[1], &[1, 2])],
                "not there",
            ),
            (vec![add(3, &[1], &[1, 2])], "reuses an id"),
            // A RAT hint; a literal outside the formula.
            (vec![add(5, &[1], &[1, 0])], "RAT"),
            (vec![add(5, &[3], &[1])], "not a variable"),
        ];
        for (steps, want) in cases {
            let err = four()
                .check(&Steps::encode(&steps))
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "{steps:?}: {err}");
        }
        // A proof that checks but does not reach the empty clause is not a refutation.
        let mut c = four();
        let mut run = Steps::new();
        run.add(5, &[1], &[1, 2]);
        c.check(&run).unwrap();
        assert!(!c.refuted());
    }
}
