//! Kahn's topological order of a small graph: a pipeline's stages (their `after` lists) and a
//! platform's pools (the passes that pipelines crossing pools need) are both ordered with it.

/// The nodes `0..n` in an order where each comes after the `from` of every `(from, to)` edge
/// into it, the smallest index first among those ready (a stable order, so a stable drawing).
/// On a cycle, only the nodes placed before it: fewer than `n`, and the nodes left out are
/// those on a cycle or after one.
pub fn topological_order(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut left = vec![0usize; n];
    for &(_, to) in edges {
        left[to] += 1;
    }
    let mut placed = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while let Some(next) = (0..n).find(|&v| !placed[v] && left[v] == 0) {
        placed[next] = true;
        order.push(next);
        for &(from, to) in edges {
            if from == next {
                left[to] -= 1;
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::topological_order;

    #[test]
    fn a_diamond_comes_out_in_dependency_order_smallest_index_first() {
        // 3 → {1, 2} → 0
        let edges = [(3, 1), (3, 2), (1, 0), (2, 0)];
        assert_eq!(topological_order(4, &edges), vec![3, 1, 2, 0]);
        assert_eq!(topological_order(3, &[]), vec![0, 1, 2]);
    }

    #[test]
    fn a_cycle_leaves_its_nodes_and_those_after_it_out() {
        // 0 → 1 → 2 → 1, 2 → 3; 4 free.
        let edges = [(0, 1), (1, 2), (2, 1), (2, 3)];
        assert_eq!(topological_order(5, &edges), vec![0, 4]);
        // A node after itself.
        assert_eq!(topological_order(2, &[(1, 1)]), vec![0]);
    }
}
