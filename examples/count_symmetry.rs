//! Count the n-queens solutions with the fixed points of every symmetry of the board, and the
//! classes modulo the group by Burnside's lemma (`queens-sat count -n N`).
//!
//! ```sh
//! cargo run --release --example count_symmetry -- 10
//! ```

use queens_sat::count::{CountEngine, Counter};
use queens_sat::instance::Instance;
use queens_sat::piece::QUEEN;

fn main() -> queens_sat::Result<()> {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let c = Counter::new(&Instance::plain(n), QUEEN)
        .engine(CountEngine::Backtrack)
        .counts()?;
    println!(
        "{n}-queens: {} solutions, {} modulo symmetry",
        c.total, c.unique
    );
    for (g, fixed) in c.group.iter().zip(&c.fixed) {
        println!("  fixed by {g}: {fixed}");
    }
    Ok(())
}
