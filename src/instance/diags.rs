//! Reader for csplib prob079 excluded-diagonals files (`n = `, `numdiags = `, `diags = `).

use super::param::{Cursor, Pair, Tok, tokenize};
use super::{ExcludedDiagonal, Instance, check_n};
use crate::error::{BadOption, Error, Opt, Result};
use crate::piece::LineKind;

/// Reads a csplib prob079 excluded-diagonals file from `text` (named `file` in errors).
///
/// Statements are `n = N`, `numdiags = D` and `diags = [[k,t], ...]` (each optionally ended
/// by `;`; the list may span lines; `#` and `$` start comments). An entry `[k,1]` excludes
/// the sum diagonal `r + c = k` ([`LineKind::AntiDiagonal`], key `k`); `[k,0]` excludes the
/// difference diagonal `r - c = k - (n-1)` ([`LineKind::Diagonal`], key `k`). The list must
/// have `numdiags` entries; `take = Some(D)` keeps only the first `D` of them (in file
/// order). The instance is canonical: its diagonals sorted by `(k, t)`, an entry given twice
/// kept once.
///
/// ```
/// use queens_sat::{instance::parse_diags, piece::LineKind};
/// let inst = parse_diags("d.txt", "n = 5\nnumdiags = 2\ndiags = [[0,1],[4,0]]\n", None).unwrap();
/// assert_eq!(inst.n, 5);
/// assert_eq!(inst.excluded[0].kind, LineKind::AntiDiagonal);
/// assert_eq!((inst.excluded[1].kind, inst.excluded[1].key), (LineKind::Diagonal, 4));
/// assert_eq!(parse_diags("d.txt", "n = 5\nnumdiags = 2\ndiags = [[0,1],[4,0]]\n", Some(1)).unwrap().excluded.len(), 1);
/// ```
pub fn parse_diags(file: &str, text: &str, take: Option<usize>) -> Result<Instance> {
    let toks = tokenize(file, text, &['#', '$'], false)?;
    let mut cur = Cursor::new(file, toks);
    let mut n: Option<(i64, usize)> = None;
    let mut numdiags: Option<(i64, usize)> = None;
    let mut diags: Option<(Vec<Pair>, usize)> = None;

    while let Some(tok) = cur.peek() {
        let line = tok.line;
        let name = match &tok.tok {
            Tok::Ident(s) => s.clone(),
            _ => {
                return Err(cur.expected("syntax error", "'n', 'numdiags' or 'diags'"));
            }
        };
        let first_line = match name.as_str() {
            "n" => n.as_ref().map(|v| v.1),
            "numdiags" => numdiags.as_ref().map(|v| v.1),
            "diags" => diags.as_ref().map(|v| v.1),
            _ => {
                return Err(cur.expected("syntax error", "'n', 'numdiags' or 'diags'"));
            }
        };
        if let Some(first) = first_line {
            return Err(Error::parse(
                file,
                line,
                format!("duplicate '{name} =' (first given at line {first})"),
            ));
        }
        cur.next_tok();
        let context = format!("in '{name} ='");
        cur.expect_sym('=', &context)?;
        match name.as_str() {
            "n" => n = Some(cur.expect_int(&context)?),
            "numdiags" => numdiags = Some(cur.expect_int(&context)?),
            _ => diags = Some((cur.pairs("diags")?, line)),
        }
        cur.eat_sym(';');
    }

    let missing: Vec<&str> = [
        (n.is_none(), "'n = N'"),
        (numdiags.is_none(), "'numdiags = D'"),
        (diags.is_none(), "'diags = [[k,t], ...]'"),
    ]
    .into_iter()
    .filter_map(|(m, what)| m.then_some(what))
    .collect();
    let (Some((n_value, n_line)), Some((numdiags, nd_line)), Some((entries, diags_line))) =
        (n, numdiags, diags)
    else {
        return Err(Error::parse_file(
            file,
            format!("missing {}", missing.join(", ")),
        ));
    };

    let n = check_n(file, n_line, n_value)?;
    if numdiags < 0 {
        return Err(Error::parse(
            file,
            nd_line,
            format!("numdiags = {numdiags} is negative"),
        ));
    }
    let max_k = 2 * i64::from(n) - 2;
    let mut excluded = Vec::with_capacity(entries.len());
    for Pair { a: k, b: t, line } in entries {
        if !(0..=max_k).contains(&k) {
            return Err(Error::parse(
                file,
                line,
                format!(
                    "diags entry [{k},{t}] has k = {k}, out of range for n = {n} (0..={max_k})"
                ),
            ));
        }
        let kind = match t {
            0 => LineKind::Diagonal,
            1 => LineKind::AntiDiagonal,
            _ => {
                return Err(Error::parse(
                    file,
                    line,
                    format!("diags entry [{k},{t}] has t = {t} (expected 0 or 1)"),
                ));
            }
        };
        excluded.push(ExcludedDiagonal {
            kind,
            key: k as u32,
        });
    }
    if excluded.len() as i64 != numdiags {
        return Err(Error::parse(
            file,
            diags_line,
            format!(
                "diags has {} entries but numdiags = {numdiags} (line {nd_line})",
                excluded.len()
            ),
        ));
    }
    if let Some(d) = take {
        if d as u64 > numdiags as u64 {
            return Err(BadOption::invalid(
                Opt::Diags,
                d,
                format!("is larger than numdiags = {numdiags} in {file}"),
            ));
        }
        excluded.truncate(d);
    }
    // A set: sorted by (k, t), an entry given twice kept once (after taking the prefix, which
    // counts entries in file order).
    let mut inst = Instance {
        excluded,
        ..Instance::plain(n)
    };
    inst.canonicalize();
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cell;

    const SAMPLE: &str = "n = 5\nnumdiags = 3\ndiags = [[0,1],[8,1],[4,0]]\n";

    fn err(text: &str) -> String {
        parse_diags("d.txt", text, None).unwrap_err().to_string()
    }

    fn ex(kind: LineKind, key: u32) -> ExcludedDiagonal {
        ExcludedDiagonal { kind, key }
    }

    #[test]
    fn sample_kinds_and_keys() {
        let inst = parse_diags("d.txt", SAMPLE, None).unwrap();
        assert_eq!(inst.n, 5);
        assert!(inst.placed.is_empty() && inst.blocked.is_empty());
        assert_eq!(
            inst.excluded,
            // Sorted by (k, t), not in file order.
            vec![
                ex(LineKind::AntiDiagonal, 0),
                ex(LineKind::Diagonal, 4),
                ex(LineKind::AntiDiagonal, 8),
            ]
        );
    }

    #[test]
    fn keys_match_line_kind_key() {
        // t = 1, k = 3: cells with r + c = 3; t = 0, k = 2: cells with r - c = 2 - 4 = -2.
        let inst =
            parse_diags("d.txt", "n = 5\nnumdiags = 2\ndiags = [[3,1],[2,0]]", None).unwrap();
        // Sorted by (k, t): [2,0] before [3,1].
        let diag = inst.excluded[0];
        let anti = inst.excluded[1];
        assert_eq!(anti.key, LineKind::AntiDiagonal.key(Cell::new(1, 2), 5));
        assert_eq!(diag.key, LineKind::Diagonal.key(Cell::new(0, 2), 5));
        assert_eq!(diag.key, LineKind::Diagonal.key(Cell::new(2, 4), 5));
        let obstacles = inst.obstacles();
        assert!(obstacles.contains(Cell::new(3, 0)) && obstacles.contains(Cell::new(1, 3)));
        assert!(!obstacles.contains(Cell::new(0, 0)));
    }

    #[test]
    fn take_keeps_prefix() {
        let inst = parse_diags("d.txt", SAMPLE, Some(2)).unwrap();
        assert_eq!(
            inst.excluded,
            vec![ex(LineKind::AntiDiagonal, 0), ex(LineKind::AntiDiagonal, 8)]
        );
        assert_eq!(
            parse_diags("d.txt", SAMPLE, Some(3))
                .unwrap()
                .excluded
                .len(),
            3
        );
        assert!(parse_diags("d.txt", SAMPLE, Some(0)).unwrap().is_plain());
    }

    #[test]
    fn take_larger_than_numdiags_is_usage_error() {
        let e = parse_diags("d.txt", SAMPLE, Some(12)).unwrap_err();
        assert!(matches!(e, Error::Option(_)));
        assert_eq!(
            e.to_string(),
            "--diags 12 is larger than numdiags = 3 in d.txt"
        );
    }

    #[test]
    fn multiline_list_comments_semicolons_any_order() {
        let text = "# excluded diagonals\ndiags = [ $ list\n  [1, 0],\n\n  [1, 0],\n  [6, 1]\n];\n\
                    numdiags = 3;\nn = 4;\n";
        let inst = parse_diags("d.txt", text, None).unwrap();
        assert_eq!(inst.n, 4);
        assert_eq!(
            inst.excluded,
            // numdiags counts the entries as written; the repeat is merged.
            vec![ex(LineKind::Diagonal, 1), ex(LineKind::AntiDiagonal, 6)]
        );
    }

    #[test]
    fn empty_list() {
        let inst = parse_diags("d.txt", "n = 3\nnumdiags = 0\ndiags = []\n", None).unwrap();
        assert_eq!(inst, Instance::plain(3));
    }

    #[test]
    fn k_out_of_range_names_entry_and_line() {
        let e = err("n = 5\nnumdiags = 2\ndiags = [[0,1],\n[9,1]]\n");
        assert_eq!(
            e,
            "d.txt:4: diags entry [9,1] has k = 9, out of range for n = 5 (0..=8)"
        );
        let e = err("n = 5\nnumdiags = 1\ndiags = [[-1,0]]\n");
        assert!(e.starts_with("d.txt:3:") && e.contains("[-1,0]"), "{e}");
    }

    #[test]
    fn bad_t_names_entry_and_line() {
        let e = err("n = 5\nnumdiags = 1\n\ndiags = [[2,2]]\n");
        assert_eq!(e, "d.txt:4: diags entry [2,2] has t = 2 (expected 0 or 1)");
    }

    #[test]
    fn count_mismatch() {
        let e = err("n = 5\nnumdiags = 4\ndiags = [[0,1],[8,1],[4,0]]\n");
        assert_eq!(e, "d.txt:3: diags has 3 entries but numdiags = 4 (line 2)");
        let e = err("n = 5\nnumdiags = -2\ndiags = []\n");
        assert_eq!(e, "d.txt:2: numdiags = -2 is negative");
    }

    #[test]
    fn missing_statements() {
        assert_eq!(err("numdiags = 0\ndiags = []\n"), "d.txt: missing 'n = N'");
        assert_eq!(err("n = 4\ndiags = []\n"), "d.txt: missing 'numdiags = D'");
        let e = err("n = 4\n");
        assert!(e.contains("'numdiags = D'") && e.contains("'diags = [[k,t], ...]'"));
        let e = err("");
        assert!(e.starts_with("d.txt: missing 'n = N'"), "{e}");
    }

    #[test]
    fn n_out_of_range() {
        let e = err("n = 0\nnumdiags = 0\ndiags = []\n");
        assert!(e.starts_with("d.txt:1:") && e.contains("n = 0"), "{e}");
        let e = err("\nn = 70000\nnumdiags = 0\ndiags = []\n");
        assert!(e.starts_with("d.txt:2:") && e.contains("n = 70000"), "{e}");
    }

    #[test]
    fn syntax_errors() {
        let e = err("n = 5\nfoo = 3\n");
        assert_eq!(
            e,
            "d.txt:2: syntax error: expected 'n', 'numdiags' or 'diags', found 'foo'"
        );
        let e = err("n = 5 6\n");
        assert!(e.starts_with("d.txt:1:") && e.contains("found '6'"), "{e}");
        let e = err("n 5\n");
        assert!(e.contains("expected '=', found '5'"), "{e}");
        let e = err("n = 5\nnumdiags = 1\ndiags = [[1,1]\n");
        assert!(e.contains("found end of file"), "{e}");
        let e = err("n = 5\nnumdiags = 1\ndiags = [[1,1]] x\n");
        assert!(e.starts_with("d.txt:3:") && e.contains("found 'x'"), "{e}");
        let e = err("n = 5\nnumdiags = 1\ndiags = [1,1]\n");
        assert!(e.starts_with("d.txt:3:") && e.contains("found '1'"), "{e}");
        let e = err("n = 123456789012345678901234567890\n");
        assert!(e.contains("'123456789012345678901234567890'"), "{e}");
    }

    #[test]
    fn duplicate_statement() {
        let e = err("n = 5\nn = 6\n");
        assert_eq!(e, "d.txt:2: duplicate 'n =' (first given at line 1)");
    }

    #[test]
    fn never_panics_on_odd_input() {
        for text in [
            "n",
            "n =",
            "diags = [[",
            "diags = [[1,",
            "n = -9223372036854775808\nnumdiags = 0\ndiags = []",
            "n = 5\nnumdiags = 9223372036854775807\ndiags = []",
            "n = 65536\nnumdiags = 1\ndiags = [[9223372036854775807,1]]",
            "=",
            "ñ",
        ] {
            assert!(
                parse_diags("d", text, Some(usize::MAX)).is_err(),
                "{text:?}"
            );
        }
    }
}
