//! [`Text`]: the proof's text, the [`Sink`] of `search_veripb` and of a kept proof file.

use std::io::Write;

use super::{Id, Operand, PolOp, Sink};

/// A [`Sink`] writing the proof's text into `W` (a failed write shows at the final flush).
pub(crate) struct Text<W: Write> {
    out: W,
    line: Vec<u8>,
    bytes: u64,
    /// The first write that failed (the later ones are skipped): see [`Text::take_error`].
    error: Option<std::io::Error>,
}

impl<W: Write> Text<W> {
    /// The text sink over `out`.
    pub(crate) fn new(out: W) -> Text<W> {
        Text {
            out,
            line: Vec::with_capacity(256),
            bytes: 0,
            error: None,
        }
    }

    /// The first write that failed, if one did (a proof file past its budget, a full disk):
    /// the writer of a certified run stops on it at the end of the batch.
    pub(crate) fn take_error(&mut self) -> Option<std::io::Error> {
        self.error.take()
    }

    /// The output.
    pub(crate) fn into_inner(self) -> W {
        self.out
    }

    #[cfg_attr(not(feature = "oracle"), allow(dead_code))] // for the tests and examples
    /// The output, to flush it.
    pub(crate) fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    fn raw(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len() as u64;
        // A failed write is kept ([`Text::take_error`]) and the rest skipped.
        if self.error.is_none()
            && let Err(e) = self.out.write_all(bytes)
        {
            self.error = Some(e);
        }
    }

    fn flush_line(&mut self) {
        self.line.push(b'\n');
        let line = std::mem::take(&mut self.line);
        self.raw(&line);
        self.line = line;
        self.line.clear();
    }

    fn push_num(&mut self, x: i64) {
        self.line
            .extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
    }
}

impl<W: Write> Sink for Text<W> {
    fn header(&mut self, loaded: Id) {
        self.raw(format!("pseudo-Boolean proof version 3.0\nf {loaded} ;\n").as_bytes());
    }

    fn rup(&mut self, path: &[u32], hints: &[Id]) {
        self.line.extend_from_slice(b"rup");
        for &p in path {
            self.line.extend_from_slice(b" 1 ~x");
            self.push_num(i64::from(p));
        }
        self.line.extend_from_slice(b" >= 1 :");
        for &h in hints {
            self.line.push(b' ');
            self.push_num(h as i64);
        }
        self.line.extend_from_slice(b" ;");
        self.flush_line();
    }

    fn pol(&mut self, ops: &[(Operand, i64)]) {
        self.line.extend_from_slice(b"pol");
        for (i, &(op, mult)) in ops.iter().enumerate() {
            match op {
                Operand::Id(id) => {
                    self.line.push(b' ');
                    self.push_num(id as i64);
                }
                Operand::Axiom(l) => {
                    self.line
                        .extend_from_slice(if l.negated { b" ~x" } else { b" x" });
                    self.push_num(i64::from(l.var));
                }
            }
            if mult != 1 {
                self.line.push(b' ');
                self.push_num(mult);
                self.line.extend_from_slice(b" *");
            }
            if i > 0 {
                self.line.extend_from_slice(b" +");
            }
        }
        self.line.extend_from_slice(b" ;");
        self.flush_line();
    }

    fn pol_rpn(&mut self, ops: &[PolOp]) {
        write_rpn(&mut self.line, ops);
        self.flush_line();
    }

    fn delete(&mut self, ids: &[Id]) {
        self.line.extend_from_slice(b"del id");
        for &c in ids {
            self.line.push(b' ');
            self.push_num(c as i64);
        }
        self.line.extend_from_slice(b" ;");
        self.flush_line();
    }

    fn finish(&mut self, unsat: Option<Id>) {
        match unsat {
            Some(id) => self.raw(
                format!("output NONE ;\nconclusion UNSAT : {id} ;\nend pseudo-Boolean proof ;\n")
                    .as_bytes(),
            ),
            None => self.raw(b"output NONE ;\nconclusion NONE ;\nend pseudo-Boolean proof ;\n"),
        }
    }

    fn bytes(&self) -> u64 {
        self.bytes
    }
}

/// The text of a `pol` step over `ops` (reverse Polish), without the line's end.
pub(crate) fn write_rpn(line: &mut Vec<u8>, ops: &[PolOp]) {
    let num = |line: &mut Vec<u8>, x: i64| {
        line.extend_from_slice(itoa::Buffer::new().format(x).as_bytes());
    };
    line.extend_from_slice(b"pol");
    for &op in ops {
        match op {
            PolOp::Id(id) => {
                line.push(b' ');
                num(line, id as i64);
            }
            PolOp::Axiom(l) => {
                line.extend_from_slice(if l.negated { b" ~x" } else { b" x" });
                num(line, i64::from(l.var));
            }
            PolOp::Add => line.extend_from_slice(b" +"),
            PolOp::Mul(k) => {
                line.push(b' ');
                num(line, k);
                line.extend_from_slice(b" *");
            }
            PolOp::Div(k) => {
                line.push(b' ');
                num(line, k);
                line.extend_from_slice(b" d");
            }
        }
    }
    line.extend_from_slice(b" ;");
}
