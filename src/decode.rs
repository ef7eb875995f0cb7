//! Decoding: a model back to a board through the variable map.

use crate::answer::Model;
use crate::board::Board;
use crate::board::Cell;
use crate::varmap::VarMap;

/// The board a model describes: the fixed (pre-placed) pieces plus every live cell whose
/// variable is true. Auxiliary variables are ignored.
///
/// ```
/// use queens_sat::{decode::decode, answer::Model, varmap::VarMap, board::Cell};
/// let m = Model::from_true_vars(16, [2, 8, 9, 15]);
/// let b = decode(&VarMap::row_major(4), &[], &m);
/// assert_eq!(b.pieces, vec![Cell::new(0, 1), Cell::new(1, 3), Cell::new(2, 0), Cell::new(3, 2)]);
/// ```
pub fn decode(varmap: &VarMap, fixed: &[Cell], model: &Model) -> Board {
    let mut pieces: Vec<Cell> = fixed.to_vec();
    pieces.extend(
        varmap
            .cells()
            .filter(|&(_, v)| model.value(v))
            .map(|(c, _)| c),
    );
    pieces.sort_unstable();
    pieces.dedup();
    Board::new(varmap.n(), pieces)
}
