//! Signs that two accounts are one person (self-partnering) beyond how they play: seats that
//! carried the same device or network fingerprint, and rating that keeps flowing from one
//! account to the other in their shared games.

/// One player's seat in a shared game, as the game server reported it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatTrace {
    pub device_fp: Option<String>,
    pub network_fp: Option<String>,
    pub rating_before: Option<i32>,
    pub rating_after: Option<i32>,
}

impl SeatTrace {
    fn rating_change(&self) -> Option<i32> {
        Some(self.rating_after? - self.rating_before?)
    }
}

/// What the two accounts' shared games show.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountLink {
    pub games: u32,
    /// Games in which both seats carried the same device fingerprint.
    pub shared_device_games: u32,
    /// Games in which both seats carried the same network fingerprint.
    pub shared_network_games: u32,
    /// Games in which the first account lost rating while the second gained.
    pub rating_to_second: u32,
    /// Games in which the second account lost rating while the first gained.
    pub rating_to_first: u32,
}

impl AccountLink {
    pub fn shares_fingerprint(&self) -> bool {
        self.shared_device_games > 0 || self.shared_network_games > 0
    }

    /// Adds one shared game: the first account's seat and the second's.
    pub fn add(&mut self, first: &SeatTrace, second: &SeatTrace) {
        let same =
            |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(a), Some(b)) if a == b);
        self.games += 1;
        if same(&first.device_fp, &second.device_fp) {
            self.shared_device_games += 1;
        }
        if same(&first.network_fp, &second.network_fp) {
            self.shared_network_games += 1;
        }
        match (first.rating_change(), second.rating_change()) {
            (Some(a), Some(b)) if a < 0 && b > 0 => self.rating_to_second += 1,
            (Some(a), Some(b)) if a > 0 && b < 0 => self.rating_to_first += 1,
            _ => {}
        }
    }
}

/// Links two accounts over their shared games: `(first's seat, second's seat)` per game.
pub fn link(games: &[(SeatTrace, SeatTrace)]) -> AccountLink {
    let mut out = AccountLink::default();
    for (first, second) in games {
        out.add(first, second);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(device: &str, network: &str, before: i32, after: i32) -> SeatTrace {
        SeatTrace {
            device_fp: Some(device.into()),
            network_fp: Some(network.into()),
            rating_before: Some(before),
            rating_after: Some(after),
        }
    }

    #[test]
    fn fingerprints_and_rating_flows_are_counted_per_game() {
        let games = [
            (seat("d1", "n1", 1500, 1490), seat("d1", "n1", 1600, 1615)),
            (seat("d1", "n2", 1490, 1480), seat("d9", "n2", 1615, 1630)),
            (seat("d1", "n1", 1480, 1500), seat("d9", "n9", 1630, 1620)),
        ];
        let found = link(&games);
        assert_eq!(found.games, 3);
        assert_eq!(found.shared_device_games, 1);
        assert_eq!(found.shared_network_games, 2);
        assert_eq!(found.rating_to_second, 2);
        assert_eq!(found.rating_to_first, 1);
        assert!(found.shares_fingerprint());
        assert!(!link(&[(SeatTrace::default(), SeatTrace::default())]).shares_fingerprint());
    }
}
