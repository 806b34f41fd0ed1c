//! May a table start? The game server asks before seating 2 to 4 players: each must be free
//! to play (no play or club ban in force, as their standing says), and no separation in force
//! may hold two of them (issue #42, item 4; docs/moderation.md, "Separations").

use chrono::{DateTime, Utc};

use super::standing::standing;
use super::types::{Sanction, SanctionId, SanctionKind};

/// A sanction that may matter to the table, with the name of the seated player it concerns:
/// their own ban, or a separation they are a member of (whoever its owner is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSanction {
    pub name: String,
    pub sanction: Sanction,
}

/// One seat's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatVerdict {
    pub name: String,
    pub may_play: bool,
    /// Until when they may not play; `None` when they may, or for ever.
    pub play_until: Option<DateTime<Utc>>,
}

/// Two seated players a separation keeps apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptApart {
    /// In the table's order.
    pub players: [String; 2],
    pub separation: SanctionId,
    /// When the separation ends after appeals; `None`: permanent.
    pub ends_at: Option<DateTime<Utc>>,
}

/// The table's answer: it may start when every seat may play and nobody is kept apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableVerdict {
    pub may_start: bool,
    pub seats: Vec<SeatVerdict>,
    pub kept_apart: Vec<KeptApart>,
}

/// The verdict at `now` for the players in `names` (distinct, in seating order), from the
/// sanctions that concern them. A name without sanctions may play; ended and lifted
/// sanctions are ignored here, so the store may over-fetch.
pub fn check_table(
    names: &[String],
    sanctions: &[TableSanction],
    now: DateTime<Utc>,
) -> TableVerdict {
    let seats: Vec<SeatVerdict> = names
        .iter()
        .map(|name| seat_verdict(name, sanctions, now))
        .collect();
    let kept_apart = kept_apart(names, sanctions, now);
    TableVerdict {
        may_start: kept_apart.is_empty() && seats.iter().all(|s| s.may_play),
        seats,
        kept_apart,
    }
}

/// The seat's play permission, as their standing computes it from their own bans.
fn seat_verdict(name: &str, sanctions: &[TableSanction], now: DateTime<Utc>) -> SeatVerdict {
    let own: Vec<Sanction> = sanctions
        .iter()
        .filter(|s| s.name == name && s.sanction.kind != SanctionKind::Separation)
        .map(|s| s.sanction.clone())
        .collect();
    let Some(player) = own.first().map(|s| s.player) else {
        return SeatVerdict {
            name: name.to_string(),
            may_play: true,
            play_until: None,
        };
    };
    let standing = standing(player, &own, &[], now);
    SeatVerdict {
        name: name.to_string(),
        may_play: standing.may_play,
        play_until: standing.play_until,
    }
}

/// Every pair of seated players that one separation in force holds, in the table's order,
/// each pair once per separation.
fn kept_apart(names: &[String], sanctions: &[TableSanction], now: DateTime<Utc>) -> Vec<KeptApart> {
    let in_force = |s: &&TableSanction| {
        s.sanction.kind == SanctionKind::Separation && s.sanction.is_active(now)
    };
    let mut separations: Vec<&Sanction> = Vec::new();
    for s in sanctions.iter().filter(in_force) {
        if !separations.iter().any(|known| known.id == s.sanction.id) {
            separations.push(&s.sanction);
        }
    }
    separations.sort_by_key(|s| s.id);
    let mut pairs = Vec::new();
    for separation in separations {
        let seated: Vec<&String> = names
            .iter()
            .filter(|name| {
                sanctions
                    .iter()
                    .any(|s| s.sanction.id == separation.id && &&s.name == name)
            })
            .collect();
        for (i, first) in seated.iter().enumerate() {
            for second in &seated[i + 1..] {
                pairs.push(KeptApart {
                    players: [(*first).clone(), (*second).clone()],
                    separation: separation.id,
                    ends_at: separation.effective_end(),
                });
            }
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::types::{Ground, PlayerId, ReportReason, SanctionDuration};
    use chrono::{TimeDelta, TimeZone};

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 6, 12, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|n| n.to_string()).collect()
    }

    fn sanction(id: i64, owner: i64, kind: SanctionKind, duration: SanctionDuration) -> Sanction {
        Sanction {
            id: SanctionId(id),
            player: PlayerId(owner),
            kind,
            reason: ReportReason::PrearrangedTeaming,
            ground: Ground::PrearrangedTeaming,
            starts_at: t0() - TimeDelta::hours(1),
            duration,
            lifted_at: None,
            reduced_until: None,
        }
    }

    /// A separation `id` owned by the first of `members`, as the store reads it: one row per
    /// seated member.
    fn separation(id: i64, members: &[&str], duration: SanctionDuration) -> Vec<TableSanction> {
        members
            .iter()
            .map(|name| TableSanction {
                name: name.to_string(),
                sanction: sanction(id, 1, SanctionKind::Separation, duration),
            })
            .collect()
    }

    #[test]
    fn a_separated_pair_may_not_sit_together_but_each_may_play() {
        let rows = separation(7, &["anna", "bob"], SanctionDuration::days(30));
        let verdict = check_table(&names(&["anna", "carl", "bob", "dora"]), &rows, t0());
        assert!(!verdict.may_start);
        assert!(verdict.seats.iter().all(|s| s.may_play));
        assert_eq!(
            verdict.kept_apart,
            vec![KeptApart {
                players: ["anna".into(), "bob".into()],
                separation: SanctionId(7),
                ends_at: Some(t0() - TimeDelta::hours(1) + TimeDelta::days(30)),
            }]
        );
        // One of them with others: the store finds only that member's row.
        let alone = separation(7, &["anna"], SanctionDuration::days(30));
        let verdict = check_table(&names(&["anna", "carl", "dora"]), &alone, t0());
        assert!(verdict.may_start && verdict.kept_apart.is_empty());
    }

    #[test]
    fn a_ring_of_three_gives_every_seated_pair() {
        let rows = separation(3, &["a", "b", "c"], SanctionDuration::Permanent);
        let verdict = check_table(&names(&["c", "x", "b", "a"]), &rows, t0());
        let pairs: Vec<[String; 2]> = verdict
            .kept_apart
            .iter()
            .map(|k| k.players.clone())
            .collect();
        assert_eq!(
            pairs,
            vec![
                ["c".to_string(), "b".to_string()],
                ["c".to_string(), "a".to_string()],
                ["b".to_string(), "a".to_string()],
            ]
        );
        assert!(verdict.kept_apart.iter().all(|k| k.ends_at.is_none()));
    }

    #[test]
    fn lifted_or_ended_separations_no_longer_count() {
        let mut rows = separation(3, &["a", "b"], SanctionDuration::hours(2));
        assert!(!check_table(&names(&["a", "b"]), &rows, t0()).may_start);
        assert!(check_table(&names(&["a", "b"]), &rows, t0() + TimeDelta::hours(1)).may_start);
        for row in &mut rows {
            row.sanction.lifted_at = Some(t0() - TimeDelta::minutes(1));
        }
        assert!(check_table(&names(&["a", "b"]), &rows, t0()).may_start);
    }

    #[test]
    fn a_play_or_club_ban_stops_the_table_but_a_chat_ban_does_not() {
        let row = |kind| TableSanction {
            name: "a".into(),
            sanction: sanction(1, 1, kind, SanctionDuration::hours(2)),
        };
        let chat = check_table(&names(&["a", "b"]), &[row(SanctionKind::ChatBan)], t0());
        assert!(chat.may_start);
        for kind in [SanctionKind::PlayBan, SanctionKind::ClubBan] {
            let verdict = check_table(&names(&["a", "b"]), &[row(kind)], t0());
            assert!(!verdict.may_start);
            assert_eq!(
                verdict.seats[0],
                SeatVerdict {
                    name: "a".into(),
                    may_play: false,
                    play_until: Some(t0() + TimeDelta::hours(1)),
                }
            );
            assert!(verdict.seats[1].may_play && verdict.kept_apart.is_empty());
        }
    }
}
