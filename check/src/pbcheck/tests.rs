//! Unit tests of the arithmetic, the parser and small proofs.

use super::*;

fn constr(text: &str) -> Constr {
    // A checker over nothing, with the constraint read like a `rup`'s.
    let mut ck = PbChecker::new(10, &[]).unwrap();
    let mut lex = Lexer::new(text.as_bytes());
    let c = parse_linear(&mut lex, false).ok().unwrap();
    let lits = c
        .terms
        .iter()
        .map(|&(a, l)| (a, 2 * l.unsigned_abs() + u32::from(l < 0)));
    ck.normalize(lits, c.relation == Relation::Ge, c.rhs)
        .ok()
        .unwrap()
}

/// `(coef, dimacs literal)` sorted by variable, and the degree.
fn show(c: &Constr) -> (Vec<(i64, i32)>, i64) {
    let mut t: Vec<(i64, i32)> = (0..c.lits.len())
        .map(|i| {
            let l = c.lits[i];
            let v = (l >> 1) as i32;
            (c.coef(i), if l & 1 == 1 { -v } else { v })
        })
        .collect();
    t.sort_by_key(|&(_, l)| l.abs());
    (t, c.degree)
}

#[test]
fn normalization_of_x_and_not_x_terms() {
    // 3 x1 + 2 ~x1 >= 2  ->  x1 + 2 >= 2  ->  x1 >= 0.
    assert_eq!(show(&constr("3 x1 2 ~x1 >= 2")), (vec![(1, 1)], 0));
    // 1 x1 + 3 ~x1 >= 2  ->  2 ~x1 + 1 >= 2  ->  2 ~x1 >= 1.
    assert_eq!(show(&constr("1 x1 3 ~x1 >= 2")), (vec![(2, -1)], 1));
    // -2 x1 + 1 x2 >= -1  ->  2 ~x1 + x2 >= 1.
    assert_eq!(
        show(&constr("-2 x1 1 x2 >= -1")),
        (vec![(2, -1), (1, 2)], 1)
    );
    // x1 + x2 <= 1  ->  ~x1 + ~x2 >= 1.
    assert_eq!(show(&constr("1 x1 1 x2 <= 1")), (vec![(1, -1), (1, -2)], 1));
    // 2 x1 - 2 x1 >= 1: nothing left, degree 1 (a contradiction).
    let c = constr("2 x1 -2 x1 >= 1");
    assert_eq!(show(&c), (vec![], 1));
    assert!(c.is_contradiction());
    // Repeated literals add up; -3 ~x2 is 3 x2 - 3.
    assert_eq!(show(&constr("1 x2 1 x2 -3 ~x2 >= 2")), (vec![(5, 2)], 5));
}

fn dense_of(text: &str) -> Dense {
    let c = constr(text);
    let mut d = Dense::default();
    d.grow(11);
    d.add_constr(&c, 1).unwrap();
    d
}

#[test]
fn saturation_division_weakening() {
    // 5 x1 + 2 ~x2 + x3 >= 3, saturated: 3 x1 + 2 ~x2 + x3 >= 3.
    let mut d = dense_of("5 x1 2 ~x2 1 x3 >= 3");
    d.saturate().unwrap();
    assert_eq!(
        show(&d.normalized().unwrap()),
        (vec![(3, 1), (2, -2), (1, 3)], 3)
    );
    // A trivial constraint loses its terms and keeps its degree.
    let mut d = dense_of("5 x1 2 ~x2 >= -4");
    d.saturate().unwrap();
    assert_eq!(show(&d.normalized().unwrap()), (vec![], -4));
    // Division by 2 rounds up: 5 x1 + 2 ~x2 + x3 >= 3 -> 3 x1 + ~x2 + x3 >= 2.
    let mut d = dense_of("5 x1 2 ~x2 1 x3 >= 3");
    d.divide(2).unwrap();
    assert_eq!(
        show(&d.normalized().unwrap()),
        (vec![(3, 1), (1, -2), (1, 3)], 2)
    );
    // A negative degree rounds up too: -3 / 2 -> -1.
    let mut d = dense_of("4 x1 >= -3");
    d.divide(2).unwrap();
    assert_eq!(show(&d.normalized().unwrap()), (vec![(2, 1)], -1));
    // Weakening x2 away: 3 x1 + 2 ~x2 + x3 >= 4 -> 3 x1 + x3 >= 2.
    let mut d = dense_of("3 x1 2 ~x2 1 x3 >= 4");
    d.weaken(2).unwrap();
    d.weaken(7).unwrap();
    assert_eq!(show(&d.normalized().unwrap()), (vec![(3, 1), (1, 3)], 2));
}

#[test]
fn addition_cancels_opposite_literals() {
    // (2 x1 + x2 >= 2) + 3 (~x1 + x3 >= 1) = 2 x1 + 3 ~x1 + x2 + 3 x3 >= 5
    //   = ~x1 + x2 + 3 x3 >= 3.
    let mut d = dense_of("2 x1 1 x2 >= 2");
    d.add_constr(&constr("1 ~x1 1 x3 >= 1"), 3).unwrap();
    assert_eq!(
        show(&d.normalized().unwrap()),
        (vec![(1, -1), (1, 2), (3, 3)], 3)
    );
}

#[test]
fn overflow_is_an_error() {
    let mut d = dense_of("4611686018427387904 x1 >= 1");
    assert!(d.multiply(2).is_none());
    d.clear();
    let mut ck = PbChecker::new(2, &[]).unwrap();
    let big = 1i64 << 62;
    let r = ck.normalize([(big, 2), (big, 4)].into_iter(), true, 1);
    assert!(r.is_err(), "the coefficients' sum overflows");
    let r = ck.normalize([(big, 2), (big, 3)].into_iter(), true, 1);
    assert!(r.is_ok(), "x1 and ~x1 cancel");
    let r = ck.normalize([(i64::MIN, 2)].into_iter(), false, 0);
    assert!(r.is_err(), "-(-2^63) overflows");
}

fn run(opb: &str, proof: &str) -> Result<PbVerdict> {
    let mut ck = PbChecker::from_opb(opb, "t.opb")?;
    ck.check_text(proof)?;
    ck.finish()
}

const OPB: &str = "* #variable= 2 #constraint= 2\n+1 x1 +1 x2 >= 1 ;\n+1 x1 +1 x2 <= 0 ;\n";

#[test]
fn a_small_refutation() {
    let head = "pseudo-Boolean proof version 3.0\nf 2 ;\n";
    let tail = "output NONE ;\nconclusion UNSAT : -1 ;\nend pseudo-Boolean proof ;\n";
    // Hinted rup, then pol, then both without the hints' order mattering.
    let v = run(OPB, &format!("{head}rup >= 1 : 1 2 ;\n{tail}")).unwrap();
    assert!(v.unsat);
    assert_eq!(v.contradiction, Some(3));
    let v = run(OPB, &format!("{head}pol 1 2 + ;\n{tail}")).unwrap();
    assert!(v.unsat);
    let v = run(OPB, &format!("{head}rup >= 1 ;\n% a comment\n{tail}")).unwrap();
    assert_eq!(v.steps.rup_unhinted, 1);
    // Statements over several lines, two on one line.
    let v = run(
        OPB,
        &format!("{head}rup\n >= 1 :\n 1 2 ; del id 2 ;\n{tail}"),
    )
    .unwrap();
    assert!(v.unsat);
    // A proof that concludes nothing is no refutation.
    let v = run(
        OPB,
        &format!("{head}output NONE ;\nconclusion NONE ;\nend pseudo-Boolean proof ;\n"),
    )
    .unwrap();
    assert!(!v.unsat);
}

/// `check_reader_until` asks `stop` every 256 lines: a stop is heard within a few lines'
/// checking, and a proof it stops is no verdict (the checker has read only that far).
#[test]
fn a_reader_is_checked_until_stop_says_so() {
    let head = "pseudo-Boolean proof version 3.0\nf 2 ;\n";
    let tail =
        "rup >= 1 : 1 2 ;\noutput NONE ;\nconclusion UNSAT : -1 ;\nend pseudo-Boolean proof ;\n";
    let proof = format!("{head}{}{tail}", "% a comment\n".repeat(600));
    let asked = std::cell::Cell::new(0);
    let count = || {
        asked.set(asked.get() + 1);
        false
    };
    let mut ck = PbChecker::from_opb(OPB, "t.opb").unwrap();
    assert!(ck.check_reader_until(proof.as_bytes(), &count).unwrap());
    assert!(ck.finish().unwrap().unsat);
    assert_eq!(asked.get(), 3, "before lines 1, 257 and 513 of 606");
    let second = || {
        asked.set(asked.get() + 1);
        asked.get() == 5
    };
    let mut ck = PbChecker::from_opb(OPB, "t.opb").unwrap();
    assert!(!ck.check_reader_until(proof.as_bytes(), &second).unwrap());
    assert!(ck.finish().is_err(), "a stopped proof concludes nothing");
}

#[test]
fn the_checker_can_move_to_another_thread() {
    fn send<T: Send>() {}
    send::<PbChecker>();
}

#[test]
fn structured_steps() {
    let mut ck = PbChecker::from_opb(OPB, "t.opb").unwrap();
    // `pol 1 ~x1 + ;` is x2 >= 0... then the refutation of the text test.
    assert_eq!(
        ck.pol_sum(&[(Operand::Id(1), 1), (Operand::Axiom(Lit::neg(1)), 2)])
            .unwrap(),
        3
    );
    assert_eq!(ck.rup(&[(1, -2)], Relation::Ge, 1, &[2]).unwrap(), 4);
    assert!(ck.rup(&[(1, 2)], Relation::Ge, 1, &[4]).is_err());
    ck.delete(&[3, -1]).unwrap();
    assert!(ck.delete(&[3]).unwrap_err().to_string().contains("deleted"));
    assert!(ck.pol_sum(&[(Operand::Id(1), 0)]).is_err());
    assert_eq!(ck.rup(&[], Relation::Ge, 1, &[1, 2]).unwrap(), 5);
    let v = ck.conclude_unsat(None).unwrap();
    assert!(v.unsat);
    assert_eq!(v.contradiction, Some(5));
    assert_eq!((v.steps.rup, v.steps.pol, v.steps.deleted), (2, 1, 2));
    // No contradiction: an error.
    let ck = PbChecker::from_opb(OPB, "t.opb").unwrap();
    assert!(ck.conclude_unsat(Some(1)).is_err());
}

#[test]
fn bad_proofs_fail() {
    let head = "pseudo-Boolean proof version 3.0\n";
    let tail = "output NONE ;\nconclusion UNSAT : -1 ;\nend pseudo-Boolean proof ;\n";
    for (proof, what) in [
        (format!("{head}rup >= 1 : 1 ;\n{tail}"), "does not check"),
        (format!("{head}rup >= 1 : 1 3 ;\n{tail}"), "does not exist"),
        (
            format!("{head}del id 2 ;\nrup >= 1 : 1 2 ;\n{tail}"),
            "deleted",
        ),
        (format!("{head}pol 1 ;\n{tail}"), "no contradiction"),
        (format!("{head}rup >= 1 : 1 2 ;\n"), "without `end"),
        (format!("{head}* a comment\n{tail}"), "rule name"),
        (format!("{head}f 3 ;\n{tail}"), "database holds 2"),
        (format!("{head}pol 1 2 ;\n{tail}"), "one constraint"),
        (format!("{head}pol 1 0 * ;\n{tail}"), "neither"),
        (format!("{head}rup 1 x01 >= 1 : 1 ;\n{tail}"), "x01"),
        (format!("{head}del id 1 ; del id 1 ;\n{tail}"), "deleted"),
        (tail.to_string(), "header"),
        (format!("{head}rup >= 1 : 1 2 ;\n{tail}% late\n"), "after"),
        (
            format!("{head}output NONE ;\nconclusion UNSAT ;\nend pseudo-Boolean proof ;\n"),
            "no contradiction",
        ),
    ] {
        let e = run(OPB, &proof).unwrap_err().to_string();
        assert!(e.contains(what), "{proof:?}: {e}");
    }
}

#[test]
fn structured_rpn_steps_check_as_their_text() {
    // `pol 1 ~x1 2 * + 2 d ;` through the text and through `pol_rpn`: the same constraint.
    let mut text = PbChecker::from_opb(OPB, "t.opb").unwrap();
    text.check_text("pseudo-Boolean proof version 3.0\npol 1 ~x1 2 * + 2 d ;\n")
        .unwrap();
    let mut rpn = PbChecker::from_opb(OPB, "t.opb").unwrap();
    let ops = [
        PolOp::Id(1),
        PolOp::Axiom(Lit::neg(1)),
        PolOp::Mul(2),
        PolOp::Add,
        PolOp::Div(2),
    ];
    let id = rpn.pol_rpn(&ops).unwrap();
    assert_eq!(id, text.last_id());
    assert_eq!(show(&rpn.orig[id as usize - 1].clone().unwrap()), {
        show(&text.orig[id as usize - 1].clone().unwrap())
    });
    assert_eq!(rpn.steps().pol_operands, text.steps().pol_operands);
    // Malformed: an operation on an empty stack, a missing constraint, two left over.
    assert!(rpn.pol_rpn(&[PolOp::Add]).is_err());
    assert!(rpn.pol_rpn(&[PolOp::Id(99)]).is_err());
    let e = rpn.pol_rpn(&[PolOp::Id(1), PolOp::Id(2)]).unwrap_err();
    assert!(e.to_string().contains("one constraint"), "{e}");
}
