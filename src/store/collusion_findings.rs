//! Judging a game's pairs and filing the automatic reports of their findings.
//!
//! Each pair with at least `min_games` shared games is scored from its record and both
//! players' baselines ([`crate::collusion::score_pair`]). A finding is due when the pair was
//! never reported or its shared games have doubled since (`collusion_reported`), so that an
//! open case gains an entry with fuller figures without one per game. The due pairs of a game
//! are joined with the pairs flagged before: those that connect three or more accounts are a
//! ring, filed as one report naming every member (rule `ring`); the others one report each
//! naming both players (rule `sparing` or `feeding`). A report (source `collusion_analysis`,
//! reason `prearranged_teaming` or `self_partnering`) cites the shared games and says the
//! measure, what drives it and the surprising moments.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::automatic_reports::{self, AutomaticSource, NewAutomaticReport};
use super::collusion::{newest_pair_rows, record_statistics, HeldPair, Recorded, StoredPlay};
use super::connection::DbConnection;
use super::schema::{collusion_reported, games};
use crate::collusion::interaction::{Moment, MomentKind};
use crate::collusion::summary::{ring_summary, summary, MomentAt, MOMENTS_LISTED};
use crate::collusion::{
    classify, rings, score_pair, AccountLink, CollusionPolicy, Finding, GameInteractions,
    PairScore, Pattern, PlayerTallies, Ring,
};
use crate::moderation::ModerationPolicy;

/// Shared games listed as a report's evidence (the newest; the count covers all).
pub const REPORT_GAMES: usize = 200;

/// Moments listed at most per game and direction (a piece spared on one turn is often
/// spared on the next few as well).
pub const MOMENTS_PER_GAME: usize = 2;

/// Accounts walked at most when looking for the ring around flagged pairs.
pub const RING_MEMBERS: usize = 50;

/// The pair's score, the link between the accounts, and the finding they make.
pub struct PairJudgement {
    pub score: PairScore,
    pub finding: Option<Finding>,
    pub link: AccountLink,
}

fn judgement(
    low: &str,
    high: &str,
    pair: &HeldPair,
    held: &Recorded,
    policy: &CollusionPolicy,
) -> PairJudgement {
    let empty = PlayerTallies::default();
    let score = score_pair(
        &pair.record,
        held.baselines.get(low).unwrap_or(&empty),
        held.baselines.get(high).unwrap_or(&empty),
        &held.population,
        policy,
    );
    let finding = classify(&score, &pair.link, policy);
    PairJudgement {
        score,
        finding,
        link: pair.link.clone(),
    }
}

/// A pair whose finding is to be reported.
struct Due {
    low: String,
    high: String,
    shared: i64,
    judged: PairJudgement,
    finding: Finding,
}

/// Records one stored game's collusion statistics (`names[s]` sits in seat `s`), judges its
/// pairs and files the reports of the findings due, in the caller's transaction; returns
/// their automatic report ids. A game with a name seated twice is not recorded.
pub fn record_game(
    conn: &mut DbConnection,
    game_id: i64,
    names: [&str; 4],
    game: &GameInteractions,
    policy: &CollusionPolicy,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<Vec<i64>> {
    match record_statistics(conn, game_id, names, game, now)? {
        Some(recorded) => report_findings(conn, &recorded, policy, moderation, now),
        None => Ok(Vec::new()),
    }
}

/// Judges a game's pairs (their records, this game included) and files the reports of the
/// findings due; returns their automatic report ids.
fn report_findings(
    conn: &mut DbConnection,
    recorded: &Recorded,
    policy: &CollusionPolicy,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<Vec<i64>> {
    let mut due = Vec::new();
    for ((low, high), pair) in &recorded.pairs {
        if let Some(d) = due_finding(conn, low, high, pair, recorded, policy)? {
            due.push(d);
        }
    }
    if due.is_empty() {
        return Ok(Vec::new());
    }
    let flagged = flagged_around(conn, &due)?;
    let edges: Vec<(String, String)> = flagged.keys().cloned().collect();
    let found = rings(&edges, 3);
    // One report per ring, one per pair outside a ring; the strongest pair leads.
    let mut groups: BTreeMap<Option<usize>, Vec<Due>> = BTreeMap::new();
    for d in due {
        let ring = found.iter().position(|r| r.members.contains(&d.low));
        groups.entry(ring).or_default().push(d);
    }
    let mut raised = Vec::new();
    for (ring, mut members) in groups {
        members.sort_by(|a, b| b.judged.score.score.total_cmp(&a.judged.score.score));
        let filings: Vec<Vec<Due>> = match ring {
            Some(_) => vec![members],
            None => members.into_iter().map(|d| vec![d]).collect(),
        };
        for group in filings {
            let ring = ring.map(|i| RingFound {
                ring: &found[i],
                games: &flagged,
            });
            let id = file(conn, &group, ring.as_ref(), policy, moderation, now)?;
            for d in &group {
                mark_reported(conn, d, id, now)?;
            }
            raised.push(id);
        }
    }
    Ok(raised)
}

/// The pair's finding, when it has one and it is due.
fn due_finding(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    pair: &HeldPair,
    held: &Recorded,
    policy: &CollusionPolicy,
) -> QueryResult<Option<Due>> {
    let shared = i64::try_from(pair.record.games()).unwrap_or(i64::MAX);
    if shared < i64::from(policy.min_games) {
        return Ok(None);
    }
    let reported: Option<i64> = collusion_reported::table
        .find((low, high))
        .select(collusion_reported::games)
        .first(conn)
        .optional()?;
    if reported.is_some_and(|games| shared < 2 * games) {
        return Ok(None);
    }
    let judged = judgement(low, high, pair, held, policy);
    Ok(judged.finding.map(|finding| Due {
        low: low.to_string(),
        high: high.to_string(),
        shared,
        judged,
        finding,
    }))
}

fn mark_reported(conn: &mut DbConnection, d: &Due, id: i64, now: NaiveDateTime) -> QueryResult<()> {
    let row = (
        collusion_reported::player_low.eq(&d.low),
        collusion_reported::player_high.eq(&d.high),
        collusion_reported::games.eq(d.shared),
        collusion_reported::automatic_report_id.eq(id),
        collusion_reported::reported_at.eq(now),
    );
    on_backend!(conn, c => diesel::insert_into(collusion_reported::table)
        .values(row)
        .on_conflict((collusion_reported::player_low, collusion_reported::player_high))
        .do_update()
        .set((
            collusion_reported::games.eq(d.shared),
            collusion_reported::automatic_report_id.eq(id),
            collusion_reported::reported_at.eq(now),
        ))
        .execute(c))?;
    Ok(())
}

/// The due pairs and the pairs flagged before that connect to them (walking at most
/// [`RING_MEMBERS`] accounts), with their shared games.
fn flagged_around(
    conn: &mut DbConnection,
    due: &[Due],
) -> QueryResult<HashMap<(String, String), i64>> {
    let mut games: HashMap<(String, String), i64> = due
        .iter()
        .map(|d| ((d.low.clone(), d.high.clone()), d.shared))
        .collect();
    let mut seen: BTreeSet<String> = due
        .iter()
        .flat_map(|d| [d.low.clone(), d.high.clone()])
        .collect();
    let mut frontier: Vec<String> = seen.iter().cloned().collect();
    while let Some(name) = frontier.pop() {
        if seen.len() >= RING_MEMBERS {
            break;
        }
        let rows: Vec<(String, String, i64)> = collusion_reported::table
            .filter(
                collusion_reported::player_low
                    .eq(&name)
                    .or(collusion_reported::player_high.eq(&name)),
            )
            .select((
                collusion_reported::player_low,
                collusion_reported::player_high,
                collusion_reported::games,
            ))
            .load(conn)?;
        for (a, b, count) in rows {
            for member in [&a, &b] {
                if seen.insert(member.clone()) {
                    frontier.push(member.clone());
                }
            }
            games.entry((a, b)).or_insert(count);
        }
    }
    Ok(games)
}

/// A ring and the shared games of the flagged pairs.
struct RingFound<'a> {
    ring: &'a Ring,
    games: &'a HashMap<(String, String), i64>,
}

/// Evidence strength of a finding (0..1): its score against twice the threshold.
fn strength(score: &PairScore, policy: &CollusionPolicy) -> f64 {
    (score.score / (2.0 * policy.threshold)).clamp(0.0, 1.0)
}

/// Files one report for `group` (its strongest pair first): a ring's, naming every member, or
/// one pair's.
fn file(
    conn: &mut DbConnection,
    group: &[Due],
    ring: Option<&RingFound<'_>>,
    policy: &CollusionPolicy,
    moderation: &ModerationPolicy,
    now: NaiveDateTime,
) -> QueryResult<i64> {
    let lead = group.first().ok_or(diesel::result::Error::NotFound)?;
    let (low, high) = (lead.low.as_str(), lead.high.as_str());
    let judged = &lead.judged;
    let rows = newest_pair_rows(conn, low, high, REPORT_GAMES)?;
    let wanted = match judged.score.pattern {
        Pattern::Sparing => MomentKind::SparedCapture,
        Pattern::Feeding => MomentKind::Gift,
    };
    let mut game_ids: Vec<i64> = rows.iter().map(|r| r.game_id).collect();
    game_ids.dedup();
    game_ids.truncate(REPORT_GAMES);
    let picked: Vec<(&StoredPlay, Moment)> = rows
        .iter()
        .flat_map(|row| {
            row.play
                .moments
                .iter()
                .filter(|m| m.kind == wanted)
                .take(MOMENTS_PER_GAME)
                .map(move |m| (row, *m))
        })
        .take(MOMENTS_LISTED)
        .collect();
    let moment_games: Vec<i64> = picked.iter().map(|(row, _)| row.game_id).collect();
    let numbers: HashMap<i64, String> = games::table
        .filter(games::id.eq_any(&moment_games))
        .select((games::id, games::site_game_id))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect();
    let moments: Vec<MomentAt> = picked
        .iter()
        .map(|(row, moment)| MomentAt {
            game: numbers.get(&row.game_id).cloned().unwrap_or_default(),
            by: row.player.clone(),
            to: row.opponent.clone(),
            moment: *moment,
        })
        .collect();
    let mut text = summary(low, high, &judged.score, &judged.link, &moments);
    let mut accused: Vec<&str> = vec![high];
    let mut rule = judged.score.pattern.as_str();
    if let Some(found) = ring {
        let shared = |a: &str, b: &str| {
            found
                .games
                .get(&(a.to_string(), b.to_string()))
                .map_or(0, |&g| u64::try_from(g).unwrap_or(0))
        };
        text = format!("{} {text}", ring_summary(found.ring, shared));
        accused = found
            .ring
            .members
            .iter()
            .map(String::as_str)
            .filter(|m| *m != low)
            .collect();
        rule = "ring";
    }
    let newest = game_ids
        .first()
        .copied()
        .ok_or(diesel::result::Error::NotFound)?;
    automatic_reports::insert(
        conn,
        &NewAutomaticReport {
            source: AutomaticSource::CollusionAnalysis,
            player: low,
            also_accused: &accused,
            game_id: newest,
            reason: lead.finding.reason(),
            rule,
            score: strength(&judged.score, policy),
            summary: &text,
            supporting_games: &game_ids,
            created_at: now,
        },
        moderation,
    )
}
