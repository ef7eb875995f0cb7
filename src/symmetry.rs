//! The 8 symmetries of the square (the dihedral group D4) acting on cells, and the stabiliser of
//! an instance: the elements that map its pre-placed pieces and unavailable cells onto themselves.

use std::collections::HashSet;

use crate::board::Cell;
use crate::instance::Instance;
use crate::piece::{LineKind, Piece};

/// One element of D4.
///
/// Conventions on an `n x n` board with `m = n - 1`:
/// `r90` turns the board a quarter clockwise, `(r, c) -> (c, m - r)`; `flip_h` mirrors top and
/// bottom (about the horizontal axis), `(r, c) -> (m - r, c)`; `flip_v` mirrors left and right,
/// `(r, c) -> (r, m - c)`; `flip_d` transposes about the main diagonal, `(r, c) -> (c, r)`;
/// `flip_a` about the anti-diagonal, `(r, c) -> (m - c, m - r)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symmetry {
    /// Identity.
    Id,
    /// Rotation by 90 degrees clockwise.
    R90,
    /// Rotation by 180 degrees.
    R180,
    /// Rotation by 270 degrees clockwise.
    R270,
    /// Mirror about the horizontal axis (top <-> bottom).
    FlipH,
    /// Mirror about the vertical axis (left <-> right).
    FlipV,
    /// Transpose about the main diagonal.
    FlipD,
    /// Transpose about the anti-diagonal.
    FlipA,
}

impl Symmetry {
    /// All eight elements, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Id,
        Symmetry::R90,
        Symmetry::R180,
        Symmetry::R270,
        Symmetry::FlipH,
        Symmetry::FlipV,
        Symmetry::FlipD,
        Symmetry::FlipA,
    ];

    /// The element's name (`id`, `r90`, `r180`, `r270`, `flip_h`, `flip_v`, `flip_d`, `flip_a`).
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::Id => "id",
            Symmetry::R90 => "r90",
            Symmetry::R180 => "r180",
            Symmetry::R270 => "r270",
            Symmetry::FlipH => "flip_h",
            Symmetry::FlipV => "flip_v",
            Symmetry::FlipD => "flip_d",
            Symmetry::FlipA => "flip_a",
        }
    }

    /// Looks an element up by name.
    ///
    /// ```
    /// use queens_sat::symmetry::Symmetry;
    /// assert_eq!(Symmetry::by_name("r90"), Some(Symmetry::R90));
    /// assert_eq!(Symmetry::by_name("r45"), None);
    /// ```
    pub fn by_name(name: &str) -> Option<Symmetry> {
        Symmetry::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The image of `cell` on an `n x n` board.
    ///
    /// ```
    /// use queens_sat::{board::Cell, symmetry::Symmetry};
    /// assert_eq!(Symmetry::R90.apply(Cell::new(0, 0), 8), Cell::new(0, 7));
    /// assert_eq!(Symmetry::FlipA.apply(Cell::new(0, 1), 8), Cell::new(6, 7));
    /// ```
    #[inline]
    pub fn apply(self, cell: Cell, n: u32) -> Cell {
        let m = n - 1;
        let (r, c) = (cell.row, cell.col);
        let (r2, c2) = match self {
            Symmetry::Id => (r, c),
            Symmetry::R90 => (c, m - r),
            Symmetry::R180 => (m - r, m - c),
            Symmetry::R270 => (m - c, r),
            Symmetry::FlipH => (m - r, c),
            Symmetry::FlipV => (r, m - c),
            Symmetry::FlipD => (c, r),
            Symmetry::FlipA => (m - c, m - r),
        };
        Cell::new(r2, c2)
    }

    /// The inverse element.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::R90 => Symmetry::R270,
            Symmetry::R270 => Symmetry::R90,
            other => other,
        }
    }

    /// The image of an offset (the element's linear part).
    pub fn apply_offset(self, (dr, dc): (i32, i32)) -> (i32, i32) {
        match self {
            Symmetry::Id => (dr, dc),
            Symmetry::R90 => (dc, -dr),
            Symmetry::R180 => (-dr, -dc),
            Symmetry::R270 => (-dc, dr),
            Symmetry::FlipH => (-dr, dc),
            Symmetry::FlipV => (dr, -dc),
            Symmetry::FlipD => (dc, dr),
            Symmetry::FlipA => (-dc, -dr),
        }
    }

    /// Whether the element maps `piece`'s attack pattern onto itself (true for queen and amazon
    /// and every element; a piece that is not D4-symmetric loses the elements it is not
    /// invariant under).
    pub fn preserves(self, piece: &Piece) -> bool {
        let dir = |k: LineKind| match k {
            LineKind::Row => (0, 1),
            LineKind::Column => (1, 0),
            LineKind::Diagonal => (1, 1),
            LineKind::AntiDiagonal => (1, -1),
        };
        let norm = |(a, b): (i32, i32)| {
            if a < 0 || (a == 0 && b < 0) {
                (-a, -b)
            } else {
                (a, b)
            }
        };
        let lines: HashSet<(i32, i32)> = piece.lines.iter().map(|&k| dir(k)).collect();
        let leaps: HashSet<(i32, i32)> = piece.leaps.iter().copied().collect();
        lines
            .iter()
            .all(|&d| lines.contains(&norm(self.apply_offset(d))))
            && leaps.iter().all(|&d| leaps.contains(&self.apply_offset(d)))
    }
}

impl Symmetry {
    /// The composition `self ∘ other`: `other` first, then `self`.
    ///
    /// ```
    /// use queens_sat::symmetry::Symmetry;
    /// assert_eq!(Symmetry::R90.compose(Symmetry::R90), Symmetry::R180);
    /// assert_eq!(Symmetry::FlipH.compose(Symmetry::FlipV), Symmetry::R180);
    /// ```
    pub fn compose(self, other: Symmetry) -> Symmetry {
        // The 3 x 3 board tells the eight elements apart.
        let n = 3;
        let probe = [Cell::new(0, 0), Cell::new(0, 1)];
        Symmetry::ALL
            .into_iter()
            .find(|h| {
                probe
                    .iter()
                    .all(|&c| h.apply(c, n) == self.apply(other.apply(c, n), n))
            })
            .expect("D4 is closed under composition")
    }

    /// Whether `self` maps the cyclic group `<g>` onto itself (`self g self^-1` is in `<g>`), so
    /// that it maps the boards `g` fixes onto boards `g` fixes.
    ///
    /// ```
    /// use queens_sat::symmetry::Symmetry;
    /// assert!(Symmetry::FlipH.normalises(Symmetry::R90)); // flip_h r90 flip_h = r270
    /// assert!(!Symmetry::R90.normalises(Symmetry::FlipH)); // r90 flip_h r270 = flip_v
    /// ```
    pub fn normalises(self, g: Symmetry) -> bool {
        let conj = self.compose(g).compose(self.inverse());
        generated(&[g]).contains(&conj)
    }
}

/// The subgroup of D4 generated by `elements`, in [`Symmetry::ALL`] order (identity first).
///
/// ```
/// use queens_sat::symmetry::{generated, Symmetry};
/// assert_eq!(generated(&[Symmetry::R180]), vec![Symmetry::Id, Symmetry::R180]);
/// assert_eq!(generated(&[Symmetry::R90, Symmetry::FlipH]).len(), 8);
/// ```
pub fn generated(elements: &[Symmetry]) -> Vec<Symmetry> {
    let mut group = vec![Symmetry::Id];
    loop {
        let before = group.len();
        for a in group.clone() {
            for &b in elements {
                let c = a.compose(b);
                if !group.contains(&c) {
                    group.push(c);
                }
            }
        }
        if group.len() == before {
            break;
        }
    }
    group.sort_unstable();
    group
}

/// The group a count works modulo (`count`'s `group`): the instance's symmetries
/// ([`stabiliser`]) that, under `--symmetric g`, also map `<g>` onto itself, so that they map
/// the g-symmetric solutions onto g-symmetric solutions. Every element of the stabiliser for
/// none, `id`, `r90`, `r180` or `r270`; of `id r180 flip_h flip_v` for `flip_h` / `flip_v`;
/// of `id r180 flip_d flip_a` for `flip_d` / `flip_a`. `g` itself need not be a symmetry of
/// the instance. `--break-symmetry lex` keeps one board per class of this group.
///
/// ```
/// use queens_sat::{instance::Instance, piece::QUEEN, symmetry::{count_group, Symmetry}};
/// let plain = Instance::plain(8);
/// assert_eq!(count_group(&plain, &QUEEN, Some(Symmetry::R90)).len(), 8);
/// assert_eq!(
///     count_group(&plain, &QUEEN, Some(Symmetry::FlipH)),
///     vec![Symmetry::Id, Symmetry::R180, Symmetry::FlipH, Symmetry::FlipV]
/// );
/// ```
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn count_group(
    instance: &Instance,
    piece: &Piece,
    symmetric: Option<Symmetry>,
) -> Vec<Symmetry> {
    stabiliser(instance, piece)
        .into_iter()
        .filter(|h| symmetric.is_none_or(|g| h.normalises(g)))
        .collect()
}

impl std::fmt::Display for Symmetry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The elements of D4 that map the instance (pre-placed pieces and unavailable cells) and the
/// piece's attack pattern onto themselves, identity first. All eight on a plain board.
///
/// ```
/// use queens_sat::{board::Cell, instance::Instance, piece::QUEEN, symmetry::{stabiliser, Symmetry}};
/// assert_eq!(stabiliser(&Instance::plain(8), &QUEEN).len(), 8);
/// let mut inst = Instance::plain(8);
/// inst.blocked = vec![Cell::new(0, 0)];
/// assert_eq!(stabiliser(&inst, &QUEEN), vec![Symmetry::Id, Symmetry::FlipD]);
/// ```
pub fn stabiliser(instance: &Instance, piece: &Piece) -> Vec<Symmetry> {
    let n = instance.n;
    let placed: HashSet<Cell> = instance.placed.iter().copied().collect();
    let obstacles = instance.obstacles();
    let blocked: Vec<Cell> = if instance.excluded.is_empty() {
        instance.blocked.clone()
    } else {
        (0..n)
            .flat_map(|r| (0..n).map(move |c| Cell::new(r, c)))
            .filter(|&c| obstacles.contains(c))
            .collect()
    };
    Symmetry::ALL
        .into_iter()
        .filter(|&g| {
            g.preserves(piece)
                && placed.iter().all(|&c| placed.contains(&g.apply(c, n)))
                && blocked.iter().all(|&c| obstacles.contains(g.apply(c, n)))
        })
        .collect()
}

/// The same key for an instance and each of its images under the 8 symmetries of the square:
/// the least, over the symmetries, of the sorted images of its pre-placed cells and of its
/// unavailable cells (blocked, or on an excluded diagonal) as row-major indices. Two instances
/// of one side with the same key are one instance up to a rotation or mirror (suites write
/// such duplicates once). O(8 n^2).
#[cfg_attr(
    not(feature = "oracle"),
    visibility::make(pub(crate)),
    allow(dead_code)
)]
pub fn orbit_key(instance: &Instance) -> (u32, Vec<u64>, Vec<u64>) {
    let n = instance.n;
    let obstacles = instance.obstacles();
    let blocked: Vec<Cell> = (0..n)
        .flat_map(|r| (0..n).map(move |c| Cell::new(r, c)))
        .filter(|&c| obstacles.contains(c))
        .collect();
    let image = |g: Symmetry, cells: &[Cell]| -> Vec<u64> {
        let mut v: Vec<u64> = cells
            .iter()
            .map(|&c| {
                let d = g.apply(c, n);
                u64::from(d.row) * u64::from(n) + u64::from(d.col)
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    Symmetry::ALL
        .into_iter()
        .map(|g| (n, image(g, &instance.placed), image(g, &blocked)))
        .min()
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::{AMAZON, QUEEN};

    #[test]
    fn group_structure() {
        let n = 7;
        let cells: Vec<Cell> = (0..n)
            .flat_map(|r| (0..n).map(move |c| Cell::new(r, c)))
            .collect();
        // r90 applied four times is the identity, and twice is r180.
        for &c in &cells {
            let mut x = c;
            for _ in 0..4 {
                x = Symmetry::R90.apply(x, n);
            }
            assert_eq!(x, c);
            assert_eq!(
                Symmetry::R90.apply(Symmetry::R90.apply(c, n), n),
                Symmetry::R180.apply(c, n)
            );
            // Every reflection is an involution.
            for g in [
                Symmetry::FlipH,
                Symmetry::FlipV,
                Symmetry::FlipD,
                Symmetry::FlipA,
            ] {
                assert_eq!(g.apply(g.apply(c, n), n), c);
            }
        }
        // The eight maps are distinct bijections.
        let images: HashSet<Vec<Cell>> = Symmetry::ALL
            .iter()
            .map(|g| cells.iter().map(|&c| g.apply(c, n)).collect())
            .collect();
        assert_eq!(images.len(), 8);
        // Inverses undo.
        for g in Symmetry::ALL {
            for &c in &cells {
                assert_eq!(g.inverse().apply(g.apply(c, n), n), c);
            }
        }
        // Offsets transform like cells.
        for g in Symmetry::ALL {
            let a = Cell::new(2, 3);
            let b = Cell::new(4, 4);
            let (ga, gb) = (g.apply(a, n), g.apply(b, n));
            let d = g.apply_offset((2, 1));
            assert_eq!(
                (gb.row as i32 - ga.row as i32, gb.col as i32 - ga.col as i32),
                d
            );
        }
    }

    #[test]
    fn queens_and_amazons_are_symmetric() {
        for g in Symmetry::ALL {
            assert!(g.preserves(&QUEEN) && g.preserves(&AMAZON));
        }
    }

    #[test]
    fn stabilisers_of_broken_boards() {
        let mut inst = Instance::plain(6);
        inst.placed = vec![Cell::new(0, 1)];
        assert_eq!(stabiliser(&inst, &QUEEN), vec![Symmetry::Id]);
        // Centre-symmetric blocking keeps the rotations by 180 degrees.
        let mut inst = Instance::plain(6);
        inst.blocked = vec![Cell::new(0, 1), Cell::new(5, 4)];
        assert_eq!(
            stabiliser(&inst, &QUEEN),
            vec![Symmetry::Id, Symmetry::R180]
        );
    }
}
