//! The retention rule applied to the archive: batches of games whose chat text or connection
//! data has outlived its period ([`crate::moderation::retention`]), each purged in one
//! transaction, or only counted for a dry run.
//!
//! A game is looked at once its period has passed since it was played (the partial indexes
//! `games_chat_kept` and `games_connections_kept` hold only the games not purged yet, by
//! played time, so a pass reads no purged game). A game cited by a case (as the report's game
//! or a supporting game) waits while the case or its sanctions matter; such a game stays in
//! the index and is looked at again on the next pass.

use std::collections::{BTreeSet, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::sanctions::SanctionRow;
use super::schema::{
    case_reports, cases, game_chat, game_events, game_seats, games, report_games, reports,
    sanctions,
};
use super::to_utc;
use crate::moderation::retention::{
    case_matters, purge_after, Matters, PersonalData, RetentionSettings,
};

/// The stored kinds of connection events; resignations, time-outs, forfeits and win claims
/// are results and stay.
const CONNECTION_EVENTS: [&str; 2] = ["disconnect", "reconnect"];

/// What a batch did (or, dry, would do).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Purged {
    /// Games whose period had passed.
    pub looked_at: u64,
    /// Of those, games purged.
    pub games: u64,
    /// Games kept because a case citing them still matters.
    pub held: u64,
    pub chat_lines: u64,
    pub events: u64,
    /// Seats that carried a device or network fingerprint.
    pub fingerprinted_seats: u64,
}

impl Purged {
    pub fn add(&mut self, other: &Purged) {
        self.looked_at += other.looked_at;
        self.games += other.games;
        self.held += other.held;
        self.chat_lines += other.chat_lines;
        self.events += other.events;
        self.fingerprinted_seats += other.fingerprinted_seats;
    }
}

/// Where a pass has got to: the last game looked at, by (played time, id).
pub type Cursor = (NaiveDateTime, i64);

/// One batch of `kind`: the next games after `after` whose period has passed at `now` and
/// whose data of that kind is still kept; purges those no mattering case cites (in the
/// caller's transaction) unless `dry_run`. Returns what it did and the cursor for the next
/// batch (`None`: the pass is complete).
pub fn purge_batch(
    conn: &mut DbConnection,
    settings: &RetentionSettings,
    kind: PersonalData,
    after: Option<Cursor>,
    now: NaiveDateTime,
    dry_run: bool,
) -> QueryResult<(Purged, Option<Cursor>)> {
    let limit = i64::from(settings.batch);
    let candidates = candidates(conn, kind, now - settings.period(kind), after, limit)?;
    let next = match candidates.last() {
        Some(&(id, played_at)) if candidates.len() as i64 == limit => Some((played_at, id)),
        _ => None,
    };
    let ids: Vec<i64> = candidates.iter().map(|c| c.0).collect();
    let citing = citing_cases(conn, &ids)?;
    let period = settings.period(kind);
    let due: Vec<i64> = candidates
        .iter()
        .filter(|(id, played_at)| {
            let cases = citing.get(id).map_or(&[][..], Vec::as_slice);
            purge_after(to_utc(*played_at), cases, period).is_some_and(|at| at <= to_utc(now))
        })
        .map(|c| c.0)
        .collect();
    let mut done = Purged {
        looked_at: candidates.len() as u64,
        games: due.len() as u64,
        held: (candidates.len() - due.len()) as u64,
        ..Purged::default()
    };
    for chunk in due.chunks(500) {
        match kind {
            PersonalData::ChatText => purge_chat(conn, chunk, now, dry_run, &mut done)?,
            PersonalData::Connections => purge_connections(conn, chunk, now, dry_run, &mut done)?,
        }
    }
    Ok((done, next))
}

/// The next games after `after` played by `cutoff` whose data of `kind` is still kept, as
/// (id, played time), at most `limit`.
fn candidates(
    conn: &mut DbConnection,
    kind: PersonalData,
    cutoff: NaiveDateTime,
    after: Option<Cursor>,
    limit: i64,
) -> QueryResult<Vec<(i64, NaiveDateTime)>> {
    let mut query = games::table
        .select((games::id, games::played_at))
        .filter(games::played_at.le(cutoff))
        .into_boxed();
    query = match kind {
        PersonalData::ChatText => query.filter(games::chat_purged_at.is_null()),
        PersonalData::Connections => query.filter(games::connections_purged_at.is_null()),
    };
    if let Some((played_at, id)) = after {
        query = query.filter(
            games::played_at
                .gt(played_at)
                .or(games::played_at.eq(played_at).and(games::id.gt(id))),
        );
    }
    query
        .order((games::played_at.asc(), games::id.asc()))
        .limit(limit)
        .load(conn)
}

/// Counts, and unless `dry_run` deletes, these games' chat lines.
fn purge_chat(
    conn: &mut DbConnection,
    games_due: &[i64],
    now: NaiveDateTime,
    dry_run: bool,
    done: &mut Purged,
) -> QueryResult<()> {
    done.chat_lines += count(
        game_chat::table
            .filter(game_chat::game_id.eq_any(games_due))
            .count()
            .get_result(conn)?,
    );
    if !dry_run {
        diesel::delete(game_chat::table.filter(game_chat::game_id.eq_any(games_due)))
            .execute(conn)?;
        diesel::update(games::table.filter(games::id.eq_any(games_due)))
            .set(games::chat_purged_at.eq(now))
            .execute(conn)?;
    }
    Ok(())
}

/// Counts, and unless `dry_run` deletes, these games' connection events and seat
/// fingerprints.
fn purge_connections(
    conn: &mut DbConnection,
    games_due: &[i64],
    now: NaiveDateTime,
    dry_run: bool,
    done: &mut Purged,
) -> QueryResult<()> {
    let connection_events = game_events::table.filter(
        game_events::game_id
            .eq_any(games_due)
            .and(game_events::kind.eq_any(CONNECTION_EVENTS)),
    );
    done.events += count(connection_events.clone().count().get_result(conn)?);
    let fingerprinted = game_seats::table.filter(
        game_seats::game_id.eq_any(games_due).and(
            game_seats::device_fp
                .is_not_null()
                .or(game_seats::network_fp.is_not_null()),
        ),
    );
    done.fingerprinted_seats += count(fingerprinted.clone().count().get_result(conn)?);
    if !dry_run {
        diesel::delete(connection_events).execute(conn)?;
        diesel::update(fingerprinted)
            .set((
                game_seats::device_fp.eq(None::<String>),
                game_seats::network_fp.eq(None::<String>),
            ))
            .execute(conn)?;
        diesel::update(games::table.filter(games::id.eq_any(games_due)))
            .set(games::connections_purged_at.eq(now))
            .execute(conn)?;
    }
    Ok(())
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// For each of `games` cited by a case (the game of one of its reports, or a supporting game),
/// until when each such case matters.
fn citing_cases(conn: &mut DbConnection, games: &[i64]) -> QueryResult<HashMap<i64, Vec<Matters>>> {
    let mut reports_of: Vec<(i64, i64)> = Vec::new();
    for chunk in games.chunks(500) {
        reports_of.extend(
            reports::table
                .filter(reports::game_id.eq_any(chunk))
                .select((reports::game_id.assume_not_null(), reports::id))
                .load::<(i64, i64)>(conn)?,
        );
        reports_of.extend(
            report_games::table
                .filter(report_games::game_id.eq_any(chunk))
                .select((report_games::game_id, report_games::report_id))
                .load::<(i64, i64)>(conn)?,
        );
    }
    if reports_of.is_empty() {
        return Ok(HashMap::new());
    }
    let report_ids: BTreeSet<i64> = reports_of.iter().map(|r| r.1).collect();
    let report_ids: Vec<i64> = report_ids.into_iter().collect();
    let mut cases_of: HashMap<i64, Vec<i64>> = HashMap::new();
    for chunk in report_ids.chunks(500) {
        for (report, case) in case_reports::table
            .filter(case_reports::report_id.eq_any(chunk))
            .select((case_reports::report_id, case_reports::case_id))
            .load::<(i64, i64)>(conn)?
        {
            cases_of.entry(report).or_default().push(case);
        }
    }
    let case_ids: BTreeSet<i64> = cases_of.values().flatten().copied().collect();
    let case_ids: Vec<i64> = case_ids.into_iter().collect();
    let mut matters: HashMap<i64, Matters> = HashMap::new();
    for chunk in case_ids.chunks(500) {
        let decided: Vec<(i64, Option<NaiveDateTime>)> = cases::table
            .filter(cases::id.eq_any(chunk))
            .select((cases::id, cases::decided_at))
            .load(conn)?;
        let mut ends: HashMap<i64, Vec<Option<chrono::DateTime<chrono::Utc>>>> = HashMap::new();
        for row in sanctions::table
            .filter(sanctions::case_id.eq_any(chunk))
            .select(SanctionRow::as_select())
            .load::<SanctionRow>(conn)?
        {
            let end = row.to_policy().effective_end();
            if let Some(case) = row.case_id {
                ends.entry(case.0).or_default().push(end);
            }
        }
        for (case, decided_at) in decided {
            let sanction_ends = ends.get(&case).map_or(&[][..], Vec::as_slice);
            matters.insert(case, case_matters(decided_at.map(to_utc), sanction_ends));
        }
    }
    let mut out: HashMap<i64, Vec<Matters>> = HashMap::new();
    for (game, report) in reports_of {
        for case in cases_of.get(&report).into_iter().flatten() {
            if let Some(m) = matters.get(case) {
                out.entry(game).or_default().push(*m);
            }
        }
    }
    Ok(out)
}
