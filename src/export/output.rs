//! Parsing a DIMACS solver's answer.
//!
//! Two conventions are recognised automatically:
//!
//! * **SAT competition** (cadical, picosat, cryptominisat, kissat, ...): `c` comment lines, one
//!   `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN` line, and for SAT a model given on any
//!   number of `v` lines (before or after the `s` line) terminated by the literal `0`. Other lines
//!   starting with a letter are tolerated as chatter, but only when a valid `s` line is present.
//! * **minisat result file** (`minisat in.cnf out.txt`): a first line `SAT`, `UNSAT` or `INDET`,
//!   then for SAT the model as literals ending in `0`.
//!
//! The parser is strict about everything that carries meaning: a bad literal, a literal out of
//! range, a model not terminated by `0`, contradictory literals, disagreeing `s` lines, SAT
//! without a model and output without any verdict are all errors naming the source, the line and
//! the offending value. It never panics and allocates at most `O(num_vars)` besides the input.

use crate::answer::{Answer, Model};
use crate::error::{Error, Result};

/// The reason carried by [`Answer::Unknown`] when a solver says UNKNOWN / INDET.
const UNKNOWN_REASON: &str = "solver answered UNKNOWN";

/// Longest excerpt of offending input quoted in an error message.
const MAX_QUOTE_CHARS: usize = 60;

/// Parses a solver's answer `text` for a formula over `num_vars` variables.
///
/// `source` names the text in error messages (for example `"cadical output"`). The convention
/// (SAT-competition `s`/`v` lines or a minisat result file) is detected from the first line that
/// is neither empty nor a `c` comment: `SAT`, `UNSAT` or `INDET` means a minisat result file.
///
/// Variables the model does not mention are false (partial models are legal). `s UNKNOWN` and
/// `INDET` give `Answer::Unknown("solver answered UNKNOWN")`.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn parse_output(source: &str, text: &str, num_vars: usize) -> Result<Answer> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('c'));
    match first {
        Some("SAT" | "UNSAT" | "INDET") => parse_result_file(source, text, num_vars),
        _ => parse_competition(source, text, num_vars),
    }
}

/// Like [`parse_output`], for raw bytes: invalid UTF-8 is a parse error naming its line.
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn parse_output_bytes(source: &str, bytes: &[u8], num_vars: usize) -> Result<Answer> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_output(source, text, num_vars),
        Err(e) => {
            let valid = e.valid_up_to();
            let line = 1 + bytes[..valid].iter().filter(|&&b| b == b'\n').count();
            Err(Error::parse(
                source,
                line,
                format!("invalid UTF-8 at byte offset {valid}"),
            ))
        }
    }
}

/// Reads and parses a solver's answer file (see [`parse_output`]); the file's path names it in
/// error messages. A read failure is [`Error::Io`]; invalid UTF-8 is a parse error.
#[cfg(test)]
pub(crate) fn parse_output_file(path: &std::path::Path, num_vars: usize) -> Result<Answer> {
    let source = crate::compress::input_name(path);
    let bytes = crate::compress::read(path)?;
    parse_output_bytes(&source, &bytes, num_vars)
}

/// The word of an `s` line for an answer (its witness still to be read from the `v` lines).
fn s_word(verdict: &Answer<()>) -> &'static str {
    match verdict {
        Answer::Sat(()) => "SATISFIABLE",
        Answer::Unsat => "UNSATISFIABLE",
        Answer::Unknown(_) => "UNKNOWN",
    }
}

fn parse_competition(source: &str, text: &str, num_vars: usize) -> Result<Answer> {
    let mut verdict: Option<(Answer<()>, usize)> = None;
    let mut first_chatter: Option<(usize, &str)> = None;
    let mut first_v_line: Option<usize> = None;
    let mut model = ModelBuilder::new(source, num_vars);

    for (idx, raw) in text.lines().enumerate() {
        let line_no = idx + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let mut tokens = line.split_whitespace();
        match tokens.next() {
            Some("s") => {
                // "s" is one byte, so slicing after it is on a char boundary.
                let status = line[1..].trim();
                let this = match status {
                    "SATISFIABLE" => Answer::Sat(()),
                    "UNSATISFIABLE" => Answer::Unsat,
                    "UNKNOWN" => Answer::Unknown(UNKNOWN_REASON.to_string()),
                    other => {
                        return Err(Error::parse(
                            source,
                            line_no,
                            format!(
                                "unrecognised status {} (expected SATISFIABLE, UNSATISFIABLE or UNKNOWN)",
                                quote(other)
                            ),
                        ));
                    }
                };
                match &verdict {
                    Some((prev, prev_line)) if *prev != this => {
                        return Err(Error::parse(
                            source,
                            line_no,
                            format!(
                                "'s {}' contradicts 's {}' on line {prev_line}",
                                s_word(&this),
                                s_word(prev)
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => verdict = Some((this, line_no)),
                }
            }
            Some("v") => {
                first_v_line.get_or_insert(line_no);
                for token in tokens {
                    model.feed(line_no, token)?;
                }
            }
            Some(_) if line.starts_with(|c: char| c.is_ascii_alphabetic()) => {
                first_chatter.get_or_insert((line_no, line));
            }
            _ => {
                return Err(Error::parse(
                    source,
                    line_no,
                    format!(
                        "unexpected line {} (expected a 'c', 's' or 'v' line)",
                        quote(line)
                    ),
                ));
            }
        }
    }

    let Some((verdict, verdict_line)) = verdict else {
        return Err(match first_chatter {
            Some((line_no, line)) => Error::parse(
                source,
                line_no,
                format!(
                    "no verdict: expected an 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN' line, found {}",
                    quote(line)
                ),
            ),
            None => Error::parse_file(
                source,
                "no verdict: no 's SATISFIABLE', 's UNSATISFIABLE' or 's UNKNOWN' line",
            ),
        });
    };

    match verdict {
        Answer::Sat(()) => {
            if first_v_line.is_none() {
                return Err(Error::parse(
                    source,
                    verdict_line,
                    "'s SATISFIABLE' without a model (no 'v' lines)",
                ));
            }
            model.finish().map(Answer::Sat)
        }
        Answer::Unsat => match first_v_line {
            Some(line_no) => Err(Error::parse(
                source,
                line_no,
                format!("'v' line in an answer that says 's UNSATISFIABLE' (line {verdict_line})"),
            )),
            None => Ok(Answer::Unsat),
        },
        Answer::Unknown(why) => Ok(Answer::Unknown(why)),
    }
}

fn parse_result_file(source: &str, text: &str, num_vars: usize) -> Result<Answer> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    // The caller found the verdict line; skip the blank and comment lines before it.
    let Some((verdict_line, verdict)) = lines.find(|(_, l)| !l.is_empty() && !l.starts_with('c'))
    else {
        return Err(Error::parse_file(source, "no verdict"));
    };
    let mut rest = lines.filter(|(_, l)| !l.is_empty());

    match verdict {
        "SAT" => {
            let mut model = ModelBuilder::new(source, num_vars);
            let mut any = false;
            for (line_no, line) in rest {
                any = true;
                for token in line.split_whitespace() {
                    model.feed(line_no, token)?;
                }
            }
            if !any {
                return Err(Error::parse(
                    source,
                    verdict_line,
                    "'SAT' without a model line",
                ));
            }
            model.finish().map(Answer::Sat)
        }
        "UNSAT" | "INDET" => match rest.next() {
            Some((line_no, line)) => Err(Error::parse(
                source,
                line_no,
                format!("unexpected {} after '{verdict}'", quote(line)),
            )),
            None if verdict == "UNSAT" => Ok(Answer::Unsat),
            None => Ok(Answer::Unknown(UNKNOWN_REASON.to_string())),
        },
        other => Err(Error::parse(
            source,
            verdict_line,
            format!(
                "unrecognised verdict {} (expected SAT, UNSAT or INDET)",
                quote(other)
            ),
        )),
    }
}

/// Collects a model's literals, checking syntax, range, contradictions and the final `0`.
struct ModelBuilder<'a> {
    source: &'a str,
    num_vars: usize,
    /// Per variable: 0 unset, 1 true, 2 false. Allocated at the first in-range literal.
    state: Vec<u8>,
    /// Line of the terminating `0`, once seen.
    terminated_at: Option<usize>,
    /// Line of the last literal read, for the "not terminated" message.
    last_line: usize,
}

impl<'a> ModelBuilder<'a> {
    fn new(source: &'a str, num_vars: usize) -> Self {
        ModelBuilder {
            source,
            num_vars,
            state: Vec::new(),
            terminated_at: None,
            last_line: 0,
        }
    }

    fn feed(&mut self, line_no: usize, token: &str) -> Result<()> {
        self.last_line = line_no;
        if let Some(at) = self.terminated_at {
            return Err(Error::parse(
                self.source,
                line_no,
                format!(
                    "literal {} after the model's terminating 0 (line {at})",
                    quote(token)
                ),
            ));
        }
        let Some((positive, magnitude)) = parse_literal(token) else {
            return Err(Error::parse(
                self.source,
                line_no,
                format!("invalid literal {} (expected an integer)", quote(token)),
            ));
        };
        let var = match magnitude {
            Some(0) => {
                self.terminated_at = Some(line_no);
                return Ok(());
            }
            Some(m) if m <= self.num_vars as u64 && m <= u64::from(u32::MAX) => m as u32,
            _ => {
                return Err(Error::parse(
                    self.source,
                    line_no,
                    format!(
                        "literal {} out of range: the formula has {} variable{}",
                        quote(token),
                        self.num_vars,
                        if self.num_vars == 1 { "" } else { "s" }
                    ),
                ));
            }
        };
        if self.state.is_empty() {
            self.state = vec![0; self.num_vars];
        }
        let want = if positive { 1 } else { 2 };
        let slot = &mut self.state[var as usize - 1];
        if *slot != 0 && *slot != want {
            return Err(Error::parse(
                self.source,
                line_no,
                format!("contradictory literals {var} and -{var} in the model"),
            ));
        }
        *slot = want;
        Ok(())
    }

    fn finish(self) -> Result<Model> {
        if self.terminated_at.is_none() {
            return Err(Error::parse(
                self.source,
                self.last_line,
                "model not terminated by 0 (output truncated?)",
            ));
        }
        let mut model = Model::new(self.num_vars);
        for (i, &s) in self.state.iter().enumerate() {
            if s == 1 {
                // In range: `state` only exists when every index fits in u32 (checked in feed).
                model.set(i as u32 + 1, true);
            }
        }
        Ok(model)
    }
}

/// Parses `-?[0-9]+`: `Some((positive, magnitude))`, the magnitude `None` when it overflows u64;
/// `None` when the token is not an integer.
fn parse_literal(token: &str) -> Option<(bool, Option<u64>)> {
    let (positive, digits) = match token.strip_prefix('-') {
        Some(rest) => (false, rest),
        None => (true, token),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = digits.bytes().try_fold(0u64, |acc, b| {
        acc.checked_mul(10)?.checked_add(u64::from(b - b'0'))
    });
    Some((positive, magnitude))
}

/// `'text'`, escaped onto one line and shortened to [`MAX_QUOTE_CHARS`] characters.
fn quote(text: &str) -> String {
    let mut out = String::from("'");
    let mut chars = text.chars();
    for c in chars.by_ref().take(MAX_QUOTE_CHARS) {
        out.extend(c.escape_debug());
    }
    if chars.next().is_some() {
        out.push_str("...");
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sat(num_vars: usize, true_vars: &[u32]) -> Answer {
        Answer::Sat(Model::from_true_vars(num_vars, true_vars.iter().copied()))
    }

    /// Parses and returns the error's message, asserting it is a parse error.
    fn parse_err(text: &str, num_vars: usize) -> (Option<usize>, String) {
        match parse_output("out", text, num_vars) {
            Err(Error::Parse { file, line, msg }) => {
                assert_eq!(file, "out");
                (line, msg)
            }
            other => panic!("expected a parse error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn competition_wrapped_v_lines_after_s_line() {
        let text = "c cadical\nc more\ns SATISFIABLE\nv 1 -2\nv 3\nv -4 5 0\nc done\n";
        assert_eq!(parse_output("out", text, 5).unwrap(), sat(5, &[1, 3, 5]));
    }

    #[test]
    fn competition_v_lines_before_s_line() {
        let text = "v -1 2\nv 3 0\ns SATISFIABLE\n";
        assert_eq!(parse_output("out", text, 3).unwrap(), sat(3, &[2, 3]));
    }

    #[test]
    fn competition_tolerates_chatter_crlf_and_tabs_with_verdict() {
        let text =
            "c comment\r\nParsing done\r\ns\tSATISFIABLE\r\nv\t1  -2\t0\r\nTotal time: 0.1s\r\n";
        assert_eq!(parse_output("out", text, 2).unwrap(), sat(2, &[1]));
    }

    #[test]
    fn partial_model_leaves_missing_variables_false() {
        let text = "s SATISFIABLE\nv 2 0\n";
        assert_eq!(parse_output("out", text, 4).unwrap(), sat(4, &[2]));
        // Repeating a literal is harmless.
        let text = "s SATISFIABLE\nv 2 2 -3 -3 0\n";
        assert_eq!(parse_output("out", text, 4).unwrap(), sat(4, &[2]));
    }

    #[test]
    fn zero_variables() {
        assert_eq!(
            parse_output("out", "s SATISFIABLE\nv 0\n", 0).unwrap(),
            sat(0, &[])
        );
        let (line, msg) = parse_err("s SATISFIABLE\nv 1 0\n", 0);
        assert_eq!(line, Some(2));
        assert!(msg.contains("'1' out of range"), "{msg}");
    }

    #[test]
    fn competition_unsat_and_unknown() {
        let text = "c x\ns UNSATISFIABLE\n";
        assert_eq!(parse_output("out", text, 3).unwrap(), Answer::Unsat);
        let text = "c x\ns UNKNOWN\n";
        assert_eq!(
            parse_output("out", text, 3).unwrap(),
            Answer::Unknown("solver answered UNKNOWN".to_string())
        );
        // A repeated, agreeing s line is fine.
        let text = "s UNSATISFIABLE\ns UNSATISFIABLE\n";
        assert_eq!(parse_output("out", text, 3).unwrap(), Answer::Unsat);
    }

    #[test]
    fn minisat_result_files() {
        assert_eq!(
            parse_output("res", "SAT\n1 -2 3 0\n", 3).unwrap(),
            sat(3, &[1, 3])
        );
        // Wrapped over several lines and without a final newline.
        assert_eq!(
            parse_output("res", "SAT\n-1 2\n-3 0", 3).unwrap(),
            sat(3, &[2])
        );
        assert_eq!(parse_output("res", "UNSAT\n", 3).unwrap(), Answer::Unsat);
        assert_eq!(
            parse_output("res", "INDET\n", 3).unwrap(),
            Answer::Unknown("solver answered UNKNOWN".to_string())
        );
    }

    #[test]
    fn out_of_range_literal_names_literal_and_line() {
        let (line, msg) = parse_err("s SATISFIABLE\nv 1 2\nv -7 0\n", 3);
        assert_eq!(line, Some(3));
        assert!(
            msg.contains("'-7'") && msg.contains("out of range"),
            "{msg}"
        );
        assert!(msg.contains("3 variables"), "{msg}");
        let err = parse_output("cadical output", "s SATISFIABLE\nv 1 2\nv -7 0\n", 3)
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            "cadical output:3: literal '-7' out of range: the formula has 3 variables"
        );
        // Overflowing u64 and exceeding u32 are out of range too, without allocating.
        let (line, msg) = parse_err("s SATISFIABLE\nv 99999999999999999999999999 0\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("out of range"), "{msg}");
        let (_, msg) = parse_err("SAT\n4294967296 0\n", usize::MAX);
        assert!(msg.contains("out of range"), "{msg}");
        let (line, msg) = parse_err("SAT\n1 4 0\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("'4' out of range"), "{msg}");
    }

    #[test]
    fn truncated_model_is_an_error() {
        let (line, msg) = parse_err("s SATISFIABLE\nv 1 2\nv 3\n", 3);
        assert_eq!(line, Some(3));
        assert!(msg.contains("not terminated by 0"), "{msg}");
        let (line, msg) = parse_err("SAT\n1 -2", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("not terminated by 0"), "{msg}");
    }

    #[test]
    fn garbage_token_is_an_error() {
        let (line, msg) = parse_err("s SATISFIABLE\nv 1 x2 0\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("invalid literal 'x2'"), "{msg}");
        for bad in ["+1", "1.5", "--1", "-", "1e3", "٣"] {
            let (_, msg) = parse_err(&format!("s SATISFIABLE\nv {bad} 0\n"), 3);
            assert!(msg.contains("invalid literal"), "{bad}: {msg}");
        }
        let (line, msg) = parse_err("SAT\n1 two 0\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("'two'"), "{msg}");
    }

    #[test]
    fn sat_without_model_is_an_error() {
        let (line, msg) = parse_err("c x\ns SATISFIABLE\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("without a model"), "{msg}");
        let (line, msg) = parse_err("SAT\n\n", 3);
        assert_eq!(line, Some(1));
        assert!(msg.contains("without a model"), "{msg}");
    }

    #[test]
    fn contradictory_literals_are_an_error() {
        let (line, msg) = parse_err("s SATISFIABLE\nv 1 2\nv -1 0\n", 3);
        assert_eq!(line, Some(3));
        assert!(msg.contains("contradictory literals 1 and -1"), "{msg}");
        let (_, msg) = parse_err("SAT\n-2 2 0\n", 3);
        assert!(msg.contains("contradictory literals 2 and -2"), "{msg}");
    }

    #[test]
    fn disagreeing_s_lines_are_an_error() {
        let (line, msg) = parse_err("s SATISFIABLE\nv 1 0\ns UNSATISFIABLE\n", 3);
        assert_eq!(line, Some(3));
        assert!(
            msg.contains("'s UNSATISFIABLE' contradicts 's SATISFIABLE' on line 1"),
            "{msg}"
        );
    }

    #[test]
    fn missing_or_malformed_verdict_is_an_error() {
        let (line, msg) = parse_err("", 3);
        assert_eq!(line, None);
        assert!(msg.contains("no verdict"), "{msg}");
        let (line, msg) = parse_err("c only comments\n\n", 3);
        assert_eq!(line, None);
        assert!(msg.contains("no verdict"), "{msg}");
        // minisat's stdout (not its result file) has no s line.
        let (line, msg) = parse_err("c x\nSATISFIABLE\n", 3);
        assert_eq!(line, Some(2));
        assert!(
            msg.contains("no verdict") && msg.contains("'SATISFIABLE'"),
            "{msg}"
        );
        let (line, msg) = parse_err("s SATISFIED\n", 3);
        assert_eq!(line, Some(1));
        assert!(msg.contains("unrecognised status 'SATISFIED'"), "{msg}");
        // Models without a v prefix are not silently ignored.
        let (line, msg) = parse_err("s SATISFIABLE\n1 2 0\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("unexpected line '1 2 0'"), "{msg}");
    }

    #[test]
    fn inconsistent_extras_are_errors() {
        let (line, msg) = parse_err("s SATISFIABLE\nv 1 0\nv 2 0\n", 3);
        assert_eq!(line, Some(3));
        assert!(
            msg.contains("after the model's terminating 0 (line 2)"),
            "{msg}"
        );
        let (line, msg) = parse_err("s UNSATISFIABLE\nv 1 0\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("UNSATISFIABLE"), "{msg}");
        let (line, msg) = parse_err("UNSAT\n1 0\n", 3);
        assert_eq!(line, Some(2));
        assert!(msg.contains("after 'UNSAT'"), "{msg}");
    }

    #[test]
    fn messages_are_one_line_and_bounded() {
        let long = format!("s SATISFIABLE\nv 1 {}\u{7}x 0\n", "9".repeat(500));
        let (_, msg) = parse_err(&long, 3);
        assert!(!msg.contains('\n') && !msg.contains('\u{7}'), "{msg}");
        assert!(msg.len() < 200, "{msg}");
    }

    #[test]
    fn parse_output_file_reads_and_reports() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("result.txt");
        std::fs::write(&path, "SAT\n-1 2 0\n").unwrap();
        assert_eq!(parse_output_file(&path, 2).unwrap(), sat(2, &[2]));

        std::fs::write(&path, b"SAT\n1 0\n\xff\xfe\n").unwrap();
        match parse_output_file(&path, 2) {
            Err(Error::Parse { file, line, msg }) => {
                assert_eq!(file, path.display().to_string());
                assert_eq!(line, Some(3));
                assert!(msg.contains("UTF-8"), "{msg}");
            }
            other => panic!("expected a parse error, got {other:?}"),
        }

        let missing = dir.path().join("missing.txt");
        assert!(matches!(
            parse_output_file(&missing, 2),
            Err(Error::Io { .. })
        ));
    }

    /// Deterministic fuzzing: arbitrary mixes of meaningful fragments never panic.
    #[test]
    fn never_panics_on_arbitrary_input() {
        const PIECES: &[&str] = &[
            "s ",
            "v ",
            "c ",
            "SAT",
            "UNSAT",
            "INDET",
            "SATISFIABLE",
            "UNSATISFIABLE",
            "UNKNOWN",
            "0",
            "1",
            "-1",
            "2",
            "-",
            "99999999999999999999",
            "4294967296",
            " ",
            "\n",
            "\r\n",
            "\t",
            "x",
            "\u{e9}",
            "s",
            "v",
            "\u{0}",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let text: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            let num_vars = (next() % 4) as usize;
            let _ = parse_output("fuzz", &text, num_vars);
            let _ = parse_output_bytes("fuzz", text.as_bytes(), num_vars);
        }
    }
}
