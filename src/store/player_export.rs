//! What the service holds about one player, read for an export (the use case
//! `export_player`): games and chat lines a page at a time (a player may have many
//! thousands), the moderation records whole.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::games::SeatRow;
use super::players;
use super::schema::{
    appeals, cases, game_chat, game_seats, games, player_notes, players as players_table,
    report_accused, reports, sanctions,
};
use crate::moderation::{PlayerId, RefundLine, Warning};

/// One game of the player: the game's identity and the player's seat.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportGame {
    pub game_id: i64,
    pub number: String,
    pub variant: String,
    pub played_at: NaiveDateTime,
    pub aborted: bool,
    pub seat: SeatRow,
}

/// The player's games after `after` (a game id), oldest first.
pub fn games_page(
    conn: &mut DbConnection,
    name: &str,
    after: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<ExportGame>> {
    let rows: Vec<(i64, String, String, NaiveDateTime, bool, SeatRow)> = game_seats::table
        .inner_join(games::table)
        .filter(game_seats::player.eq(name))
        .filter(game_seats::game_id.gt(after.unwrap_or(i64::MIN)))
        .order((game_seats::game_id.asc(), game_seats::seat.asc()))
        .limit(limit)
        .select((
            games::id,
            games::site_game_id,
            games::variant,
            games::played_at,
            games::aborted,
            SeatRow::as_select(),
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(game_id, number, variant, played_at, aborted, seat)| ExportGame {
                game_id,
                number,
                variant,
                played_at,
                aborted,
                seat,
            },
        )
        .collect())
}

/// One chat line the player sent, still held.
#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct ExportChatLine {
    pub game_id: i64,
    pub idx: i32,
    pub ply: i32,
    pub sent_at: Option<NaiveDateTime>,
    pub channel: String,
    pub text: String,
}

/// The player's chat lines after `after` (game id, line index), in game order. Reached
/// through the player's seats (indexed by name); a line counts when the player sent it.
pub fn chat_page(
    conn: &mut DbConnection,
    name: &str,
    after: Option<(i64, i32)>,
    limit: i64,
) -> QueryResult<Vec<ExportChatLine>> {
    let (after_game, after_idx) = after.unwrap_or((i64::MIN, i32::MIN));
    let game_ids = game_seats::table
        .filter(game_seats::player.eq(name))
        .filter(game_seats::game_id.ge(after_game))
        .select(game_seats::game_id);
    game_chat::table
        .filter(game_chat::game_id.eq_any(game_ids))
        .filter(game_chat::sender.eq(name))
        .filter(
            game_chat::game_id.gt(after_game).or(game_chat::game_id
                .eq(after_game)
                .and(game_chat::idx.gt(after_idx))),
        )
        .order((game_chat::game_id.asc(), game_chat::idx.asc()))
        .limit(limit)
        .select((
            game_chat::game_id,
            game_chat::idx,
            game_chat::ply,
            game_chat::sent_at,
            game_chat::channel,
            game_chat::text,
        ))
        .load(conn)
}

/// A report the player filed or that names them.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportReport {
    pub id: i64,
    pub source: String,
    pub reason: String,
    pub message: Option<String>,
    pub game_id: Option<i64>,
    pub filed_at: NaiveDateTime,
    pub outcome: Option<String>,
    pub decided_at: Option<NaiveDateTime>,
    /// Who filed it (`None` for the service's own reports).
    pub reporter: Option<String>,
    pub accused: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct ExportCase {
    pub id: i64,
    pub reason: String,
    pub status: String,
    pub opened_at: NaiveDateTime,
    pub decided_at: Option<NaiveDateTime>,
}

#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct ExportSanction {
    pub id: i64,
    pub case_id: Option<i64>,
    pub kind: String,
    pub reason: String,
    pub ground: String,
    pub starts_at: NaiveDateTime,
    pub ends_at: Option<NaiveDateTime>,
    pub lifted_at: Option<NaiveDateTime>,
    pub reduced_until: Option<NaiveDateTime>,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct ExportAppeal {
    pub id: i64,
    pub sanction_id: i64,
    pub text: String,
    pub filed_at: NaiveDateTime,
    pub status: String,
    pub decided_at: Option<NaiveDateTime>,
    pub note: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExportNote {
    pub id: i64,
    pub author: String,
    pub case_id: Option<i64>,
    pub text: String,
    pub created_at: NaiveDateTime,
}

/// The player's moderation records; all empty for a name moderation never saw.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExportRecords {
    pub reports_filed: Vec<ExportReport>,
    pub reports_received: Vec<ExportReport>,
    pub cases: Vec<ExportCase>,
    pub sanctions: Vec<ExportSanction>,
    pub appeals: Vec<ExportAppeal>,
    pub notes: Vec<ExportNote>,
    /// Warnings the player was given, oldest first.
    pub warnings: Vec<Warning>,
    /// Refunds owed to the player as a victim, oldest game first.
    pub refunds: Vec<RefundLine>,
}

type ReportColumns = (
    i64,
    String,
    String,
    Option<String>,
    Option<i64>,
    NaiveDateTime,
    Option<String>,
    Option<NaiveDateTime>,
    Option<PlayerId>,
);

/// Every moderation record about or by the player, oldest first.
pub fn records(conn: &mut DbConnection, name: &str) -> QueryResult<ExportRecords> {
    let Some(player_id) = players::find_id(conn, name)? else {
        return Ok(ExportRecords::default());
    };
    let (filed, received) = reports_of(conn, player_id)?;
    Ok(ExportRecords {
        reports_filed: with_people(conn, filed)?,
        reports_received: with_people(conn, received)?,
        cases: cases_of(conn, player_id)?,
        sanctions: sanctions_of(conn, player_id)?,
        appeals: appeals_of(conn, player_id)?,
        notes: notes_on(conn, player_id)?,
        warnings: super::warnings::all_of(conn, player_id)?
            .into_iter()
            .map(|row| row.to_warning(name.to_string()))
            .collect(),
        refunds: super::refunds::owed_to(conn, name)?,
    })
}

/// The reports the player filed and those that name them.
fn reports_of(
    conn: &mut DbConnection,
    player_id: PlayerId,
) -> QueryResult<(Vec<ReportColumns>, Vec<ReportColumns>)> {
    let report_columns = (
        reports::id,
        reports::source,
        reports::reason,
        reports::message,
        reports::game_id,
        reports::filed_at,
        reports::outcome,
        reports::decided_at,
        reports::reporter_id,
    );
    let filed: Vec<ReportColumns> = reports::table
        .filter(reports::reporter_id.eq(player_id))
        .order(reports::id.asc())
        .select(report_columns)
        .load(conn)?;
    let received: Vec<ReportColumns> = reports::table
        .filter(
            reports::id.eq_any(
                report_accused::table
                    .filter(report_accused::player_id.eq(player_id))
                    .select(report_accused::report_id),
            ),
        )
        .order(reports::id.asc())
        .select(report_columns)
        .load(conn)?;
    Ok((filed, received))
}

fn cases_of(conn: &mut DbConnection, player_id: PlayerId) -> QueryResult<Vec<ExportCase>> {
    cases::table
        .filter(cases::accused_id.eq(player_id))
        .order(cases::id.asc())
        .select((
            cases::id,
            cases::reason,
            cases::status,
            cases::opened_at,
            cases::decided_at,
        ))
        .load(conn)
}

fn sanctions_of(conn: &mut DbConnection, player_id: PlayerId) -> QueryResult<Vec<ExportSanction>> {
    sanctions::table
        .filter(sanctions::player_id.eq(player_id))
        .order(sanctions::id.asc())
        .select((
            sanctions::id,
            sanctions::case_id,
            sanctions::kind,
            sanctions::reason,
            sanctions::ground,
            sanctions::starts_at,
            sanctions::ends_at,
            sanctions::lifted_at,
            sanctions::reduced_until,
            sanctions::note,
        ))
        .load(conn)
}

fn appeals_of(conn: &mut DbConnection, player_id: PlayerId) -> QueryResult<Vec<ExportAppeal>> {
    appeals::table
        .filter(appeals::player_id.eq(player_id))
        .order(appeals::id.asc())
        .select((
            appeals::id,
            appeals::sanction_id,
            appeals::text,
            appeals::filed_at,
            appeals::status,
            appeals::decided_at,
            appeals::note,
        ))
        .load(conn)
}

/// Admins' notes on the player, with each author's name.
fn notes_on(conn: &mut DbConnection, player_id: PlayerId) -> QueryResult<Vec<ExportNote>> {
    let notes: Vec<(i64, String, Option<i64>, String, NaiveDateTime)> = player_notes::table
        .inner_join(players_table::table.on(players_table::id.eq(player_notes::author_id)))
        .filter(player_notes::player_id.eq(player_id))
        .order(player_notes::id.asc())
        .select((
            player_notes::id,
            players_table::name,
            player_notes::case_id,
            player_notes::text,
            player_notes::created_at,
        ))
        .load(conn)?;
    Ok(notes
        .into_iter()
        .map(|(id, author, case_id, text, created_at)| ExportNote {
            id,
            author,
            case_id,
            text,
            created_at,
        })
        .collect())
}

/// Reports with their reporter and accused named.
fn with_people(
    conn: &mut DbConnection,
    rows: Vec<ReportColumns>,
) -> QueryResult<Vec<ExportReport>> {
    let ids: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let mut accused: Vec<(i64, PlayerId)> = Vec::new();
    for chunk in ids.chunks(500) {
        accused.extend(
            report_accused::table
                .filter(report_accused::report_id.eq_any(chunk))
                .order((report_accused::report_id, report_accused::player_id))
                .select((report_accused::report_id, report_accused::player_id))
                .load::<(i64, PlayerId)>(conn)?,
        );
    }
    let mut people: Vec<PlayerId> = accused.iter().map(|a| a.1).collect();
    people.extend(rows.iter().filter_map(|r| r.8));
    people.sort_unstable();
    people.dedup();
    let names = players::names(conn, &people)?;
    Ok(rows
        .into_iter()
        .map(
            |(id, source, reason, message, game_id, filed_at, outcome, decided_at, reporter)| {
                ExportReport {
                    id,
                    source,
                    reason,
                    message,
                    game_id,
                    filed_at,
                    outcome,
                    decided_at,
                    reporter: reporter.and_then(|r| names.get(&r).cloned()),
                    accused: accused
                        .iter()
                        .filter(|(report, _)| *report == id)
                        .filter_map(|(_, player)| names.get(player).cloned())
                        .collect(),
                }
            },
        )
        .collect())
}

/// Whether anything is held under the name: a moderation row or an archived game.
pub fn is_known(conn: &mut DbConnection, name: &str) -> QueryResult<bool> {
    if players::find_id(conn, name)?.is_some() {
        return Ok(true);
    }
    let games: i64 = game_seats::table
        .filter(game_seats::player.eq(name))
        .count()
        .get_result(conn)?;
    Ok(games > 0)
}
