//! "Did you mean ...?" for mistyped method, tool and option names.

/// The candidate closest to `input`, if it is close enough to be a likely typo.
pub(crate) fn closest<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    closest_of(input, &mut candidates.into_iter())
}

/// [`closest`], compiled once whatever the candidates come from.
fn closest_of<'a>(input: &str, candidates: &mut dyn Iterator<Item = &'a str>) -> Option<&'a str> {
    let length = input.chars().count();
    let limit = (length / 3).clamp(1, 4);
    candidates
        // Lengths further apart than the limit are further apart than it in edits too: a long
        // name costs no quadratic work.
        .filter(|candidate| candidate.chars().count().abs_diff(length) <= limit)
        .map(|candidate| (edit_distance(input, candidate), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min()
        .map(|(_, candidate)| candidate)
}

/// A sentence suffix naming the closest candidate, or nothing.
pub(crate) fn did_you_mean<'a>(
    input: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    closest(input, candidates).map_or_else(String::new, |c| format!("; did you mean `{c}`?"))
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_suggested_and_strangers_are_not() {
        let methods = ["tools/list", "tools/call", "ping"];
        assert_eq!(closest("tools/lst", methods), Some("tools/list"));
        assert_eq!(closest("tool/call", methods), Some("tools/call"));
        assert_eq!(closest("server/discover", methods), None);
    }
}
