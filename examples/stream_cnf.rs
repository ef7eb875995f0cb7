//! Stream a CNF: into a DIMACS file with the queens-sat header (decodable later from the file
//! alone), and into a sink of your own (here one that only measures clause lengths).
//!
//! ```sh
//! cargo run --release --example stream_cnf -- 200 out.cnf
//! ```

use queens_sat::encode::amo::AmoKind;
use queens_sat::encode::{ClauseSink, EncodeOptions, Encoder, Lit};
use queens_sat::export::dimacs::write_cnf;
use queens_sat::instance::Instance;
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Problem;

/// A sink of our own: a histogram of clause lengths.
#[derive(Default)]
struct Lengths {
    by_len: Vec<u64>,
}

impl ClauseSink for Lengths {
    fn add_clause(&mut self, lits: &[Lit]) {
        if self.by_len.len() <= lits.len() {
            self.by_len.resize(lits.len() + 1, 0);
        }
        self.by_len[lits.len()] += 1;
    }
}

fn main() -> queens_sat::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(50);
    let out = args.get(1).cloned().unwrap_or_else(|| "stream.cnf".into());
    let problem = Problem::presolve(&Instance::plain(n), QUEEN)?;
    let options = EncodeOptions::from(AmoKind::Sequential);
    // 1. DIMACS with the header, streamed through a buffered file writer.
    let file = std::fs::File::create(&out).map_err(|e| queens_sat::Error::io(&out, e))?;
    let (_, report) = write_cnf(std::io::BufWriter::new(file), &problem, options, None)?;
    println!(
        "{out}: {} vars, {} clauses, {} bytes",
        report.stats.vars, report.stats.clauses, report.bytes
    );
    // 2. The same clauses into our own sink, without any text.
    let mut lengths = Lengths::default();
    let stats = Encoder::with_options(&problem, options).encode(&mut lengths);
    assert_eq!(stats.clauses, report.stats.clauses);
    for (len, count) in lengths.by_len.iter().enumerate().filter(|(_, c)| **c > 0) {
        println!("clauses of length {len}: {count}");
    }
    Ok(())
}
