//! `statebench run --shard I/N`: the argument and which part of a
//! campaign's plan one shard takes.
//!
//! A campaign is sharded **by instance**: the selected instances, in the
//! deterministic order of `campaign::select` (suites in the order given,
//! each by increasing oracle count, then name), are dealt round-robin, the
//! instance at position `p` (0-based) going to shard `p mod N + 1`. So every
//! engine, thread count and repetition of one instance runs in the same
//! shard (a multi-thread row's speedup needs its 1-thread row), the shards
//! are disjoint and together the whole plan, and large instances spread
//! evenly. Owns only this rule and the argument's syntax; must not run or
//! read anything.

use std::fmt;

/// Shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Whether the instance at `position` (0-based) of the selection belongs
    /// to this shard.
    pub fn takes(self, position: usize) -> bool {
        position % self.count as usize == (self.index - 1) as usize
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Parses `I/N` with `1 <= I <= N` (the clap value parser of `--shard`).
pub fn parse(text: &str) -> Result<Shard, String> {
    let usage = || format!("'{text}' is not I/N with 1 <= I <= N (e.g. 2/4)");
    let (i, n) = text.trim().split_once('/').ok_or_else(usage)?;
    let i: u32 = i.trim().parse().map_err(|_| usage())?;
    let n: u32 = n.trim().parse().map_err(|_| usage())?;
    if n == 0 || i == 0 || i > n {
        return Err(usage());
    }
    Ok(Shard { index: i, count: n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_valid_and_rejects_invalid() {
        assert_eq!(parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(parse("1/1"), Ok(Shard { index: 1, count: 1 }));
        for bad in [
            "0/3", "4/3", "x", "1/0", "0/0", "1/", "/3", "-1/3", "1/3/5", "",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_partition_the_positions() {
        let count = 3;
        for position in 0..10 {
            let owners: Vec<u32> = (1..=count)
                .filter(|&index| Shard { index, count }.takes(position))
                .collect();
            assert_eq!(owners, vec![position as u32 % count + 1], "{position}");
        }
    }
}
