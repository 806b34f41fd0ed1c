//! A player's standing at a moment: what they may do, and until when they may not.
//! Computed from sanctions and report timeouts at "now", so expiry needs no background job.

use super::abuse::ReportTimeout;
use super::types::{PlayerId, Sanction, SanctionId, SanctionKind};
use chrono::{DateTime, Utc};

/// What a player may do at `at`. A `false` permission with no end time is permanent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    pub at: DateTime<Utc>,
    pub may_chat: bool,
    pub chat_until: Option<DateTime<Utc>>,
    pub may_play: bool,
    pub play_until: Option<DateTime<Utc>>,
    pub may_report: bool,
    pub report_until: Option<DateTime<Utc>>,
    pub club_banned: bool,
    pub club_until: Option<DateTime<Utc>>,
    /// The sanctions in force, for showing the player why.
    pub active_sanctions: Vec<SanctionId>,
}

/// A ban interval: from `start` until `end` (`None` = forever).
type Interval = (DateTime<Utc>, Option<DateTime<Utc>>);

/// The player's standing at `now`. A club ban implies no play, no chat and no reports;
/// lifted and reduced sanctions count with their appealed end. `sanctions` may include other
/// players' rows: only `player`'s count.
pub fn standing(
    player: PlayerId,
    sanctions: &[Sanction],
    report_timeouts: &[ReportTimeout],
    now: DateTime<Utc>,
) -> Standing {
    let own: Vec<&Sanction> = sanctions.iter().filter(|s| s.player == player).collect();
    let intervals = |blocks: fn(SanctionKind) -> bool| -> Vec<Interval> {
        own.iter()
            .filter(|s| blocks(s.kind))
            .map(|s| (s.starts_at, s.effective_end()))
            .collect()
    };
    let chat = blocked_until(&intervals(SanctionKind::blocks_chat), now);
    let play = blocked_until(&intervals(SanctionKind::blocks_play), now);
    let club = blocked_until(&intervals(|k| k == SanctionKind::ClubBan), now);
    let mut report_intervals = intervals(SanctionKind::blocks_reporting);
    report_intervals.extend(report_timeouts.iter().map(|t| (t.starts_at, Some(t.until))));
    let report = blocked_until(&report_intervals, now);

    Standing {
        at: now,
        may_chat: chat.is_none(),
        chat_until: chat.flatten(),
        may_play: play.is_none(),
        play_until: play.flatten(),
        may_report: report.is_none(),
        report_until: report.flatten(),
        club_banned: club.is_some(),
        club_until: club.flatten(),
        active_sanctions: own
            .iter()
            .filter(|s| s.is_active(now))
            .map(|s| s.id)
            .collect(),
    }
}

/// `None` when free at `now`; otherwise `Some(end)` of the unbroken blocked stretch that
/// contains `now`, following overlapping or back-to-back bans (`Some(None)` = forever).
fn blocked_until(intervals: &[Interval], now: DateTime<Utc>) -> Option<Option<DateTime<Utc>>> {
    let covers =
        |(start, end): &Interval, t: DateTime<Utc>| *start <= t && end.is_none_or(|e| t < e);
    if !intervals.iter().any(|i| covers(i, now)) {
        return None;
    }
    let mut end = now;
    // Each pass moves `end` to a later interval end, so this ends after at most n passes.
    for _ in 0..=intervals.len() {
        let reach = end;
        let mut furthest = end;
        for interval in intervals.iter().filter(|i| covers(i, reach)) {
            match interval.1 {
                None => return Some(None),
                Some(e) => furthest = furthest.max(e),
            }
        }
        if furthest == end {
            break;
        }
        end = furthest;
    }
    Some(Some(end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moderation::types::{Ground, ReportReason, SanctionDuration};
    use chrono::{TimeDelta, TimeZone};

    const ME: PlayerId = PlayerId(5);

    fn t0() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 6, 1, 12, 0, 0)
            .single()
            .unwrap_or_default()
    }

    fn ban(id: i64, kind: SanctionKind, start_hours: i64, duration: SanctionDuration) -> Sanction {
        Sanction {
            id: SanctionId(id),
            player: ME,
            kind,
            reason: ReportReason::OffensiveChat,
            ground: Ground::Harassment,
            starts_at: t0() + TimeDelta::hours(start_hours),
            duration,
            lifted_at: None,
            reduced_until: None,
        }
    }

    #[test]
    fn clean_record_may_do_everything() {
        let s = standing(ME, &[], &[], t0());
        assert!(s.may_chat && s.may_play && s.may_report && !s.club_banned);
        assert_eq!(
            (s.chat_until, s.play_until, s.report_until),
            (None, None, None)
        );
    }

    #[test]
    fn chat_ban_blocks_chat_only_until_its_end() {
        let s = ban(1, SanctionKind::ChatBan, -1, SanctionDuration::hours(24));
        let now = standing(ME, std::slice::from_ref(&s), &[], t0());
        assert!(!now.may_chat && now.may_play && now.may_report);
        assert_eq!(now.chat_until, Some(t0() + TimeDelta::hours(23)));
        assert_eq!(now.active_sanctions, vec![SanctionId(1)]);
        let later = standing(ME, &[s], &[], t0() + TimeDelta::hours(23));
        assert!(later.may_chat, "expired without any job");
        assert!(later.active_sanctions.is_empty());
    }

    #[test]
    fn permanent_has_no_end_and_club_ban_blocks_everything() {
        let club = ban(1, SanctionKind::ClubBan, -1, SanctionDuration::Permanent);
        let s = standing(ME, &[club], &[], t0());
        assert!(!s.may_chat && !s.may_play && !s.may_report && s.club_banned);
        assert_eq!(
            (s.chat_until, s.play_until, s.report_until, s.club_until),
            (None, None, None, None)
        );
    }

    #[test]
    fn overlapping_and_back_to_back_bans_chain() {
        let a = ban(1, SanctionKind::PlayBan, -2, SanctionDuration::hours(4));
        let b = ban(2, SanctionKind::PlayBan, 2, SanctionDuration::hours(4));
        let c = ban(3, SanctionKind::ClubBan, 5, SanctionDuration::hours(10));
        let gap = ban(4, SanctionKind::PlayBan, 20, SanctionDuration::hours(1));
        let s = standing(ME, &[gap, c, b, a], &[], t0());
        assert_eq!(s.play_until, Some(t0() + TimeDelta::hours(15)));
        // The club ban has not started: chat is free for now.
        assert!(s.may_chat && !s.club_banned);
    }

    #[test]
    fn appeals_are_respected() {
        let mut lifted = ban(1, SanctionKind::ChatBan, -1, SanctionDuration::Permanent);
        lifted.lifted_at = Some(t0() - TimeDelta::minutes(1));
        let mut reduced = ban(2, SanctionKind::PlayBan, -1, SanctionDuration::Permanent);
        reduced.reduced_until = Some(t0() + TimeDelta::hours(2));
        let s = standing(ME, &[lifted, reduced], &[], t0());
        assert!(s.may_chat);
        assert_eq!(
            (s.may_play, s.play_until),
            (false, Some(t0() + TimeDelta::hours(2)))
        );
    }

    #[test]
    fn report_timeouts_and_other_players() {
        let timeout = ReportTimeout {
            starts_at: t0() - TimeDelta::hours(1),
            until: t0() + TimeDelta::days(7),
            level: 2,
        };
        let mut someone_else = ban(9, SanctionKind::ClubBan, -1, SanctionDuration::Permanent);
        someone_else.player = PlayerId(6);
        let s = standing(ME, &[someone_else], &[timeout], t0());
        assert!(s.may_chat && s.may_play);
        assert_eq!(
            (s.may_report, s.report_until),
            (false, Some(t0() + TimeDelta::days(7)))
        );
        assert!(s.active_sanctions.is_empty());
    }

    #[test]
    fn future_and_zero_length_sanctions() {
        let future = ban(1, SanctionKind::ChatBan, 1, SanctionDuration::hours(1));
        let empty = ban(
            2,
            SanctionKind::ChatBan,
            -1,
            SanctionDuration::Temporary { minutes: 0 },
        );
        let s = standing(ME, &[future, empty], &[], t0());
        assert!(s.may_chat);
        let at_end = ban(3, SanctionKind::ChatBan, 0, SanctionDuration::Permanent);
        let s = standing(ME, &[at_end], &[], DateTime::<Utc>::MAX_UTC);
        assert!(!s.may_chat);
    }

    proptest::proptest! {
        /// Standing agrees with the sanctions one by one: blocked exactly when some relevant
        /// sanction is active, and the end time is never before now.
        #[test]
        fn standing_matches_active_sanctions(
            rows in proptest::collection::vec(
                (0usize..3, -48i64..48, proptest::option::of(0u32..5000), proptest::bool::ANY),
                0..6,
            ),
            now_offset in -60i64..60,
        ) {
            let kinds = [SanctionKind::ChatBan, SanctionKind::PlayBan, SanctionKind::ClubBan];
            let sanctions: Vec<Sanction> = rows
                .iter()
                .enumerate()
                .map(|(i, (kind, start, minutes, lifted))| {
                    let duration = minutes.map_or(SanctionDuration::Permanent, |m| {
                        SanctionDuration::Temporary { minutes: m }
                    });
                    let mut s = ban(i as i64, kinds[*kind % 3], *start, duration);
                    if *lifted {
                        s.lifted_at = Some(t0());
                    }
                    s
                })
                .collect();
            let now = t0() + TimeDelta::hours(now_offset);
            let s = standing(ME, &sanctions, &[], now);
            let chat_blocked = sanctions.iter().any(|x| x.kind.blocks_chat() && x.is_active(now));
            let play_blocked = sanctions.iter().any(|x| x.kind.blocks_play() && x.is_active(now));
            proptest::prop_assert_eq!(s.may_chat, !chat_blocked);
            proptest::prop_assert_eq!(s.may_play, !play_blocked);
            for until in [s.chat_until, s.play_until, s.report_until].into_iter().flatten() {
                proptest::prop_assert!(until > now);
            }
            if s.may_chat {
                proptest::prop_assert_eq!(s.chat_until, None);
            }
        }
    }
}
