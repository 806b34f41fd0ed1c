//! When a seat's fingerprints make an account look like a banned player come back
//! (`config/moderation.toml`, `[returning_players]`). A file of its own so the policy holds it
//! without importing the matching.

use serde::{Deserialize, Serialize};

/// The kinds of fingerprint a game server sends per seat: opaque hashes of the player's device
/// and of their network.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FingerprintKind {
    Device,
    Network,
}

/// `[returning_players]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReturningPlayerPolicy {
    pub enabled: bool,
    /// Which fingerprints count.
    pub fingerprints: Vec<FingerprintKind>,
    /// A ban counts while in force and for this many days after it ended (0: in force only).
    /// A lifted ban never counts: lifting says it should not have been.
    pub banned_within_days: u32,
    /// Games of the new account that must carry one device fingerprint of the banned player.
    pub device_min_games: u32,
    /// Likewise for a network fingerprint: a network is shared by a household, so one game
    /// is weaker evidence than one device.
    pub network_min_games: u32,
    /// A network fingerprint carried by more players than this (among its latest seats) is a
    /// shared place (a school, a café, a carrier's NAT) and counts for nothing.
    pub network_max_players: u32,
}

impl ReturningPlayerPolicy {
    /// The games a fingerprint of `kind` must be seen in on the new account.
    pub fn min_games(&self, kind: FingerprintKind) -> u32 {
        match kind {
            FingerprintKind::Device => self.device_min_games,
            FingerprintKind::Network => self.network_min_games,
        }
    }

    pub fn counts(&self, kind: FingerprintKind) -> bool {
        self.enabled && self.fingerprints.contains(&kind)
    }

    pub fn problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        if self.device_min_games == 0 || self.network_min_games == 0 {
            problems.push(
                "returning_players.device_min_games and network_min_games must be at least 1"
                    .to_string(),
            );
        }
        if self.network_max_players < 2 {
            problems.push(
                "returning_players.network_max_players must be at least 2 (the two accounts)"
                    .to_string(),
            );
        }
        if self.enabled && self.fingerprints.is_empty() {
            problems.push("returning_players.fingerprints must name at least one kind".to_string());
        }
        problems
    }
}

impl Default for ReturningPlayerPolicy {
    fn default() -> Self {
        ReturningPlayerPolicy {
            enabled: true,
            fingerprints: vec![FingerprintKind::Device, FingerprintKind::Network],
            banned_within_days: 30,
            device_min_games: 1,
            network_min_games: 3,
            network_max_players: 4,
        }
    }
}
