//! One case with its evidence gathered for the admin who decides it: every report with what it
//! names, the flagged chat lines in context, the accused's earlier cases, each reporter's
//! record, and the archive's history of the accused with each named partner. Reads only.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::archive_pairs;
use super::automatic_reports::AutomaticReportRow;
use super::cases::CaseRow;
use super::chat_flags::FlagRow;
use super::connection::DbConnection;
use super::game_search::{self, GameFilter};
use super::games::{self, ChatLineRow, GameRow, SeatRow};
use super::sanctions::SanctionRow;
use super::schema::{
    automatic_report_games, automatic_reports, case_reports, cases, chat_flags, decisions,
    game_chat, game_seats, games as games_table, report_accused, report_games, reports, sanctions,
};
use crate::moderation::{
    CaseId, DecisionKind, PlayerId, ReportId, ReportOutcome, ReportReason, ReportSource,
};

/// A stored report, as a case entry.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = reports)]
pub struct ReportRow {
    pub id: ReportId,
    pub source: ReportSource,
    pub reporter_id: Option<PlayerId>,
    pub automatic_report_id: Option<i64>,
    pub reason: ReportReason,
    pub message: Option<String>,
    pub game_id: Option<i64>,
    pub score: Option<f64>,
    pub filed_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    pub outcome: Option<ReportOutcome>,
    pub decided_at: Option<NaiveDateTime>,
    pub filed_by_admin: Option<PlayerId>,
}

/// How a reporter's decided reports turned out, by `reports.outcome`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReporterRecord {
    pub upheld: u32,
    pub dismissed_unjustified: u32,
    pub dismissed_not_actionable: u32,
}

/// One report of a case with everything it names.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryEvidence {
    pub report: ReportRow,
    pub reporter: Option<String>,
    /// The admin whose own entry it is.
    pub admin: Option<String>,
    /// The reporter's decided reports (all of them, this case's included once decided).
    pub reporter_record: Option<ReporterRecord>,
    /// Everyone the report names.
    pub accused: Vec<String>,
    /// The game it was filed from first, then the further games it cites.
    pub games: Vec<i64>,
    /// The automatic report behind an entry from chat analysis or a conduct signal.
    pub automatic: Option<AutomaticReportRow>,
}

/// A flagged chat line with the lines around it.
#[derive(Debug, Clone, PartialEq)]
pub struct FlaggedLine {
    pub line: ChatLineRow,
    pub flags: Vec<FlagRow>,
    pub before: Vec<ChatLineRow>,
    pub after: Vec<ChatLineRow>,
}

/// An earlier case of the same accused and how it was decided.
#[derive(Debug, Clone, PartialEq)]
pub struct EarlierCase {
    pub case: CaseRow,
    pub decision: Option<DecisionKind>,
}

/// One fingerprint seen on both players' seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedFingerprint {
    /// `device` or `network`.
    pub kind: &'static str,
    pub value: String,
    /// Games, among the accused's latest `FINGERPRINT_SEATS`, in which their seat carried it.
    pub accused_games: i64,
    /// The same for the partner.
    pub partner_games: i64,
}

/// What the archive says about the accused and one partner.
#[derive(Debug, Clone, PartialEq)]
pub struct PairHistory {
    pub partner: String,
    /// Games both played.
    pub games_together: i64,
    pub first_played: Option<NaiveDateTime>,
    pub last_played: Option<NaiveDateTime>,
    /// The most recent of those games, newest first, with seats.
    pub recent: Vec<(GameRow, Vec<SeatRow>)>,
    pub shared_fingerprints: Vec<SharedFingerprint>,
}

/// A case with its evidence.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseEvidence {
    pub case: CaseRow,
    pub accused: String,
    pub claimed_by: Option<String>,
    pub entries: Vec<EntryEvidence>,
    /// Every game the entries cite, newest first, with seats.
    pub games: Vec<(GameRow, Vec<SeatRow>)>,
    /// Flagged lines of the accused (and anyone named with them) in those games.
    pub flagged_lines: Vec<FlaggedLine>,
    pub earlier_cases: Vec<EarlierCase>,
    pub sanctions: Vec<SanctionRow>,
    /// For pair reasons (self-partnering, prearranged teaming): one per partner.
    pub pairs: Vec<PairHistory>,
}

/// Chat lines shown before and after each flagged line.
pub const CONTEXT_LINES: i32 = 3;
/// Shared games listed per pair (the count covers all of them).
pub const PAIR_RECENT_GAMES: i64 = 20;

/// One case with its evidence gathered; `None` if there is no such case.
pub fn case_evidence(conn: &mut DbConnection, id: CaseId) -> QueryResult<Option<CaseEvidence>> {
    let Some(case) = cases::table
        .find(id)
        .select(CaseRow::as_select())
        .first(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let report_rows: Vec<ReportRow> = case_reports::table
        .inner_join(reports::table)
        .filter(case_reports::case_id.eq(id))
        .order((reports::filed_at.asc(), reports::id.asc()))
        .select(ReportRow::as_select())
        .load(conn)?;
    let links = EntryLinks::load(conn, &report_rows)?;
    let names = people_named(conn, &case, &report_rows, &links)?;
    let entries = entries_of(report_rows, &links, &names);
    let accused = names.of(case.accused_id);
    let named = named_with(&accused, &entries);
    let cited = cited_games(&entries);

    let game_rows: Vec<GameRow> = games_table::table
        .filter(games_table::id.eq_any(&cited))
        .order((games_table::played_at.desc(), games_table::id.desc()))
        .select(GameRow::as_select())
        .load(conn)?;
    let games = games::with_seats(conn, game_rows)?;
    let flagged_lines = flagged_lines(conn, &cited, &named)?;
    let earlier_cases = earlier_cases(conn, &case)?;
    let sanctions: Vec<SanctionRow> = sanctions::table
        .filter(sanctions::player_id.eq(case.accused_id))
        .order((sanctions::starts_at.desc(), sanctions::id.desc()))
        .select(SanctionRow::as_select())
        .load(conn)?;
    let pairs = if matches!(
        case.reason,
        ReportReason::SelfPartnering | ReportReason::PrearrangedTeaming
    ) {
        named
            .iter()
            .skip(1)
            .map(|partner| pair_history(conn, &accused, partner))
            .collect::<QueryResult<Vec<_>>>()?
    } else {
        Vec::new()
    };

    Ok(Some(CaseEvidence {
        claimed_by: case.claimed_by.map(|admin| names.of(admin)),
        accused,
        entries,
        games,
        flagged_lines,
        earlier_cases,
        sanctions,
        pairs,
        case,
    }))
}

/// What a case's reports point at besides their own row: the players each names, the further
/// games each cites, and the automatic reports behind entries with the games those cite.
struct EntryLinks {
    /// (report id, player id)
    accused: Vec<(ReportId, PlayerId)>,
    /// (report id, game id)
    games: Vec<(ReportId, i64)>,
    automatic: HashMap<i64, AutomaticReportRow>,
    /// (automatic report id, game id)
    automatic_games: Vec<(i64, i64)>,
    /// Each reporter's record of decided reports.
    records: HashMap<PlayerId, ReporterRecord>,
}

impl EntryLinks {
    fn load(conn: &mut DbConnection, report_rows: &[ReportRow]) -> QueryResult<EntryLinks> {
        let report_ids: Vec<ReportId> = report_rows.iter().map(|r| r.id).collect();
        let accused: Vec<(ReportId, PlayerId)> = report_accused::table
            .filter(report_accused::report_id.eq_any(&report_ids))
            .order((report_accused::report_id, report_accused::player_id))
            .select((report_accused::report_id, report_accused::player_id))
            .load(conn)?;
        let games: Vec<(ReportId, i64)> = report_games::table
            .filter(report_games::report_id.eq_any(&report_ids))
            .order((report_games::report_id, report_games::game_id))
            .select((report_games::report_id, report_games::game_id))
            .load(conn)?;
        let automatic_ids: Vec<i64> = report_rows
            .iter()
            .filter_map(|r| r.automatic_report_id)
            .collect();
        let automatic: HashMap<i64, AutomaticReportRow> = automatic_reports::table
            .filter(automatic_reports::id.eq_any(&automatic_ids))
            .select(AutomaticReportRow::as_select())
            .load(conn)?
            .into_iter()
            .map(|a: AutomaticReportRow| (a.id, a))
            .collect();
        let automatic_games: Vec<(i64, i64)> = automatic_report_games::table
            .filter(automatic_report_games::report_id.eq_any(&automatic_ids))
            .order((
                automatic_report_games::report_id,
                automatic_report_games::game_id,
            ))
            .select((
                automatic_report_games::report_id,
                automatic_report_games::game_id,
            ))
            .load(conn)?;
        let reporters: BTreeSet<PlayerId> =
            report_rows.iter().filter_map(|r| r.reporter_id).collect();
        let records = reporter_records(conn, &reporters.into_iter().collect::<Vec<_>>())?;
        Ok(EntryLinks {
            accused,
            games,
            automatic,
            automatic_games,
            records,
        })
    }
}

/// The names of everyone a case's evidence mentions by id.
struct Names(HashMap<PlayerId, String>);

impl Names {
    fn of(&self, id: PlayerId) -> String {
        self.0.get(&id).cloned().unwrap_or_default()
    }
}

fn people_named(
    conn: &mut DbConnection,
    case: &CaseRow,
    report_rows: &[ReportRow],
    links: &EntryLinks,
) -> QueryResult<Names> {
    let mut people: Vec<PlayerId> = links.accused.iter().map(|(_, p)| *p).collect();
    people.extend(report_rows.iter().filter_map(|r| r.reporter_id));
    people.extend(report_rows.iter().filter_map(|r| r.filed_by_admin));
    people.push(case.accused_id);
    people.extend(case.claimed_by);
    people.sort_unstable();
    people.dedup();
    Ok(Names(super::players::names(conn, &people)?))
}

/// Each report with what it names: the game it was filed from first, then the further games
/// it and its automatic report cite, each once.
fn entries_of(
    report_rows: Vec<ReportRow>,
    links: &EntryLinks,
    names: &Names,
) -> Vec<EntryEvidence> {
    report_rows
        .into_iter()
        .map(|report| {
            let mut games: Vec<i64> = report.game_id.into_iter().collect();
            let further = links
                .games
                .iter()
                .filter(|(r, _)| *r == report.id)
                .map(|(_, g)| *g)
                .chain(
                    links
                        .automatic_games
                        .iter()
                        .filter(|(a, _)| Some(*a) == report.automatic_report_id)
                        .map(|(_, g)| *g),
                );
            for game in further {
                if !games.contains(&game) {
                    games.push(game);
                }
            }
            EntryEvidence {
                reporter: report.reporter_id.map(|r| names.of(r)),
                admin: report.filed_by_admin.map(|a| names.of(a)),
                reporter_record: report
                    .reporter_id
                    .map(|r| links.records.get(&r).cloned().unwrap_or_default()),
                accused: links
                    .accused
                    .iter()
                    .filter(|(r, _)| *r == report.id)
                    .map(|(_, p)| names.of(*p))
                    .collect(),
                automatic: report
                    .automatic_report_id
                    .and_then(|a| links.automatic.get(&a).cloned()),
                games,
                report,
            }
        })
        .collect()
}

/// The accused first, then everyone named alongside them, each once.
fn named_with(accused: &str, entries: &[EntryEvidence]) -> Vec<String> {
    let mut named: Vec<String> = vec![accused.to_string()];
    for entry in entries {
        for person in &entry.accused {
            if !named.contains(person) {
                named.push(person.clone());
            }
        }
    }
    named
}

/// Every game the entries cite, in the order they first cite them.
fn cited_games(entries: &[EntryEvidence]) -> Vec<i64> {
    let mut cited: Vec<i64> = Vec::new();
    for game in entries.iter().flat_map(|entry| &entry.games) {
        if !cited.contains(game) {
            cited.push(*game);
        }
    }
    cited
}

/// The accused's other cases, newest first, with how each was decided.
fn earlier_cases(conn: &mut DbConnection, case: &CaseRow) -> QueryResult<Vec<EarlierCase>> {
    let earlier: Vec<(CaseRow, Option<DecisionKind>)> = cases::table
        .left_join(decisions::table)
        .filter(cases::accused_id.eq(case.accused_id))
        .filter(cases::id.ne(case.id))
        .order(cases::id.desc())
        .select((CaseRow::as_select(), decisions::kind.nullable()))
        .load(conn)?;
    Ok(earlier
        .into_iter()
        .map(|(case, decision)| EarlierCase { case, decision })
        .collect())
}

/// Outcomes of the decided reports of these reporters.
fn reporter_records(
    conn: &mut DbConnection,
    reporters: &[PlayerId],
) -> QueryResult<HashMap<PlayerId, ReporterRecord>> {
    let rows: Vec<(Option<PlayerId>, Option<ReportOutcome>)> = reports::table
        .filter(reports::reporter_id.eq_any(reporters))
        .filter(reports::outcome.is_not_null())
        .select((reports::reporter_id, reports::outcome))
        .load(conn)?;
    let mut records: HashMap<PlayerId, ReporterRecord> = HashMap::new();
    for (reporter, outcome) in rows {
        let (Some(reporter), Some(outcome)) = (reporter, outcome) else {
            continue;
        };
        let record = records.entry(reporter).or_default();
        match outcome {
            ReportOutcome::Upheld => record.upheld += 1,
            ReportOutcome::DismissedUnjustified => record.dismissed_unjustified += 1,
            ReportOutcome::DismissedNotActionable => record.dismissed_not_actionable += 1,
        }
    }
    Ok(records)
}

/// The flagged lines these senders wrote in these games, in game and chat order, each with
/// [`CONTEXT_LINES`] lines either side.
fn flagged_lines(
    conn: &mut DbConnection,
    games: &[i64],
    senders: &[String],
) -> QueryResult<Vec<FlaggedLine>> {
    let flags: Vec<FlagRow> = chat_flags::table
        .filter(chat_flags::game_id.eq_any(games))
        .filter(chat_flags::sender.eq_any(senders))
        .order((
            chat_flags::game_id.asc(),
            chat_flags::line_idx.asc(),
            chat_flags::id.asc(),
        ))
        .select(FlagRow::as_select())
        .load(conn)?;
    let mut by_line: BTreeMap<(i64, i32), Vec<FlagRow>> = BTreeMap::new();
    for flag in flags {
        by_line
            .entry((flag.game_id, flag.line_idx))
            .or_default()
            .push(flag);
    }
    let mut wanted: BTreeMap<i64, BTreeSet<i32>> = BTreeMap::new();
    for (game, idx) in by_line.keys() {
        let lines = wanted.entry(*game).or_default();
        lines.extend((idx - CONTEXT_LINES).max(0)..=idx + CONTEXT_LINES);
    }
    let mut chat: HashMap<(i64, i32), ChatLineRow> = HashMap::new();
    for (game, lines) in wanted {
        let lines: Vec<i32> = lines.into_iter().collect();
        for chunk in lines.chunks(500) {
            let rows: Vec<ChatLineRow> = game_chat::table
                .filter(game_chat::game_id.eq(game))
                .filter(game_chat::idx.eq_any(chunk))
                .select(ChatLineRow::as_select())
                .load(conn)?;
            chat.extend(rows.into_iter().map(|l| ((l.game_id, l.idx), l)));
        }
    }
    let around = |game: i64, range: std::ops::Range<i32>| -> Vec<ChatLineRow> {
        range
            .filter_map(|idx| chat.get(&(game, idx)).cloned())
            .collect()
    };
    Ok(by_line
        .into_iter()
        .filter_map(|((game, idx), flags)| {
            Some(FlaggedLine {
                line: chat.get(&(game, idx))?.clone(),
                flags,
                before: around(game, (idx - CONTEXT_LINES).max(0)..idx),
                after: around(game, idx + 1..idx + 1 + CONTEXT_LINES),
            })
        })
        .collect())
}

fn pair_history(conn: &mut DbConnection, accused: &str, partner: &str) -> QueryResult<PairHistory> {
    let totals = archive_pairs::totals(conn, accused, partner)?;
    let filter = GameFilter {
        player: Some(accused.to_string()),
        with: Some(partner.to_string()),
        ..GameFilter::default()
    };
    let recent = game_search::list_page(conn, &filter, None, PAIR_RECENT_GAMES)?;
    Ok(PairHistory {
        partner: partner.to_string(),
        games_together: totals.map_or(0, |t| t.games),
        first_played: totals.map(|t| t.first_played_at),
        last_played: totals.map(|t| t.last_played_at),
        recent,
        shared_fingerprints: shared_fingerprints(conn, accused, partner)?,
    })
}

/// Each player's latest games read for shared fingerprints: the case page stays fast for
/// players with very many games (docs/performance.md), and recent devices and networks are
/// the ones that matter for a case about current play.
const FINGERPRINT_SEATS: i64 = 1_000;

/// Device and network fingerprints that appear on seats of both players in their latest
/// `FINGERPRINT_SEATS` games.
fn shared_fingerprints(
    conn: &mut DbConnection,
    accused: &str,
    partner: &str,
) -> QueryResult<Vec<SharedFingerprint>> {
    let mut counts = |player: &str| -> QueryResult<[BTreeMap<String, i64>; 2]> {
        // Bounded by seats read, not by matches: a player without fingerprints would
        // otherwise be scanned to their first game.
        let rows: Vec<(Option<String>, Option<String>)> = game_seats::table
            .filter(game_seats::player.eq(player.to_string()))
            .order(game_seats::game_id.desc())
            .limit(FINGERPRINT_SEATS)
            .select((game_seats::device_fp, game_seats::network_fp))
            .load(conn)?;
        let mut device = BTreeMap::new();
        let mut network = BTreeMap::new();
        for (d, n) in rows {
            if let Some(d) = d.filter(|d| !d.is_empty()) {
                *device.entry(d).or_insert(0) += 1;
            }
            if let Some(n) = n.filter(|n| !n.is_empty()) {
                *network.entry(n).or_insert(0) += 1;
            }
        }
        Ok([device, network])
    };
    let mine = counts(accused)?;
    let theirs = counts(partner)?;
    let mut shared = Vec::new();
    for (kind, (mine, theirs)) in ["device", "network"]
        .into_iter()
        .zip(mine.iter().zip(&theirs))
    {
        for (value, accused_games) in mine {
            if let Some(partner_games) = theirs.get(value) {
                shared.push(SharedFingerprint {
                    kind,
                    value: value.clone(),
                    accused_games: *accused_games,
                    partner_games: *partner_games,
                });
            }
        }
    }
    Ok(shared)
}
