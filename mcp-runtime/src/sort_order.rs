//! Sorting by computing an order: the indices of some keys, sorted by key. Every sorted list
//! of the server (the catalogs of tools, prompts and resources, the templates by specificity,
//! the keys of a sealed state's canonical arguments) is sorted through [`of`], so the binary
//! holds one copy of the sort per kind of key instead of one per kind of list (a sort is
//! several kilobytes of code for each type it is instantiated with).

/// The indices of `keys` in the order of their keys; equal keys keep their given order.
pub(crate) fn of<K: Ord>(keys: impl IntoIterator<Item = K>) -> Vec<usize> {
    order_of_pairs(keys.into_iter().zip(0..).collect())
}

/// [`of`] once its keys are paired with their indices: generic over the key only, not over
/// the iterator of each list, so that each kind of key has one copy of it.
#[inline(never)]
fn order_of_pairs<K: Ord>(mut pairs: Vec<(K, usize)>) -> Vec<usize> {
    // The index breaks ties, so the faster unstable sort gives the stable order.
    pairs.sort_unstable();
    pairs.into_iter().map(|(_, index)| index).collect()
}

#[cfg(test)]
mod tests {
    use std::cmp::Reverse;

    #[test]
    fn keys_in_order_and_ties_in_their_given_order() {
        assert_eq!(super::of(["b", "a", "c", "a"]), [1, 3, 0, 2]);
        assert_eq!(super::of([1, 3, 3, 2].map(Reverse)), [1, 2, 3, 0]);
        assert!(super::of(Vec::<&str>::new()).is_empty());
    }
}
