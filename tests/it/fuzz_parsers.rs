//! Property tests: every parser answers arbitrary bytes and near-valid mutations of real samples
//! with `Ok` or a clean one-line error, never a panic. (Coverage-guided fuzzing of the same
//! parsers lives in fuzz/.)

use proptest::prelude::*;
use queens_sat::encode::amo::AmoKind;
use queens_sat::export::dimacs::write_cnf;
use queens_sat::export::header::Header;
use queens_sat::export::header::read_header;
use queens_sat::export::output::parse_output;
use queens_sat::export::{Format, decode_answer};
use queens_sat::instance::{Instance, parse_board, parse_diags, parse_param, read_instance};
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;

const BOARD: &str =
    "# a completion instance\nQ . . . x\n. . . . .\n. x . . .\n. . . . .\n. . . . .\n";
const PARAM: &str = "language ESSENCE' 1.0\n$ prob080\nletting n be 8\nletting blocks be [[1,1],\n  [2,3], [8,8]]\nletting init = [[3,4]]\n";
const DIAGS: &str = "n = 8\nnumdiags = 3\ndiags = [[7,1],\n [7,0], [3,1]]\n";
const OUTPUT: &str = "c comment\ns SATISFIABLE\nv 1 -2 3 -4\nv 5 0\n";
const MINISAT: &str = "SAT\n1 -2 3 -4 5 0\n";
const PB_ANSWER: &str = "c clasp\nc Answer: 1\nv x1 -x2 x3\nv -x4 x5\ns SATISFIABLE\n";
const CBC_ANSWER: &str =
    "Optimal - objective value 0.00000000\n      1 x_0_1   1   0\n      7 x_1_3   1   0\n";
const MZN_ANSWER: &str =
    "q = [1, 3, 0, 2];\n----------\nq = [2, 0, 3, 1];\n----------\n==========\n";

fn header_sample() -> String {
    let mut inst = Instance::plain(6);
    inst.placed = vec![queens_sat::board::Cell::new(0, 1)];
    inst.blocked = vec![queens_sat::board::Cell::new(5, 5)];
    let p = Problem::presolve(&inst, QUEEN).unwrap();
    let (bytes, _) = write_cnf(Vec::new(), &p, AmoKind::Product, Some("x.txt")).unwrap();
    String::from_utf8(bytes).unwrap()
}

/// A near-valid mutation: up to 6 edits (replace, insert, delete) with bytes drawn from the
/// characters these formats use.
fn mutate(sample: &str, edits: &[(usize, u8, u8)]) -> String {
    const ALPHABET: &[u8] = b"Qx.# \n[],-0123456789=letnbgdiasvcpSAT\t$*%\\_;>";
    let mut bytes = sample.as_bytes().to_vec();
    for &(pos, op, ch) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = pos % bytes.len();
        let c = ALPHABET[ch as usize % ALPHABET.len()];
        match op % 3 {
            0 => bytes[i] = c,
            1 => bytes.insert(i, c),
            _ => {
                bytes.remove(i);
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn one_line<T, E: std::fmt::Display>(r: Result<T, E>) {
    if let Err(e) = r {
        let msg = e.to_string();
        assert!(!msg.contains('\n'), "multi-line error: {msg:?}");
    }
}

/// The header of every registered format's export of [`export_sample`] and of plain 4-queens
/// without presolve (row-major cells), read back.
fn format_headers() -> &'static [Header] {
    static HEADERS: std::sync::OnceLock<Vec<Header>> = std::sync::OnceLock::new();
    HEADERS.get_or_init(|| {
        Format::ALL
            .into_iter()
            .flat_map(|f| [export_sample(f), plain4(f)])
            .map(|text| read_header("f", text.as_bytes()).unwrap())
            .collect()
    })
}

/// Plain 4-queens without presolve in `format`.
fn plain4(format: Format) -> String {
    let p = Problem::new(&Instance::plain(4), QUEEN, false).unwrap();
    let (bytes, _) =
        queens_sat::export::write(format, Vec::new(), &p, AmoKind::DEFAULT, None).unwrap();
    String::from_utf8(bytes).unwrap()
}

/// The samples mutated: instance files, solver answers, a DIMACS header, and every registered
/// format's export and answer example.
fn samples() -> Vec<String> {
    let mut out: Vec<String> = [
        BOARD, PARAM, DIAGS, OUTPUT, MINISAT, PB_ANSWER, CBC_ANSWER, MZN_ANSWER,
    ]
    .map(String::from)
    .to_vec();
    out.push(header_sample());
    for format in Format::ALL {
        out.push(export_sample(format));
        out.push(format.info().answer_example.to_string());
    }
    out
}

fn all_parsers(text: &str) {
    one_line(parse_board("f", text));
    one_line(parse_param("f", text));
    one_line(parse_diags("f", text, None));
    one_line(parse_diags("f", text, Some(2)));
    one_line(read_instance("f", text, None));
    one_line(read_header("f", text.as_bytes()));
    one_line(parse_output("f", text, 10));
    for header in format_headers() {
        one_line(decode_answer(header, "f", text));
    }
}

/// The header of a small completion instance in `format` (DIMACS has [`header_sample`]).
fn export_sample(format: Format) -> String {
    let mut inst = Instance::plain(6);
    inst.placed = vec![queens_sat::board::Cell::new(0, 1)];
    inst.blocked = vec![queens_sat::board::Cell::new(5, 5)];
    let p = Problem::presolve(&inst, QUEEN).unwrap();
    let (bytes, _) =
        queens_sat::export::write(format, Vec::new(), &p, AmoKind::DEFAULT, Some("x.txt")).unwrap();
    String::from_utf8(bytes).unwrap()
}

proptest! {
    #![proptest_config(crate::properties::fixed_config(3000))]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        all_parsers(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn near_valid_mutations(
        which in any::<usize>(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let samples = samples();
        all_parsers(&mutate(&samples[which % samples.len()], &edits));
    }
}

#[test]
fn samples_parse() {
    assert!(parse_board("f", BOARD).is_ok());
    assert!(parse_param("f", PARAM).is_ok());
    assert!(parse_diags("f", DIAGS, None).is_ok());
    assert!(parse_output("f", OUTPUT, 10).is_ok());
    assert!(parse_output("f", MINISAT, 10).is_ok());
    let h = read_header("f", header_sample().as_bytes()).unwrap();
    assert_eq!(h.instance.n, 6);
    for format in Format::ALL {
        let h = read_header("f", export_sample(format).as_bytes()).unwrap();
        assert_eq!((h.format, h.instance.n), (format, 6));
        // The answer example is a solution of plain 4-queens.
        let h = read_header("f", plain4(format).as_bytes()).unwrap();
        let answer = decode_answer(&h, "f", format.info().answer_example).unwrap();
        let board = answer.sat().unwrap_or_else(|| panic!("{format}: not SAT"));
        queens_sat::verify::verify(board, &h.instance, QUEEN).unwrap();
    }
}
