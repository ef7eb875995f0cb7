//! Reader for csplib / Essence' parameter files (problems 079 and 080), and the small
//! line-tracking tokenizer it shares with the excluded-diagonals reader.

use super::{Instance, check_n};
use crate::board::Cell;
use crate::error::{Error, Result, clip};

/// A token of a parameter or excluded-diagonals file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// A name: `[A-Za-z_][A-Za-z0-9_]*`.
    Ident(String),
    /// An integer, possibly negative.
    Int(i64),
    /// One of `= [ ] ( ) { } , ;`.
    Sym(char),
}

/// A token and the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) line: usize,
}

/// One `[a, b]` pair of a list, with the line of its opening bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Pair {
    pub(super) a: i64,
    pub(super) b: i64,
    pub(super) line: usize,
}
/// Splits `text` into tokens. Each character of `comments` starts a comment running to the end
/// of its line; with `skip_language`, a line starting with the word `language` is ignored.
pub(super) fn tokenize(
    file: &str,
    text: &str,
    comments: &[char],
    skip_language: bool,
) -> Result<Vec<Token>> {
    let mut toks = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let code = match raw.find(|c| comments.contains(&c)) {
            Some(at) => raw.get(..at).unwrap_or(""),
            None => raw,
        };
        if skip_language {
            let t = code.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
            if let Some(rest) = t.strip_prefix("language")
                && rest.chars().next().is_none_or(char::is_whitespace)
            {
                continue;
            }
        }
        let mut chars = code.char_indices().peekable();
        while let Some((start, ch)) = chars.next() {
            if ch.is_whitespace() || ch == '\u{feff}' {
                continue;
            }
            let negative_number =
                ch == '-' && chars.peek().is_some_and(|&(_, d)| d.is_ascii_digit());
            if ch.is_ascii_digit() || negative_number {
                let mut end = start + ch.len_utf8();
                while let Some(&(i, d)) = chars.peek() {
                    if !d.is_ascii_digit() {
                        break;
                    }
                    end = i + d.len_utf8();
                    chars.next();
                }
                let s = code.get(start..end).unwrap_or("");
                let v = s.parse::<i64>().map_err(|_| {
                    Error::parse(file, line, format!("integer '{}' is out of range", clip(s)))
                })?;
                toks.push(Token {
                    tok: Tok::Int(v),
                    line,
                });
            } else if ch.is_ascii_alphabetic() || ch == '_' {
                let mut end = start + ch.len_utf8();
                while let Some(&(i, d)) = chars.peek() {
                    if !(d.is_ascii_alphanumeric() || d == '_') {
                        break;
                    }
                    end = i + d.len_utf8();
                    chars.next();
                }
                let s = code.get(start..end).unwrap_or("");
                toks.push(Token {
                    tok: Tok::Ident(s.to_string()),
                    line,
                });
            } else if "=[](){},;".contains(ch) {
                toks.push(Token {
                    tok: Tok::Sym(ch),
                    line,
                });
            } else {
                return Err(Error::parse(
                    file,
                    line,
                    format!("unexpected character '{}'", ch.escape_debug()),
                ));
            }
        }
    }
    Ok(toks)
}

/// A cursor over tokens with helpers that produce located error messages.
pub(super) struct Cursor<'a> {
    file: &'a str,
    toks: Vec<Token>,
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the first token.
    pub(super) fn new(file: &'a str, toks: Vec<Token>) -> Cursor<'a> {
        Cursor { file, toks, pos: 0 }
    }

    /// The next token, without consuming it.
    pub(super) fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }

    /// Consumes and returns the next token.
    pub(super) fn next_tok(&mut self) -> Option<Token> {
        let t = self.toks.get(self.pos).cloned();
        if t.is_some() {
            self.pos += 1;
        }
        t
    }

    /// The line of the next token, or of the last token at the end of the input.
    pub(super) fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or_else(|| self.toks.last())
            .map_or(1, |t| t.line)
    }

    /// How the next token reads in a message.
    pub(super) fn describe_next(&self) -> String {
        match self.peek().map(|t| &t.tok) {
            None => "end of file".to_string(),
            Some(Tok::Ident(s)) => format!("'{}'", clip(s)),
            Some(Tok::Int(v)) => format!("'{v}'"),
            Some(Tok::Sym(c)) => format!("'{c}'"),
        }
    }

    /// An error at the next token: `{context}: expected {what}, found {next}`.
    pub(super) fn expected(&self, context: &str, what: &str) -> Error {
        Error::parse(
            self.file,
            self.line(),
            format!("{context}: expected {what}, found {}", self.describe_next()),
        )
    }

    /// Consumes the next token if it is the symbol `c`.
    pub(super) fn eat_sym(&mut self, c: char) -> bool {
        if self.peek().map(|t| &t.tok) == Some(&Tok::Sym(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Consumes the symbol `c` or fails.
    pub(super) fn expect_sym(&mut self, c: char, context: &str) -> Result<()> {
        if self.eat_sym(c) {
            Ok(())
        } else {
            Err(self.expected(context, &format!("'{c}'")))
        }
    }

    /// Consumes an integer or fails; returns it with its line.
    pub(super) fn expect_int(&mut self, context: &str) -> Result<(i64, usize)> {
        match self.peek() {
            Some(Token {
                tok: Tok::Int(v),
                line,
            }) => {
                let r = (*v, *line);
                self.pos += 1;
                Ok(r)
            }
            _ => Err(self.expected(context, "an integer")),
        }
    }

    /// Parses a list of integer pairs named `name`: `[[a,b], [c,d]]` (pairs may also be
    /// written `(a,b)`, the list `{...}`); a trailing comma before the closing bracket is
    /// accepted, `[]` is the empty list.
    pub(super) fn pairs(&mut self, name: &str) -> Result<Vec<Pair>> {
        let context = format!("malformed {name} list");
        let close = if self.eat_sym('[') {
            ']'
        } else if self.eat_sym('{') {
            '}'
        } else {
            return Err(self.expected(&context, "'[' to start the list"));
        };
        let mut out = Vec::new();
        loop {
            if self.eat_sym(close) {
                break;
            }
            let line = self.line();
            let pclose = if self.eat_sym('[') {
                ']'
            } else if self.eat_sym('(') {
                ')'
            } else {
                return Err(self.expected(
                    &context,
                    &format!("'[' to start a pair or '{close}' to end the list"),
                ));
            };
            let (a, _) = self.expect_int(&context)?;
            self.expect_sym(',', &context)?;
            let (b, _) = self.expect_int(&context)?;
            if self.peek().map(|t| &t.tok) == Some(&Tok::Sym(',')) {
                return Err(Error::parse(
                    self.file,
                    self.line(),
                    format!("{context}: pair [{a},{b},...] has more than two numbers"),
                ));
            }
            if !self.eat_sym(pclose) {
                return Err(self.expected(
                    &context,
                    &format!("'{pclose}' after the two numbers of pair [{a},{b}]"),
                ));
            }
            out.push(Pair { a, b, line });
            if self.eat_sym(',') {
                continue;
            }
            if self.eat_sym(close) {
                break;
            }
            return Err(self.expected(&context, &format!("',' or '{close}' after pair [{a},{b}]")));
        }
        Ok(out)
    }
}

/// Reads a csplib / Essence' parameter file (problems 079 and 080) from `text` (named `file`
/// in errors).
///
/// Statements are `letting NAME = VALUE` or `letting NAME be VALUE`; `$` starts a comment and
/// a `language ESSENCE' 1.0` line is ignored. Names: `n` (required, an integer), `init`
/// (pre-placed queens as 0-based `[row,col]` pairs, as prob079 writes them) and `blocks`
/// (blocked cells as 1-based `[row,col]` pairs, as prob080 writes them). Lists may span lines.
///
/// The instance is canonical ([`Instance::canonical`]): both lists sorted row-major, a pair
/// given twice kept once. An `init` cell that `blocks` also holds is an error at the `init`
/// entry's line.
///
/// ```
/// use queens_sat::{board::Cell, instance::parse_param};
/// let inst = parse_param("p.param", "letting n = 8\nletting init = [[0,0],\n  [1, 4]]\n").unwrap();
/// assert_eq!(inst.placed, vec![Cell::new(0, 0), Cell::new(1, 4)]);
/// let inst = parse_param("p.param", "language ESSENCE' 1.0\nletting n be 8\nletting blocks be [[1,1],[8,8]]").unwrap();
/// assert_eq!(inst.blocked, vec![Cell::new(0, 0), Cell::new(7, 7)]);
/// ```
pub fn parse_param(file: &str, text: &str) -> Result<Instance> {
    let toks = tokenize(file, text, &['$'], true)?;
    let mut cur = Cursor::new(file, toks);
    let mut n: Option<(i64, usize)> = None;
    let mut init: Option<(Vec<Pair>, usize)> = None;
    let mut blocks: Option<(Vec<Pair>, usize)> = None;

    while let Some(tok) = cur.peek() {
        let line = tok.line;
        if tok.tok != Tok::Ident("letting".to_string()) {
            return Err(cur.expected("syntax error", "'letting' to start a statement"));
        }
        cur.next_tok();
        let name = match cur.peek().map(|t| &t.tok) {
            Some(Tok::Ident(s)) => s.clone(),
            _ => return Err(cur.expected("syntax error", "a name after 'letting'")),
        };
        cur.next_tok();
        let first_line = match name.as_str() {
            "n" => n.as_ref().map(|v| v.1),
            "init" => init.as_ref().map(|v| v.1),
            "blocks" => blocks.as_ref().map(|v| v.1),
            _ => {
                return Err(Error::parse(
                    file,
                    line,
                    format!(
                        "unknown letting '{}' (expected n, init or blocks)",
                        clip(&name)
                    ),
                ));
            }
        };
        if let Some(first) = first_line {
            return Err(Error::parse(
                file,
                line,
                format!("duplicate 'letting {name}' (first given at line {first})"),
            ));
        }
        let context = format!("in 'letting {name}'");
        let is_be = cur.peek().map(|t| &t.tok) == Some(&Tok::Ident("be".to_string()));
        if is_be {
            cur.next_tok();
        } else if !cur.eat_sym('=') {
            return Err(cur.expected(&context, "'=' or 'be'"));
        }
        match name.as_str() {
            "n" => n = Some(cur.expect_int(&context)?),
            "init" => init = Some((cur.pairs("init")?, line)),
            _ => blocks = Some((cur.pairs("blocks")?, line)),
        }
    }

    let Some((n_value, n_line)) = n else {
        return Err(Error::parse_file(file, "missing 'letting n'"));
    };
    let n = check_n(file, n_line, n_value)?;
    let nn = i64::from(n);
    let mut inst = Instance::plain(n);
    let init = init.map(|v| v.0).unwrap_or_default();
    for &p in &init {
        if !(0..nn).contains(&p.a) || !(0..nn).contains(&p.b) {
            return Err(Error::parse(
                file,
                p.line,
                format!(
                    "init entry [{},{}] is out of range for n = {n} (init is 0-based: 0..={})",
                    p.a,
                    p.b,
                    nn - 1
                ),
            ));
        }
        inst.placed.push(Cell::new(p.a as u32, p.b as u32));
    }
    for p in blocks.map(|v| v.0).unwrap_or_default() {
        if !(1..=nn).contains(&p.a) || !(1..=nn).contains(&p.b) {
            return Err(Error::parse(
                file,
                p.line,
                format!(
                    "blocks entry [{},{}] is out of range for n = {n} (blocks are 1-based: 1..={n})",
                    p.a, p.b
                ),
            ));
        }
        inst.blocked.push(Cell::new(p.a as u32 - 1, p.b as u32 - 1));
    }
    // Sets: a pair given twice is one piece (one blocked cell). A piece on a blocked cell is an
    // error at the first such init entry.
    inst.canonicalize();
    if let Some(p) = init.iter().find(|p| {
        inst.blocked
            .binary_search(&Cell::new(p.a as u32, p.b as u32))
            .is_ok()
    }) {
        return Err(Error::parse(
            file,
            p.line,
            format!(
                "init entry [{},{}] puts a pre-placed piece at ({},{}), a blocked cell (blocks entry [{},{}])",
                p.a,
                p.b,
                p.a,
                p.b,
                p.a + 1,
                p.b + 1
            ),
        ));
    }
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> Instance {
        parse_param("p.param", text).unwrap()
    }

    fn err(text: &str) -> String {
        parse_param("p.param", text).unwrap_err().to_string()
    }

    #[test]
    fn prob079_completion_sample() {
        let inst = ok("letting n = 8\nletting init = [[0,0],\n  [1, 4]]");
        assert_eq!(inst.n, 8);
        assert_eq!(inst.placed, vec![Cell::new(0, 0), Cell::new(1, 4)]);
        assert!(inst.blocked.is_empty() && inst.excluded.is_empty());
    }

    #[test]
    fn prob080_blocked_sample() {
        let text = "language ESSENCE' 1.0\n$ generated by blocked-gen.py\nletting n be 8\n\
                    letting blocks be [[1,1],[8,8]]\n";
        let inst = ok(text);
        assert_eq!(inst.n, 8);
        assert_eq!(inst.blocked, vec![Cell::new(0, 0), Cell::new(7, 7)]);
        assert!(inst.placed.is_empty());
    }

    #[test]
    fn comments_whitespace_and_order() {
        let text = "$ header\nletting blocks = [ $ list starts\n  [ 2 , 3 ] ,\n\n\t[4,1]\n]\n\
                    letting init be []\nletting n = 4 $ side last\n";
        let inst = ok(text);
        assert_eq!(inst.n, 4);
        assert_eq!(inst.blocked, vec![Cell::new(1, 2), Cell::new(3, 0)]);
        assert!(inst.placed.is_empty());
    }

    #[test]
    fn both_lists_tuples_sets_and_trailing_comma() {
        let inst = ok("letting n = 5\nletting init = [(0,4),[2,2],]\nletting blocks = {(5,5)}");
        assert_eq!(inst.placed, vec![Cell::new(0, 4), Cell::new(2, 2)]);
        assert_eq!(inst.blocked, vec![Cell::new(4, 4)]);
    }

    #[test]
    fn plain_n_only() {
        assert_eq!(ok("letting n be 1"), Instance::plain(1));
        assert_eq!(
            ok("\u{feff}language ESSENCE' 1.0\nletting n = 12\n"),
            Instance::plain(12)
        );
    }

    #[test]
    fn missing_n() {
        assert_eq!(err("letting init = []\n"), "p.param: missing 'letting n'");
        assert_eq!(err(""), "p.param: missing 'letting n'");
    }

    #[test]
    fn n_out_of_range() {
        let e = err("$ c\nletting n = 0\n");
        assert!(e.starts_with("p.param:2:") && e.contains("n = 0"), "{e}");
        let e = err("letting n = -1\n");
        assert!(e.starts_with("p.param:1:") && e.contains("n = -1"), "{e}");
        let e = err("letting n = 65537\n");
        assert!(
            e.starts_with("p.param:1:") && e.contains("n = 65537"),
            "{e}"
        );
    }

    #[test]
    fn integer_overflow_names_token() {
        let e = err("letting n = 99999999999999999999\n");
        assert!(e.starts_with("p.param:1:") && e.contains("'99999999999999999999'"));
    }

    #[test]
    fn blocks_out_of_range_names_pair_and_line() {
        let e = err("letting n = 8\nletting blocks = [\n  [1,1],\n  [9,1]]\n");
        assert_eq!(
            e,
            "p.param:4: blocks entry [9,1] is out of range for n = 8 (blocks are 1-based: 1..=8)"
        );
        let e = err("letting blocks = [[0,3]]\nletting n = 8\n");
        assert!(e.starts_with("p.param:1:") && e.contains("[0,3]"), "{e}");
    }

    #[test]
    fn init_out_of_range_names_pair_and_line() {
        let e = err("letting init = [[0,0],\n[8,0]]\nletting n = 8");
        assert_eq!(
            e,
            "p.param:2: init entry [8,0] is out of range for n = 8 (init is 0-based: 0..=7)"
        );
        let e = err("letting n = 8\nletting init = [[-1,2]]");
        assert!(e.starts_with("p.param:2:") && e.contains("[-1,2]"), "{e}");
    }

    #[test]
    fn unknown_letting() {
        let e = err("letting n = 8\nletting foo = 3\n");
        assert_eq!(
            e,
            "p.param:2: unknown letting 'foo' (expected n, init or blocks)"
        );
    }

    #[test]
    fn duplicate_letting() {
        let e = err("letting n = 8\nletting n = 9\n");
        assert_eq!(
            e,
            "p.param:2: duplicate 'letting n' (first given at line 1)"
        );
        let e = err("letting n = 8\nletting init = []\n\nletting init = [[0,0]]\n");
        assert!(e.starts_with("p.param:4:") && e.contains("duplicate 'letting init'"));
    }

    #[test]
    fn malformed_lists() {
        let e = err("letting n = 8\nletting init = [[0,0]\n [1,2]]\n");
        assert_eq!(
            e,
            "p.param:3: malformed init list: expected ',' or ']' after pair [0,0], found '['"
        );
        let e = err("letting n = 8\nletting init = [0,0]\n");
        assert!(e.starts_with("p.param:2:") && e.contains("'0'"), "{e}");
        let e = err("letting n = 8\nletting blocks = [[1,2,3]]\n");
        assert_eq!(
            e,
            "p.param:2: malformed blocks list: pair [1,2,...] has more than two numbers"
        );
        let e = err("letting n = 8\nletting blocks = [[1,2],\n");
        assert!(
            e.starts_with("p.param:2:") && e.contains("found end of file"),
            "{e}"
        );
        let e = err("letting n = 8\nletting blocks = 5\n");
        assert!(
            e.contains("expected '[' to start the list, found '5'"),
            "{e}"
        );
        let e = err("letting n = 8\nletting init = [[1,x]]\n");
        assert!(e.contains("expected an integer, found 'x'"), "{e}");
        let e = err("letting n = 8\nletting init = [(1,2]]\n");
        assert!(e.contains("expected ')'"), "{e}");
        let e = err("letting n = 8\nletting init = [,]\n");
        assert!(
            e.starts_with("p.param:2:") && e.contains("found ','"),
            "{e}"
        );
    }

    #[test]
    fn trailing_garbage_and_bad_syntax() {
        let e = err("letting n = 8 9\n");
        assert_eq!(
            e,
            "p.param:1: syntax error: expected 'letting' to start a statement, found '9'"
        );
        let e = err("letting n = 8\nletting init = []]\n");
        assert!(
            e.starts_with("p.param:2:") && e.contains("found ']'"),
            "{e}"
        );
        let e = err("letting n := 8\n");
        assert!(
            e.contains("expected '=' or 'be', found ':'") || e.contains("':'"),
            "{e}"
        );
        let e = err("letting n\n");
        assert!(e.contains("expected '=' or 'be', found end of file"), "{e}");
        let e = err("letting = 8\n");
        assert!(e.contains("a name after 'letting', found '='"), "{e}");
        let e = err("letting n = eight\n");
        assert!(e.contains("found 'eight'"), "{e}");
        let e = err("given n\n");
        assert!(e.contains("found 'given'"), "{e}");
        let e = err("letting n = 8\n\nletting init = [[0,0]] @\n");
        assert_eq!(e, "p.param:3: unexpected character '@'");
    }

    #[test]
    fn tokenizer_tracks_lines_and_negatives() {
        let toks = tokenize("f", "a = -3 $ c\n\n[ 1,-x ]", &['$'], false);
        let e = toks.unwrap_err().to_string();
        assert_eq!(e, "f:3: unexpected character '-'");
        let toks = tokenize("f", "a = -3 # c\n\n[ 1 ]", &['#'], false).unwrap();
        let lines: Vec<usize> = toks.iter().map(|t| t.line).collect();
        assert_eq!(lines, vec![1, 1, 1, 3, 3, 3]);
        assert_eq!(toks[2].tok, Tok::Int(-3));
        assert_eq!(toks[0].tok, Tok::Ident("a".into()));
    }

    #[test]
    fn never_panics_on_odd_input() {
        for text in [
            "letting",
            "letting n =",
            "letting n = [",
            "letting init = [[",
            "letting init = [[1",
            "letting init = [[1,",
            "letting init = [[1,2",
            "letting init = [[1,2]",
            "letting n = -",
            "letting n = -9223372036854775808",
            "letting n = 8\nletting init = [[9223372036854775807,-9223372036854775808]]",
            "é",
            "language",
            "languageX",
            "$",
        ] {
            assert!(parse_param("p", text).is_err(), "{text:?}");
        }
    }
}
