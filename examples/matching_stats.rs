//! Measures the all-different presolve filter (src/matching.rs) on instance files.
//!
//! For each file and each filter: the live cells, the cells removed, whether the filter proved
//! UNSAT, the presolve time, the number of Hall-set diagonal clauses, and the effect inside
//! cubes (split on the shortest line, depth 1 and 2: how many cubes plain presolve and the
//! filter refute). With `--cnf DIR`, writes DIR/NAME.FILTER.cnf (amo auto) for each filter and
//! DIR/NAME.hall.cnf (alldiff filter plus the Hall-set clauses) for an external solver.
//!
//! `cargo run --release --example matching_stats -- [--cnf DIR] FILE[:DIAGS]...`

#[path = "../tests/it/common/hall.rs"]
mod hall;

use hall::hall_clauses;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

use queens_sat::board::Cell;
use queens_sat::encode::amo::AmoKind;
use queens_sat::export::dimacs::write_cnf;
use queens_sat::instance::{Instance, read_instance_file};
use queens_sat::piece::QUEEN;
use queens_sat::presolve::Filter;
use queens_sat::presolve::Problem;

/// The live cells of the shortest row or column of `p`.
fn shortest_line(p: &Problem) -> Vec<Cell> {
    let n = p.n;
    let mut by_col: Vec<Vec<Cell>> = vec![Vec::new(); n as usize];
    let mut best: Vec<Cell> = Vec::new();
    for r in 0..n {
        let cells: Vec<Cell> = p.varmap.row_cols(r).map(|c| Cell::new(r, c)).collect();
        for &c in &cells {
            by_col[c.col as usize].push(c);
        }
        if !cells.is_empty() && (best.is_empty() || cells.len() < best.len()) {
            best = cells;
        }
    }
    for cells in by_col {
        if !cells.is_empty() && cells.len() < best.len() {
            best = cells;
        }
    }
    best
}

/// Cubes at depths 1..=`depth` (each level splits the unrefuted cubes of the level above on
/// their shortest line): (cubes, refuted by plain presolve, refuted by the filter) per depth.
fn cube_stats(inst: &Instance, depth: usize) -> Vec<(usize, usize, usize)> {
    let mut out = vec![(0, 0, 0); depth];
    let root = Problem::presolve_with(inst, QUEEN, Filter::None).unwrap();
    let mut level: Vec<(Instance, Problem)> = vec![(inst.clone(), root)];
    for slot in &mut out {
        let mut next = Vec::new();
        for (inst, p) in &level {
            for cell in shortest_line(p) {
                let mut cube = inst.clone();
                cube.placed.push(cell);
                let plain = Problem::presolve_with(&cube, QUEEN, Filter::None).unwrap();
                let filtered = Problem::presolve_with(&cube, QUEEN, Filter::AllDifferent).unwrap();
                slot.0 += 1;
                slot.1 += usize::from(plain.unsat.is_some());
                slot.2 += usize::from(filtered.unsat.is_some());
                if plain.unsat.is_none() {
                    next.push((cube, plain));
                }
            }
        }
        level = next;
    }
    out
}

fn write(path: &str, p: &Problem, extra: &[Vec<u32>]) {
    let (buf, _) = write_cnf(Vec::new(), p, AmoKind::Auto, None).unwrap();
    let text = String::from_utf8(buf).unwrap();
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("p cnf ") {
            let mut it = rest.split_whitespace();
            let v: u64 = it.next().unwrap().parse().unwrap();
            let c: u64 = it.next().unwrap().parse().unwrap();
            writeln!(f, "p cnf {v} {}", c + extra.len() as u64).unwrap();
        } else {
            writeln!(f, "{line}").unwrap();
        }
    }
    for clause in extra {
        for v in clause {
            write!(f, "{v} ").unwrap();
        }
        writeln!(f, "0").unwrap();
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut cnf_dir = None;
    let depth: usize = std::env::var("DEPTH").map_or(2, |d| d.parse().expect("DEPTH"));
    if args.first().map(String::as_str) == Some("--cnf") {
        cnf_dir = Some(args[1].clone());
        args.drain(..2);
    }
    println!(
        "file\tfilter\tcells\tremoved\tunsat\tpresolve_ms\thall_clauses\tcubes/refuted_plain/refuted_filter at depth 1..DEPTH"
    );
    for arg in &args {
        let (path, diags) = match arg.rsplit_once(':') {
            Some((p, d)) => (p, Some(d.parse::<usize>().expect("DIAGS"))),
            None => (arg.as_str(), None),
        };
        let inst = read_instance_file(Path::new(path), diags).expect("instance");
        let stem = Path::new(path)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let stem = match diags {
            Some(d) => format!("{stem}_D{d}"),
            None => stem,
        };
        let base = Problem::presolve_with(&inst, QUEEN, Filter::None).unwrap();
        let cubes = cube_stats(&inst, depth);
        let cube_cols: Vec<String> = cubes
            .iter()
            .map(|(c, p, f)| format!("{c}/{p}/{f}"))
            .collect();
        for which in Filter::ALL {
            let t = Instant::now();
            let p = Problem::presolve_with(&inst, QUEEN, which).unwrap();
            let ms = t.elapsed().as_secs_f64() * 1e3;
            let hall = hall_clauses(&p);
            println!(
                "{stem}\t{}\t{}\t{}\t{}\t{ms:.2}\t{}\t{}",
                which.name(),
                p.num_cells(),
                base.num_cells() - p.num_cells(),
                p.unsat.is_some() && base.unsat.is_none(),
                hall.len(),
                cube_cols.join("\t"),
            );
            if let Some(dir) = &cnf_dir {
                write(&format!("{dir}/{stem}.{}.cnf", which.name()), &p, &[]);
                if which == Filter::AllDifferent {
                    write(&format!("{dir}/{stem}.hall.cnf"), &p, &hall);
                }
            }
        }
    }
}
