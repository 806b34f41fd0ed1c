//! Rings: accounts joined by pairs that reached the threshold, taken as a graph; a connected
//! group of three or more is one finding rather than a list of pairs.

use std::collections::BTreeMap;

/// A group of three or more players and the flagged pairs that join them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ring {
    /// Members in name order.
    pub members: Vec<String>,
    /// The flagged pairs inside the ring, each in name order, sorted.
    pub pairs: Vec<(String, String)>,
}

/// Groups of at least `min_size` players connected by `flagged` pairs, largest first (then by
/// first member).
pub fn rings(flagged: &[(String, String)], min_size: usize) -> Vec<Ring> {
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for (a, b) in flagged {
        let next = index.len();
        index.entry(a.as_str()).or_insert(next);
        let next = index.len();
        index.entry(b.as_str()).or_insert(next);
    }
    let mut parent: Vec<usize> = (0..index.len()).collect();
    fn root(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (a, b) in flagged {
        let (ra, rb) = (
            root(&mut parent, index[a.as_str()]),
            root(&mut parent, index[b.as_str()]),
        );
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut groups: BTreeMap<usize, Ring> = BTreeMap::new();
    for (name, &i) in &index {
        let r = root(&mut parent, i);
        groups
            .entry(r)
            .or_insert_with(|| Ring {
                members: Vec::new(),
                pairs: Vec::new(),
            })
            .members
            .push((*name).to_string());
    }
    for (a, b) in flagged {
        let r = root(&mut parent, index[a.as_str()]);
        let pair = if a <= b {
            (a.clone(), b.clone())
        } else {
            (b.clone(), a.clone())
        };
        if let Some(ring) = groups.get_mut(&r) {
            ring.pairs.push(pair);
        }
    }
    let mut out: Vec<Ring> = groups
        .into_values()
        .filter(|ring| ring.members.len() >= min_size)
        .map(|mut ring| {
            ring.pairs.sort();
            ring.pairs.dedup();
            ring
        })
        .collect();
    out.sort_by(|a, b| {
        b.members
            .len()
            .cmp(&a.members.len())
            .then_with(|| a.members.cmp(&b.members))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: &str, b: &str) -> (String, String) {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn three_connected_accounts_are_one_ring_and_a_lone_pair_is_none() {
        let flagged = [
            pair("carol", "alice"),
            pair("alice", "bob"),
            pair("dave", "erin"),
            pair("bob", "carol"),
        ];
        let found = rings(&flagged, 3);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].members, ["alice", "bob", "carol"]);
        assert_eq!(
            found[0].pairs,
            [
                pair("alice", "bob"),
                pair("alice", "carol"),
                pair("bob", "carol")
            ]
        );
        assert!(rings(&[pair("a", "b")], 3).is_empty());
    }
}
