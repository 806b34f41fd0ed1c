//! A banned player back on a new account: a seat whose fingerprints match those of a player
//! whose ban counts (docs/moderation.md, "Returning players"). Pure: the store supplies the
//! latest seats that carried each fingerprint and the bans of their players.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, TimeDelta, Utc};

use super::returning_player_policy::{FingerprintKind, ReturningPlayerPolicy};
use super::types::{Sanction, SanctionId, SanctionKind};

/// One seat that carried a fingerprint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sighting {
    pub player: String,
    /// Archive id of the game.
    pub game_id: i64,
}

/// A fingerprint the arriving seat carried, with the latest seats that carried it (the
/// arriving one among them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FingerprintSeen {
    pub kind: FingerprintKind,
    pub sightings: Vec<Sighting>,
}

/// A ban of one of the players seen.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerBan {
    pub player: String,
    pub sanction: Sanction,
}

/// Whether a ban counts at `now`: a chat, play or club ban, not lifted, in force or ended no
/// more than `banned_within_days` ago.
pub fn ban_counts(sanction: &Sanction, now: DateTime<Utc>, policy: &ReturningPlayerPolicy) -> bool {
    let a_ban = matches!(
        sanction.kind,
        SanctionKind::ChatBan | SanctionKind::PlayBan | SanctionKind::ClubBan
    );
    let window = TimeDelta::days(i64::from(policy.banned_within_days));
    a_ban
        && !sanction.is_lifted()
        && sanction.starts_at <= now
        && sanction
            .effective_end()
            .is_none_or(|end| now - end <= window)
}

/// An account that carried a banned player's fingerprints.
#[derive(Debug, Clone, PartialEq)]
pub struct ReturningMatch {
    pub account: String,
    pub banned: String,
    /// The banned player's ban that counts (the latest, when several do).
    pub sanction: SanctionId,
    pub sanction_kind: SanctionKind,
    pub fingerprints: Vec<FingerprintKind>,
    /// The account's games that carried them, ascending.
    pub account_games: Vec<i64>,
    /// The banned player's games that carried them, ascending.
    pub banned_games: Vec<i64>,
}

impl ReturningMatch {
    /// Evidence strength: a shared device is strong, a shared network alone weaker.
    pub fn score(&self) -> f64 {
        if self.fingerprints.contains(&FingerprintKind::Device) {
            0.9
        } else {
            0.6
        }
    }

    /// The admins' one-line summary (names both accounts).
    pub fn summary(&self) -> String {
        let kinds: Vec<&str> = self
            .fingerprints
            .iter()
            .map(|k| match k {
                FingerprintKind::Device => "device",
                FingerprintKind::Network => "network",
            })
            .collect();
        let ban = match self.sanction_kind {
            SanctionKind::ChatBan => "chat ban",
            SanctionKind::PlayBan => "play ban",
            SanctionKind::ClubBan => "club ban",
            _ => "ban",
        };
        format!(
            "{} carried the {} fingerprint of {} ({} {}) in {} of their games",
            self.account,
            kinds.join(" and "),
            self.banned,
            ban,
            self.sanction.0,
            self.account_games.len()
        )
    }
}

/// The banned players `account` matches through `seen`, under `policy`: per fingerprint kind
/// that counts, a banned player whose seats carried it, where the account carried it in at
/// least the kind's minimum of games, and (networks) no more players than the policy allows
/// carried it.
pub fn find_returning(
    account: &str,
    seen: &[FingerprintSeen],
    bans: &[PlayerBan],
    now: DateTime<Utc>,
    policy: &ReturningPlayerPolicy,
) -> Vec<ReturningMatch> {
    let mut found: BTreeMap<String, ReturningMatch> = BTreeMap::new();
    for fingerprint in seen.iter().filter(|f| policy.counts(f.kind)) {
        let players: BTreeSet<&str> = fingerprint
            .sightings
            .iter()
            .map(|s| s.player.as_str())
            .collect();
        if fingerprint.kind == FingerprintKind::Network
            && players.len() > policy.network_max_players as usize
        {
            continue;
        }
        let games_of = |player: &str| -> BTreeSet<i64> {
            fingerprint
                .sightings
                .iter()
                .filter(|s| s.player == player)
                .map(|s| s.game_id)
                .collect()
        };
        let account_games = games_of(account);
        if account_games.len() < policy.min_games(fingerprint.kind) as usize {
            continue;
        }
        for banned in players.into_iter().filter(|p| *p != account) {
            let Some(ban) = latest_counting_ban(banned, bans, now, policy) else {
                continue;
            };
            let entry = found
                .entry(banned.to_string())
                .or_insert_with(|| ReturningMatch {
                    account: account.to_string(),
                    banned: banned.to_string(),
                    sanction: ban.id,
                    sanction_kind: ban.kind,
                    fingerprints: Vec::new(),
                    account_games: Vec::new(),
                    banned_games: Vec::new(),
                });
            entry.fingerprints.push(fingerprint.kind);
            entry.account_games.extend(account_games.iter().copied());
            entry.banned_games.extend(games_of(banned));
        }
    }
    found
        .into_values()
        .map(|mut m| {
            for games in [&mut m.account_games, &mut m.banned_games] {
                games.sort_unstable();
                games.dedup();
            }
            m.fingerprints.sort_unstable();
            m.fingerprints.dedup();
            m
        })
        .collect()
}

fn latest_counting_ban<'a>(
    player: &str,
    bans: &'a [PlayerBan],
    now: DateTime<Utc>,
    policy: &ReturningPlayerPolicy,
) -> Option<&'a Sanction> {
    bans.iter()
        .filter(|b| b.player == player && ban_counts(&b.sanction, now, policy))
        .map(|b| &b.sanction)
        .max_by_key(|s| (s.starts_at, s.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::{Ground, PlayerId, ReportReason, SanctionDuration};
    use chrono::TimeZone;

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 10, 12, 0, 0).unwrap()
    }

    fn ban(player: &str, kind: SanctionKind, days_ago: i64, days: Option<u32>) -> PlayerBan {
        PlayerBan {
            player: player.to_string(),
            sanction: Sanction {
                id: SanctionId(days_ago),
                player: PlayerId(1),
                kind,
                reason: ReportReason::OffensiveChat,
                ground: Ground::Harassment,
                starts_at: now() - TimeDelta::days(days_ago),
                duration: match days {
                    Some(d) => SanctionDuration::Temporary {
                        minutes: d * 24 * 60,
                    },
                    None => SanctionDuration::Permanent,
                },
                lifted_at: None,
                reduced_until: None,
            },
        }
    }

    fn seen(kind: FingerprintKind, seats: &[(&str, i64)]) -> FingerprintSeen {
        FingerprintSeen {
            kind,
            sightings: seats
                .iter()
                .map(|(p, g)| Sighting {
                    player: (*p).to_string(),
                    game_id: *g,
                })
                .collect(),
        }
    }

    #[test]
    fn which_bans_count() {
        let policy = ReturningPlayerPolicy::default();
        assert!(ban_counts(
            &ban("b", SanctionKind::ChatBan, 1, None).sanction,
            now(),
            &policy
        ));
        // Ended 20 days ago (a 10-day ban 30 days ago): within 30 days.
        assert!(ban_counts(
            &ban("b", SanctionKind::PlayBan, 30, Some(10)).sanction,
            now(),
            &policy
        ));
        // Ended 40 days ago.
        assert!(!ban_counts(
            &ban("b", SanctionKind::PlayBan, 50, Some(10)).sanction,
            now(),
            &policy
        ));
        assert!(!ban_counts(
            &ban("b", SanctionKind::Separation, 1, None).sanction,
            now(),
            &policy
        ));
        let mut lifted = ban("b", SanctionKind::ClubBan, 1, None);
        lifted.sanction.lifted_at = Some(now());
        assert!(!ban_counts(&lifted.sanction, now(), &policy));
    }

    #[test]
    fn a_shared_device_matches_at_once_and_names_both_accounts() {
        let policy = ReturningPlayerPolicy::default();
        let bans = [ban("old", SanctionKind::ChatBan, 2, None)];
        let device = seen(
            FingerprintKind::Device,
            &[("new", 9), ("old", 3), ("old", 5)],
        );
        let found = find_returning("new", &[device], &bans, now(), &policy);
        assert_eq!(found.len(), 1);
        let m = &found[0];
        assert_eq!(
            (
                m.banned.as_str(),
                m.account_games.clone(),
                m.banned_games.clone()
            ),
            ("old", vec![9], vec![3, 5])
        );
        assert_eq!(m.score(), 0.9);
        assert_eq!(
            m.summary(),
            "new carried the device fingerprint of old (chat ban 2) in 1 of their games"
        );
    }

    #[test]
    fn a_network_needs_games_and_a_small_crowd() {
        let policy = ReturningPlayerPolicy::default();
        let bans = [ban("old", SanctionKind::PlayBan, 2, None)];
        let two = seen(
            FingerprintKind::Network,
            &[("new", 8), ("new", 9), ("old", 3)],
        );
        assert!(find_returning("new", &[two], &bans, now(), &policy).is_empty());
        let three = seen(
            FingerprintKind::Network,
            &[("new", 7), ("new", 8), ("new", 9), ("old", 3)],
        );
        let found = find_returning("new", std::slice::from_ref(&three), &bans, now(), &policy);
        assert_eq!(found[0].fingerprints, [FingerprintKind::Network]);
        assert_eq!(found[0].score(), 0.6);
        // A café: five players behind one address.
        let mut cafe = three;
        for (i, p) in ["c1", "c2", "c3"].iter().enumerate() {
            cafe.sightings.push(Sighting {
                player: (*p).to_string(),
                game_id: 20 + i as i64,
            });
        }
        assert!(find_returning("new", &[cafe], &bans, now(), &policy).is_empty());
        // Networks switched off.
        let only_devices = ReturningPlayerPolicy {
            fingerprints: vec![FingerprintKind::Device],
            ..policy
        };
        let three = seen(
            FingerprintKind::Network,
            &[("new", 7), ("new", 8), ("new", 9), ("old", 3)],
        );
        assert!(find_returning("new", &[three], &bans, now(), &only_devices).is_empty());
    }

    #[test]
    fn nobody_matches_without_a_counting_ban() {
        let policy = ReturningPlayerPolicy::default();
        let device = seen(FingerprintKind::Device, &[("new", 9), ("sibling", 3)]);
        assert!(
            find_returning("new", std::slice::from_ref(&device), &[], now(), &policy).is_empty()
        );
        let old = [ban("sibling", SanctionKind::ChatBan, 100, Some(1))];
        assert!(find_returning("new", &[device], &old, now(), &policy).is_empty());
    }
}
