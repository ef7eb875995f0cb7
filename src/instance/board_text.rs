//! Reader for board text: one row per line, `Q` piece, `.` free, `x` blocked, `#` comments.

use super::Instance;
use crate::board::{Cell, MAX_N};
use crate::error::{Error, Result};

/// One board row as read: its line number, cell count, and the columns of `Q` and `x` cells.
struct Row {
    line: usize,
    cells: usize,
    queens: Vec<u32>,
    blocks: Vec<u32>,
}

/// Reads a board-text instance from `text` (named `file` in errors).
///
/// One row per line: `Q` is a pre-placed piece, `.` a free cell, `x` (or `X`) a blocked cell.
/// Whitespace inside a line is ignored; blank lines and lines whose first non-blank character
/// is `#` are skipped. The side `n` is the number of rows, and every row must have `n` cells.
/// Cells are `(row, col)`, 0-based, row 0 being the first row line. The instance is
/// canonical (both lists row-major); a cell cannot be both `Q` and `x`.
///
/// ```
/// use queens_sat::{board::Cell, instance::parse_board};
/// let inst = parse_board("b.txt", "# a comment\nQ . .\n. . x\n. . .\n").unwrap();
/// assert_eq!(inst.n, 3);
/// assert_eq!(inst.placed, vec![Cell::new(0, 0)]);
/// assert_eq!(inst.blocked, vec![Cell::new(1, 2)]);
/// assert!(parse_board("b.txt", "Q.\n.z\n").unwrap_err().to_string().contains("b.txt:2"));
/// ```
pub fn parse_board(file: &str, text: &str) -> Result<Instance> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rows: Vec<Row> = Vec::new();
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if rows.len() >= MAX_N as usize {
            return Err(Error::parse(
                file,
                line,
                format!("board has more than {MAX_N} rows (the largest supported n is {MAX_N})"),
            ));
        }
        let mut row = Row {
            line,
            cells: 0,
            queens: Vec::new(),
            blocks: Vec::new(),
        };
        for (col0, ch) in raw.chars().enumerate() {
            if ch.is_whitespace() {
                continue;
            }
            // A row longer than MAX_N cells can never be square; stop before the column
            // index could overflow u32.
            if row.cells >= MAX_N as usize {
                return Err(Error::parse(
                    file,
                    line,
                    format!("row has more than {MAX_N} cells (the largest supported n is {MAX_N})"),
                ));
            }
            let col = row.cells as u32;
            match ch {
                'Q' => row.queens.push(col),
                'x' | 'X' => row.blocks.push(col),
                '.' => {}
                _ => {
                    return Err(Error::parse(
                        file,
                        line,
                        format!(
                            "unknown character '{}' at column {} (expected Q, ., x)",
                            ch.escape_debug(),
                            col0 + 1
                        ),
                    ));
                }
            }
            row.cells += 1;
        }
        rows.push(row);
    }
    if rows.is_empty() {
        return Err(Error::parse_file(file, "empty board (no rows)"));
    }
    let n = rows.len();
    let mut inst = Instance::plain(n as u32);
    for (r, row) in rows.iter().enumerate() {
        if row.cells != n {
            return Err(Error::parse(
                file,
                row.line,
                format!(
                    "row has {} cells, expected {n} (the board has {n} rows)",
                    row.cells
                ),
            ));
        }
        let r = r as u32;
        inst.placed
            .extend(row.queens.iter().map(|&c| Cell::new(r, c)));
        inst.blocked
            .extend(row.blocks.iter().map(|&c| Cell::new(r, c)));
    }
    Ok(inst)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_board("b.txt", text).unwrap_err().to_string()
    }

    #[test]
    fn reads_pieces_and_blocks_row_major() {
        let inst = parse_board("b.txt", "Q...\n....\n..x.\n.Q.X\n").unwrap();
        assert_eq!(inst.n, 4);
        assert_eq!(inst.placed, vec![Cell::new(0, 0), Cell::new(3, 1)]);
        assert_eq!(inst.blocked, vec![Cell::new(2, 2), Cell::new(3, 3)]);
        assert!(inst.excluded.is_empty());
    }

    #[test]
    fn skips_comments_blank_lines_and_whitespace() {
        let text = "# header\n\n  # indented comment\nQ .\t.\r\n\n. . x\n . . . \n# trailer\n";
        let inst = parse_board("b.txt", text).unwrap();
        assert_eq!(inst.n, 3);
        assert_eq!(inst.placed, vec![Cell::new(0, 0)]);
        assert_eq!(inst.blocked, vec![Cell::new(1, 2)]);
    }

    #[test]
    fn plain_board_and_one_by_one() {
        let inst = parse_board("b.txt", "...\n...\n...").unwrap();
        assert_eq!(inst, Instance::plain(3));
        let one = parse_board("b.txt", "Q").unwrap();
        assert_eq!((one.n, one.placed.clone()), (1, vec![Cell::new(0, 0)]));
    }

    #[test]
    fn bom_is_ignored() {
        let inst = parse_board("b.txt", "\u{feff}Q.\n..\n").unwrap();
        assert_eq!(inst.placed, vec![Cell::new(0, 0)]);
    }

    #[test]
    fn non_square_row_names_line_and_counts() {
        let e = err("....\n....\n.....\n....\n");
        assert_eq!(
            e,
            "b.txt:3: row has 5 cells, expected 4 (the board has 4 rows)"
        );
        let e = err("# c\n...\n...\n");
        assert_eq!(
            e,
            "b.txt:2: row has 3 cells, expected 2 (the board has 2 rows)"
        );
    }

    #[test]
    fn unknown_character_names_line_column_and_char() {
        let e = err("...\n..z\n...\n");
        assert_eq!(
            e,
            "b.txt:2: unknown character 'z' at column 3 (expected Q, ., x)"
        );
        let e = err("Q . q\n");
        assert!(e.contains("b.txt:1:") && e.contains("'q'") && e.contains("column 5"));
        // Control characters are escaped, keeping the message on one line.
        let e = err("..\u{7}\n");
        assert!(e.contains("\\u{7}") && !e.contains('\u{7}'), "{e}");
    }

    #[test]
    fn empty_board_is_an_error() {
        for text in ["", "\n\n", "# only a comment\n  \n"] {
            assert_eq!(err(text), "b.txt: empty board (no rows)");
        }
    }

    #[test]
    fn too_many_rows_is_an_error() {
        let text = ".\n".repeat(MAX_N as usize + 1);
        let e = err(&text);
        assert!(e.starts_with(&format!("b.txt:{}:", MAX_N + 1)), "{e}");
        assert!(e.contains("more than 65536 rows"), "{e}");
    }

    #[test]
    fn too_long_row_is_an_error() {
        let text = ".".repeat(MAX_N as usize + 1);
        let e = err(&text);
        assert!(e.starts_with("b.txt:1:") && e.contains("more than 65536 cells"));
    }
}
