//! Solve a completion / blocked / excluded-diagonal instance from a file with the default
//! strategy, as `queens-sat solve --instance FILE` does, and print the verified board.
//!
//! ```sh
//! cargo run --release --example solve_file -- docs/board.txt [--piece amazon] [--timeout 60]
//! ```

use std::process::ExitCode;
use std::time::Duration;

use queens_sat::answer::Answer;
use queens_sat::instance::read_instance_file;
use queens_sat::piece::Piece;
use queens_sat::solve::Solver;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("solve_file: {e}");
            ExitCode::from(1)
        }
    }
}

fn run(args: &[String]) -> queens_sat::Result<ExitCode> {
    let usage =
        || queens_sat::Error::Usage("usage: solve_file FILE [--piece P] [--timeout S]".into());
    let path = args.first().ok_or_else(usage)?;
    let mut piece = Piece::parse("queen")?;
    let mut timeout = None;
    for pair in args[1..].chunks(2) {
        match pair {
            [flag, value] if flag == "--piece" => piece = Piece::parse(value)?,
            [flag, value] if flag == "--timeout" => {
                let secs: f64 = value.parse().map_err(|_| usage())?;
                timeout = Some(Duration::from_secs_f64(secs));
            }
            _ => return Err(usage()),
        }
    }
    let instance = read_instance_file(path.as_ref(), None)?;
    let report = Solver::new(&instance, piece).timeout(timeout).solve()?;
    match &report.status {
        // The board passed the independent checker before the library returned it.
        Answer::Sat(board) => {
            let obstacles = instance.obstacles();
            print!("{}", board.to_text(|c| obstacles.contains(c)));
        }
        other => println!("{}", other.label()),
    }
    eprintln!(
        "{} by {} in {:.3} s",
        report.status.label(),
        report.solver,
        report.encode_seconds + report.solve_seconds
    );
    Ok(ExitCode::from(report.status.exit_code()))
}
