//! The lexer and parser: tokens of a statement, literals, linear constraints and OPB files.

use super::*;

/// A token of a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    /// An integer; `signed` when written with `+` or `-`.
    Int {
        value: i128,
        signed: bool,
    },
    Ident(&'a [u8]),
    Tilde,
    Colon,
    Ge,
    Le,
    Eq,
    Plus,
    Star,
    /// Any other character (or operator outside the subset).
    Other(&'a [u8]),
}

pub(super) fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'@' || c == b'$'
}

pub(super) fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'[' | b']' | b'{' | b'}' | b'^' | b'-')
}

/// The tokens of one statement (without its `;`).
#[derive(Clone, Copy)]
pub(super) struct Lexer<'a> {
    pub(super) s: &'a [u8],
    pub(super) i: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(s: &'a [u8]) -> Lexer<'a> {
        Lexer { s, i: 0 }
    }

    #[inline(always)]
    pub(super) fn next(&mut self) -> Res<Option<Tok<'a>>> {
        let s = self.s;
        while self.i < s.len() && s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        if self.i >= s.len() {
            return Ok(None);
        }
        let start = self.i;
        let c = s[start];
        self.i += 1;
        let digit_next = self.i < s.len() && s[self.i].is_ascii_digit();
        let tok = match c {
            b'0'..=b'9' => {
                self.i = start;
                self.int(false)?
            }
            b'+' | b'-' if digit_next => self.int(true)?,
            b'+' => Tok::Plus,
            b'*' => Tok::Star,
            b'~' => Tok::Tilde,
            b':' => Tok::Colon,
            b'>' | b'<' if s.get(self.i) == Some(&b'=') => {
                self.i += 1;
                if s.get(self.i) == Some(&b'=') {
                    self.i += 1;
                    Tok::Other(&s[start..self.i])
                } else if c == b'>' {
                    Tok::Ge
                } else {
                    Tok::Le
                }
            }
            b'=' => {
                while self.i < s.len() && matches!(s[self.i], b'=' | b'>') {
                    self.i += 1;
                }
                if self.i - start == 1 {
                    Tok::Eq
                } else {
                    Tok::Other(&s[start..self.i])
                }
            }
            c if is_ident_start(c) => {
                while self.i < s.len() && is_ident(s[self.i]) {
                    self.i += 1;
                }
                Tok::Ident(&s[start..self.i])
            }
            _ => Tok::Other(&s[start..self.i]),
        };
        Ok(Some(tok))
    }

    /// An integer from the current position (after its sign, when `signed`).
    #[inline(always)]
    pub(super) fn int(&mut self, signed: bool) -> Res<Tok<'a>> {
        let neg = signed && self.s[self.i - 1] == b'-';
        let mut value: u64 = 0;
        let start = self.i;
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() && self.i - start < 18 {
            value = value * 10 + u64::from(self.s[self.i] - b'0');
            self.i += 1;
        }
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(self.s[self.i] - b'0')))
                .ok_or_else(|| Fail::Syntax("an integer beyond 64 bits".into()))?;
            self.i += 1;
        }
        let value = if neg {
            -i128::from(value)
        } else {
            i128::from(value)
        };
        Ok(Tok::Int { value, signed })
    }

    /// The next token when it is one character standing alone (`*`, `d`, `w`, `-`, ...),
    /// without reading it.
    #[inline]
    pub(super) fn peek_single(&self) -> Option<u8> {
        let s = self.s;
        let mut i = self.i;
        while i < s.len() && s[i].is_ascii_whitespace() {
            i += 1;
        }
        let b = *s.get(i)?;
        let alone = match s.get(i + 1) {
            None => true,
            Some(&n) => !is_ident(n) || (b == b'*' || b == b'+'),
        };
        (alone && b != b'~').then_some(b)
    }

    /// Reads the token [`Lexer::peek_single`] saw.
    pub(super) fn skip_single(&mut self) {
        while self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
        self.i += 1;
    }

    pub(super) fn peek(&self) -> Res<Option<Tok<'a>>> {
        let mut copy = *self;
        copy.next()
    }

    pub(super) fn expect_end(&mut self, what: &str) -> Res<()> {
        match self.next()? {
            None => Ok(()),
            Some(t) => syntax(format!("expected `;` after {what}, found {}", show(t))),
        }
    }
}

pub(super) fn show(t: Tok<'_>) -> String {
    match t {
        Tok::Int { value, .. } => format!("`{value}`"),
        Tok::Ident(s) | Tok::Other(s) => format!("`{}`", String::from_utf8_lossy(s)),
        Tok::Tilde => "`~`".into(),
        Tok::Colon => "`:`".into(),
        Tok::Ge => "`>=`".into(),
        Tok::Le => "`<=`".into(),
        Tok::Eq => "`=`".into(),
        Tok::Plus => "`+`".into(),
        Tok::Star => "`*`".into(),
    }
}

/// The variable of a name `x<N>` (N >= 1, no leading zero).
pub(super) fn var_of(name: &[u8]) -> Res<u32> {
    let digits = match name.split_first() {
        Some((b'x', rest)) if !rest.is_empty() && rest[0] != b'0' => rest,
        _ => {
            return syntax(format!(
                "unsupported variable name `{}` (this checker reads x1, x2, ...)",
                String::from_utf8_lossy(name)
            ));
        }
    };
    let mut v: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return syntax(format!(
                "unsupported variable name `{}` (this checker reads x1, x2, ...)",
                String::from_utf8_lossy(name)
            ));
        }
        v = v
            .checked_mul(10)
            .and_then(|v| v.checked_add(u32::from(d - b'0')))
            .filter(|&v| v <= MAX_VAR)
            .ok_or_else(|| {
                Fail::Syntax(format!(
                    "variable `{}` beyond this checker's limit x{MAX_VAR}",
                    String::from_utf8_lossy(name)
                ))
            })?;
    }
    Ok(v)
}

/// A literal (`~`? name) starting at `first`: `(var, negated)`.
pub(super) fn literal(lex: &mut Lexer<'_>, first: Tok<'_>) -> Res<(u32, bool)> {
    match first {
        Tok::Ident(name) => Ok((var_of(name)?, false)),
        Tok::Tilde => match lex.next()? {
            Some(Tok::Ident(name)) => Ok((var_of(name)?, true)),
            Some(t) => syntax(format!("expected a variable after `~`, found {}", show(t))),
            None => syntax("expected a variable after `~`"),
        },
        t => syntax(format!("expected a literal, found {}", show(t))),
    }
}

pub(super) fn to_i64(value: i128) -> Res<i64> {
    i64::try_from(value).map_err(|_| Fail::Syntax(format!("integer {value} beyond 64 bits")))
}

/// Parses the terms and relation of a linear constraint (`coef lit ... REL rhs`), up to and
/// including the right-hand side. The literals' variables are in `vars` order.
pub(super) fn parse_linear(lex: &mut Lexer<'_>, eq_allowed: bool) -> Res<PbConstraint> {
    let mut terms = Vec::new();
    loop {
        match lex.next()? {
            Some(Tok::Int { value, .. }) => {
                let coef = to_i64(value)?;
                let first = lex
                    .next()?
                    .ok_or_else(|| Fail::Syntax("expected a literal after a coefficient".into()))?;
                let (v, neg) = literal(lex, first)?;
                let lit = v as i32;
                terms.push((coef, if neg { -lit } else { lit }));
            }
            Some(Tok::Ge) => break finish_linear(lex, terms, Relation::Ge),
            Some(Tok::Le) => break finish_linear(lex, terms, Relation::Le),
            Some(Tok::Eq) if eq_allowed => break finish_linear(lex, terms, Relation::Eq),
            Some(t @ (Tok::Ident(_) | Tok::Tilde)) if terms.is_empty() => {
                break syntax(format!(
                    "unsupported: a reified constraint or a term without coefficient ({})",
                    show(t)
                ));
            }
            Some(t) => {
                break syntax(format!(
                    "expected a coefficient or {}, found {}",
                    if eq_allowed {
                        "`>=`, `<=`, `=`"
                    } else {
                        "`>=`, `<=`"
                    },
                    show(t)
                ));
            }
            None => break syntax("expected a coefficient or a relation"),
        }
    }
}

pub(super) fn finish_linear(
    lex: &mut Lexer<'_>,
    terms: Vec<(i64, i32)>,
    relation: Relation,
) -> Res<PbConstraint> {
    match lex.next()? {
        Some(Tok::Int { value, .. }) => Ok(PbConstraint {
            terms,
            relation,
            rhs: to_i64(value)?,
        }),
        Some(t) => syntax(format!("expected the right-hand side, found {}", show(t))),
        None => syntax("expected the right-hand side"),
    }
}

/// Parses an OPB text (`* ` comment lines, one or more constraints per `;`, general integer
/// coefficients, `>=`, `<=`, `=`; no objective): the highest variable index and the
/// constraints, in order. `source` names the text in errors.
pub fn parse_opb(text: &str, source: &str) -> Result<(u32, Vec<PbConstraint>)> {
    let mut out = Vec::new();
    let mut num_vars = 0u32;
    let mut pending = String::new();
    let mut start_line = 0;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.starts_with('*') {
            continue;
        }
        if pending.trim().is_empty() {
            start_line = line_no;
        }
        pending.push_str(line);
        pending.push(' ');
        while let Some(end) = pending.find(';') {
            let stmt: String = pending[..end].to_string();
            pending.drain(..=end);
            let mut lex = Lexer::new(stmt.as_bytes());
            if let Ok(Some(Tok::Ident(w))) = lex.peek()
                && (w == b"min" || w == b"max")
            {
                return Err(Error::parse(
                    source,
                    start_line,
                    "an objective (this checker reads decision problems)",
                ));
            }
            let c = parse_linear(&mut lex, true)
                .and_then(|c| lex.expect_end("the right-hand side").map(|()| c))
                .map_err(|f| match f {
                    Fail::Syntax(m) | Fail::Check(m) => Error::parse(source, start_line, m),
                })?;
            for &(_, l) in &c.terms {
                num_vars = num_vars.max(l.unsigned_abs());
            }
            out.push(c);
            start_line = line_no;
        }
    }
    if !pending.trim().is_empty() {
        return Err(Error::parse(
            source,
            start_line,
            "a constraint without its closing `;`",
        ));
    }
    Ok((num_vars, out))
}
