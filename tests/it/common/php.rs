//! The pigeonhole formula: `pigeons` pigeons in `holes` holes, each pigeon in some hole and no
//! two in the same one. UNSAT when pigeons > holes, and hard for every CDCL solver by
//! construction (resolution refutations are exponential in the holes: Haken 1985), so the stop
//! paths can be tested on it whatever the solver version of the day.

use queens_sat::encode::{ClauseSink, Lit};
use queens_sat::solve::traits::Formula;

/// PHP(pigeons, holes) with variable `p * holes + h + 1` for pigeon p in hole h.
pub struct Pigeonhole {
    /// Pigeons.
    pub pigeons: u32,
    /// Holes.
    pub holes: u32,
}

impl Formula for Pigeonhole {
    fn load(&self, sink: &mut dyn ClauseSink) -> u64 {
        let var = |p: u32, h: u32| p * self.holes + h + 1;
        for p in 0..self.pigeons {
            let clause: Vec<Lit> = (0..self.holes).map(|h| Lit::pos(var(p, h))).collect();
            sink.add_clause(&clause);
        }
        for h in 0..self.holes {
            for p in 0..self.pigeons {
                for q in p + 1..self.pigeons {
                    sink.add_clause(&[Lit::neg(var(p, h)), Lit::neg(var(q, h))]);
                }
            }
        }
        u64::from(self.pigeons * self.holes)
    }
}
