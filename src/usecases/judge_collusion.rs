//! Judging collusion at a game's ingest: its pairs are judged and the automatic reports of
//! their findings raised.
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

use super::raise_automatic_report;
use crate::collusion::interaction::{Moment, MomentKind};
use crate::collusion::summary::{ring_summary, summary, MomentAt, MOMENTS_LISTED};
use crate::collusion::{
    classify, rings, score_pair, AccountLink, CollusionPolicy, Finding, GameInteractions,
    PairScore, Pattern, PlayerTallies, Ring,
};
use crate::moderation::ModerationPolicy;
use crate::store::automatic_reports::{AutomaticSource, NewAutomaticReport};
use crate::store::collusion::{
    newest_pair_rows, record_statistics, HeldPair, Recorded, StoredPlay,
};
use crate::store::{collusion_reported, games, DbConnection};

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
/// pairs and raises the reports of the findings due, in the caller's transaction; returns
/// their automatic report ids. A game with a name seated twice is not recorded.
pub fn record_and_judge(
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

/// Judges a game's pairs (their records, this game included) and raises the reports of the
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
    let mut raised = Vec::new();
    for (ring, group) in filings(due, &found) {
        let ring = ring.map(|i| RingFound {
            ring: &found[i],
            games: &flagged,
        });
        let id = raise(conn, &group, ring.as_ref(), policy, moderation, now)?;
        for d in &group {
            collusion_reported::mark_reported(conn, (&d.low, &d.high), d.shared, id, now)?;
        }
        raised.push(id);
    }
    Ok(raised)
}

/// The reports to raise: one per ring (the index of the ring in `found`), one per pair
/// outside a ring; the strongest pair of each leads.
fn filings(due: Vec<Due>, found: &[Ring]) -> Vec<(Option<usize>, Vec<Due>)> {
    let mut groups: BTreeMap<Option<usize>, Vec<Due>> = BTreeMap::new();
    for d in due {
        let ring = found.iter().position(|r| r.members.contains(&d.low));
        groups.entry(ring).or_default().push(d);
    }
    let mut out = Vec::new();
    for (ring, mut members) in groups {
        members.sort_by(|a, b| b.judged.score.score.total_cmp(&a.judged.score.score));
        match ring {
            Some(_) => out.push((ring, members)),
            None => out.extend(members.into_iter().map(|d| (None, vec![d]))),
        }
    }
    out
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
    let reported = collusion_reported::games_when_reported(conn, low, high)?;
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
        for (a, b, count) in collusion_reported::pairs_of(conn, &name)? {
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

/// Raises one report for `group` (its strongest pair first): a ring's, naming every member,
/// or one pair's.
fn raise(
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
    let mut game_ids: Vec<i64> = rows.iter().map(|r| r.game_id).collect();
    game_ids.dedup();
    game_ids.truncate(REPORT_GAMES);
    let moments = surprising_moments(conn, &rows, judged.score.pattern)?;
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
    raise_automatic_report::raise(
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

/// The moments of the pattern in the pair's newest shared games (at most
/// [`MOMENTS_PER_GAME`] per game and direction, [`MOMENTS_LISTED`] in all), each with its
/// game's number.
fn surprising_moments(
    conn: &mut DbConnection,
    rows: &[StoredPlay],
    pattern: Pattern,
) -> QueryResult<Vec<MomentAt>> {
    let wanted = match pattern {
        Pattern::Sparing => MomentKind::SparedCapture,
        Pattern::Feeding => MomentKind::Gift,
    };
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
    let numbers = games::site_ids(conn, &moment_games)?;
    Ok(picked
        .iter()
        .map(|(row, moment)| MomentAt {
            game: numbers.get(&row.game_id).cloned().unwrap_or_default(),
            by: row.player.clone(),
            to: row.opponent.clone(),
            moment: *moment,
        })
        .collect())
}
