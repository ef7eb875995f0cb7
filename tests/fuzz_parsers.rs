//! Property tests: every parser answers arbitrary bytes and near-valid mutations of real samples
//! with `Ok` or a clean one-line error, never a panic. (Coverage-guided fuzzing of the same
//! parsers lives in fuzz/.)

use proptest::prelude::*;
use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::dimacs::read_header;
use queens_sat::encode::file::write_cnf;
use queens_sat::instance::{Instance, parse_board, parse_diags, parse_param, read_instance};
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;
use queens_sat::solve::output::parse_output;

const BOARD: &str =
    "# a completion instance\nQ . . . x\n. . . . .\n. x . . .\n. . . . .\n. . . . .\n";
const PARAM: &str = "language ESSENCE' 1.0\n$ prob080\nletting n be 8\nletting blocks be [[1,1],\n  [2,3], [8,8]]\nletting init = [[3,4]]\n";
const DIAGS: &str = "n = 8\nnumdiags = 3\ndiags = [[7,1],\n [7,0], [3,1]]\n";
const OUTPUT: &str = "c comment\ns SATISFIABLE\nv 1 -2 3 -4\nv 5 0\n";
const MINISAT: &str = "SAT\n1 -2 3 -4 5 0\n";

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
    const ALPHABET: &[u8] = b"Qx.# \n[],-0123456789=letnbgdiasvcpSAT\t$";
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

fn all_parsers(text: &str) {
    one_line(parse_board("f", text));
    one_line(parse_param("f", text));
    one_line(parse_diags("f", text, None));
    one_line(parse_diags("f", text, Some(2)));
    one_line(read_instance("f", text, None));
    one_line(read_header("f", text.as_bytes()));
    one_line(parse_output("f", text, 10));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        all_parsers(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn near_valid_mutations(
        which in 0usize..6,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let header = header_sample();
        let sample = [BOARD, PARAM, DIAGS, OUTPUT, MINISAT, header.as_str()][which];
        all_parsers(&mutate(sample, &edits));
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
}
