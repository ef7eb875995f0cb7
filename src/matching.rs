//! Generic bipartite-matching algorithms: Hopcroft–Karp ([`max_matching`]), Régin's all-different
//! filter ([`regin`], [`mandatory`]) and Tarjan's strongly connected components, over a graph given
//! as adjacency lists (left vertex -> right vertices): Hopcroft–Karp in O(E √V), then one
//! strongly-connected-component pass and one alternating-path search in O(E). Presolve's
//! all-different filter on the board's lines ([`crate::presolve::filter`]) is built on them.

/// No vertex.
const NONE: u32 = u32::MAX;

/// A maximum matching of a bipartite graph by Hopcroft–Karp.
///
/// `adj[u]` lists the right vertices (`< n_right`) adjacent to left vertex `u`. Returns
/// `match_left[u]`: the right vertex matched to `u`, or `None`.
///
/// ```
/// use queens_sat::matching::max_matching;
/// // Left 0 and 1 both only see right 0: one of them stays unmatched.
/// let m = max_matching(&[vec![0], vec![0], vec![1, 2]], 3);
/// assert_eq!(m.iter().filter(|x| x.is_some()).count(), 2);
/// ```
pub fn max_matching(adj: &[Vec<u32>], n_right: usize) -> Vec<Option<u32>> {
    let (ml, _) = hopcroft_karp(adj, n_right);
    ml.into_iter().map(|v| (v != NONE).then_some(v)).collect()
}

/// Hopcroft–Karp: returns (match_left, match_right), `NONE` for unmatched.
fn hopcroft_karp(adj: &[Vec<u32>], n_right: usize) -> (Vec<u32>, Vec<u32>) {
    let nl = adj.len();
    let mut ml = vec![NONE; nl];
    let mut mr = vec![NONE; n_right];
    // Greedy start.
    for u in 0..nl {
        if let Some(&v) = adj[u].iter().find(|&&v| mr[v as usize] == NONE) {
            ml[u] = v;
            mr[v as usize] = u as u32;
        }
    }
    let mut dist = vec![u32::MAX; nl];
    let mut queue: Vec<u32> = Vec::with_capacity(nl);
    let mut it = vec![0usize; nl];
    let mut stack: Vec<u32> = Vec::new();
    loop {
        // BFS layers from the free left vertices.
        queue.clear();
        for u in 0..nl {
            if ml[u] == NONE {
                dist[u] = 0;
                queue.push(u as u32);
            } else {
                dist[u] = u32::MAX;
            }
        }
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head] as usize;
            head += 1;
            for &v in &adj[u] {
                let w = mr[v as usize];
                if w == NONE {
                    found = true;
                } else if dist[w as usize] == u32::MAX {
                    dist[w as usize] = dist[u] + 1;
                    queue.push(w);
                }
            }
        }
        if !found {
            break;
        }
        // Vertex-disjoint shortest augmenting paths by iterative DFS along the layers.
        it.iter_mut().for_each(|i| *i = 0);
        let mut augmented = false;
        for root in 0..nl {
            if ml[root] != NONE {
                continue;
            }
            stack.clear();
            stack.push(root as u32);
            while let Some(&u) = stack.last() {
                let u = u as usize;
                let mut advanced = false;
                while it[u] < adj[u].len() {
                    let v = adj[u][it[u]];
                    let w = mr[v as usize];
                    if w == NONE {
                        // Augment along the stack: each stacked vertex takes the edge it is on.
                        let mut v = v;
                        while let Some(x) = stack.pop() {
                            let x = x as usize;
                            let prev = ml[x];
                            ml[x] = v;
                            mr[v as usize] = x as u32;
                            v = prev;
                        }
                        augmented = true;
                        advanced = true;
                        break;
                    }
                    if dist[w as usize] == dist[u] + 1 {
                        stack.push(w);
                        advanced = true;
                        it[u] += 1;
                        break;
                    }
                    it[u] += 1;
                }
                if stack.is_empty() {
                    break;
                }
                if !advanced {
                    // Dead end: never visit u again in this phase.
                    dist[u] = u32::MAX;
                    stack.pop();
                }
            }
        }
        if !augmented {
            break;
        }
    }
    (ml, mr)
}

/// Why a bipartite graph has no left-saturating matching: a Hall set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HallViolation {
    /// Left vertices, ascending.
    pub left: Vec<u32>,
    /// All their neighbours, ascending (`right.len() < left.len()`).
    pub right: Vec<u32>,
}

/// Régin's filter for an all-different constraint whose variables are the left vertices.
///
/// Returns, for every edge `adj[u][i]`, whether it lies in some matching that saturates every
/// left vertex; or the Hall set that proves no such matching exists.
///
/// ```
/// use queens_sat::matching::regin;
/// // Left 0 must take right 0, so left 1 cannot.
/// let keep = regin(&[vec![0], vec![0, 1]], 2).unwrap();
/// assert_eq!(keep, vec![vec![true], vec![false, true]]);
/// assert!(regin(&[vec![0], vec![0]], 1).is_err());
/// ```
pub fn regin(adj: &[Vec<u32>], n_right: usize) -> Result<Vec<Vec<bool>>, HallViolation> {
    let a = analyse(adj, n_right)?;
    Ok(adj
        .iter()
        .enumerate()
        .map(|(u, vs)| {
            vs.iter()
                .map(|&v| {
                    let w = a.mr[v as usize];
                    v == a.ml[u]
                        || w == NONE
                        || a.reached[w as usize]
                        || a.comp[w as usize] == a.comp[u]
                })
                .collect()
        })
        .collect())
}

#[cfg(feature = "oracle")] // a test oracle
/// The right vertices that every left-saturating matching uses (a Hall set's values: a set of
/// `k` left vertices whose neighbours are exactly `k` right vertices uses them all); or the Hall
/// set that proves no such matching exists.
///
/// ```
/// use queens_sat::matching::mandatory;
/// // Left 0 and 1 only see rights {0, 1} (a Hall set): both are used; left 2 takes 2 or 3.
/// let must = mandatory(&[vec![0, 1], vec![0, 1], vec![1, 2, 3]], 4).unwrap();
/// assert_eq!(must, vec![true, true, false, false]);
/// ```
pub fn mandatory(adj: &[Vec<u32>], n_right: usize) -> Result<Vec<bool>, HallViolation> {
    let a = analyse(adj, n_right)?;
    Ok(a.mr
        .iter()
        .map(|&w| w != NONE && !a.reached[w as usize])
        .collect())
}

/// A left-saturating matching and the alternating-path structure around it.
struct Analysis {
    ml: Vec<u32>,
    mr: Vec<u32>,
    /// Left vertices whose matched right vertex can be freed (reachable by an alternating path
    /// from a free right vertex).
    reached: Vec<bool>,
    /// Strongly connected component of each left vertex in the alternating graph.
    comp: Vec<u32>,
}

fn analyse(adj: &[Vec<u32>], n_right: usize) -> Result<Analysis, HallViolation> {
    let nl = adj.len();
    let (ml, mr) = hopcroft_karp(adj, n_right);
    if let Some(u) = ml.iter().position(|&v| v == NONE) {
        return Err(hall_set(adj, &mr, u));
    }
    // Right vertex -> adjacent left vertices.
    let mut radj_start = vec![0usize; n_right + 1];
    for vs in adj {
        for &v in vs {
            radj_start[v as usize + 1] += 1;
        }
    }
    for i in 0..n_right {
        radj_start[i + 1] += radj_start[i];
    }
    let mut fill = radj_start.clone();
    let mut radj = vec![0u32; radj_start[n_right]];
    for (u, vs) in adj.iter().enumerate() {
        for &v in vs {
            radj[fill[v as usize]] = u as u32;
            fill[v as usize] += 1;
        }
    }
    let left_of = |v: u32| &radj[radj_start[v as usize]..radj_start[v as usize + 1]];

    // Contracted alternating graph on the left vertices: u -> w when w is adjacent to ml[u]
    // (the matching edge u-ml[u] followed by the free edge ml[u]-w).
    // 1. Left vertices reachable from a free right vertex by an alternating path: their
    //    matched right vertex can be freed, so any edge into it is in a maximum matching.
    let mut reached = vec![false; nl];
    let mut queue: Vec<u32> = Vec::new();
    for v in 0..n_right as u32 {
        if mr[v as usize] == NONE {
            for &u in left_of(v) {
                if !reached[u as usize] {
                    reached[u as usize] = true;
                    queue.push(u);
                }
            }
        }
    }
    while let Some(u) = queue.pop() {
        for &w in left_of(ml[u as usize]) {
            if !reached[w as usize] {
                reached[w as usize] = true;
                queue.push(w);
            }
        }
    }
    // 2. Strongly connected components (even alternating cycles).
    let comp = tarjan(nl, |u| left_of(ml[u]).iter().copied());
    Ok(Analysis {
        ml,
        mr,
        reached,
        comp,
    })
}

/// The left vertices reachable from the unmatched left vertex `root` by alternating paths, and
/// their neighbourhood: with a maximum matching, it has one right vertex fewer.
fn hall_set(adj: &[Vec<u32>], mr: &[u32], root: usize) -> HallViolation {
    let mut seen_l = vec![false; adj.len()];
    let mut seen_r = vec![false; mr.len()];
    let mut queue = vec![root as u32];
    seen_l[root] = true;
    while let Some(u) = queue.pop() {
        for &v in &adj[u as usize] {
            if !seen_r[v as usize] {
                seen_r[v as usize] = true;
                let w = mr[v as usize];
                debug_assert!(w != NONE, "an augmenting path in a maximum matching");
                if w != NONE && !seen_l[w as usize] {
                    seen_l[w as usize] = true;
                    queue.push(w);
                }
            }
        }
    }
    let pick = |s: &[bool]| (0..s.len() as u32).filter(|&i| s[i as usize]).collect();
    HallViolation {
        left: pick(&seen_l),
        right: pick(&seen_r),
    }
}

/// Iterative Tarjan SCC over vertices `0..n`; returns a component id per vertex.
fn tarjan<I: Iterator<Item = u32>>(n: usize, succ: impl Fn(usize) -> I) -> Vec<u32> {
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![u32::MAX; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut call: Vec<(u32, I)> = Vec::new();
    let mut next = 0u32;
    let mut ncomp = 0u32;
    for s in 0..n {
        if index[s] != u32::MAX {
            continue;
        }
        index[s] = next;
        low[s] = next;
        next += 1;
        stack.push(s as u32);
        on_stack[s] = true;
        call.push((s as u32, succ(s)));
        while let Some((u, iter)) = call.last_mut() {
            let u = *u as usize;
            if let Some(w) = iter.next() {
                let w = w as usize;
                if index[w] == u32::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    call.push((w as u32, succ(w)));
                } else if on_stack[w] {
                    low[u] = low[u].min(index[w]);
                }
            } else {
                call.pop();
                if let Some((p, _)) = call.last() {
                    let p = *p as usize;
                    low[p] = low[p].min(low[u]);
                }
                if low[u] == index[u] {
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp[w as usize] = ncomp;
                        if w as usize == u {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}
