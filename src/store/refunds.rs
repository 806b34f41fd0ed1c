//! Refunds owed per case, game and victim's seat (`refunds`), and the archive reads that work
//! them out: the games the offenders shared, and the games concerned with their seats. A
//! refund row holds the seat, not the name: names, placements and ratings are read from
//! `game_seats`, so an erasure that renames a seat renames its refunds too.

use std::collections::HashMap;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::archive_pairs::pairs_of;
use super::connection::DbConnection;
use super::reports::variant_of;
use super::schema::{game_pairs, game_seats, games, refunds};
use crate::moderation::{CaseId, GameNumber, RefundGame, RefundLine, RefundSeat};

/// The archive ids of every game at least two of `players` shared, played at or after
/// `since` (from `game_pairs`, the index of each pair's games).
pub fn shared_games(
    conn: &mut DbConnection,
    players: &[String],
    since: NaiveDateTime,
) -> QueryResult<Vec<i64>> {
    let names: Vec<&str> = players.iter().map(String::as_str).collect();
    let mut ids = Vec::new();
    for (low, high) in pairs_of(&names) {
        let pair_games = game_pairs::table
            .filter(game_pairs::player_low.eq(low))
            .filter(game_pairs::player_high.eq(high))
            .select(game_pairs::game_id);
        let found: Vec<i64> = games::table
            .filter(games::id.eq_any(pair_games))
            .filter(games::played_at.ge(since))
            .select(games::id)
            .load(conn)?;
        ids.extend(found);
    }
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// These games with their seats, oldest first; a game whose number is not numeric (never
/// stored by the ingest) is left out.
pub fn games_concerned(conn: &mut DbConnection, ids: &[i64]) -> QueryResult<Vec<RefundGame>> {
    let mut found = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(500) {
        let rows: Vec<(i64, String, String, NaiveDateTime)> = games::table
            .filter(games::id.eq_any(chunk))
            .select((
                games::id,
                games::site_game_id,
                games::variant,
                games::played_at,
            ))
            .load(conn)?;
        found.extend(rows);
    }
    found.sort_by_key(|g| (g.3, g.0));
    let mut seats: HashMap<i64, Vec<RefundSeat>> = HashMap::new();
    for chunk in ids.chunks(500) {
        type SeatTuple = (i64, i16, String, Option<i32>, Option<i32>, i16);
        let rows: Vec<SeatTuple> = game_seats::table
            .filter(game_seats::game_id.eq_any(chunk))
            .select((
                game_seats::game_id,
                game_seats::seat,
                game_seats::player,
                game_seats::rating_before,
                game_seats::rating_after,
                game_seats::placement,
            ))
            .load(conn)?;
        for (game, seat, player, rating_before, rating_after, placement) in rows {
            seats.entry(game).or_default().push(RefundSeat {
                seat,
                player,
                rating_before,
                rating_after,
                placement,
            });
        }
    }
    Ok(found
        .into_iter()
        .filter_map(|(id, site, variant, _)| {
            Some(RefundGame {
                game_id: id,
                number: GameNumber(site.parse().ok()?),
                variant: variant_of(&variant),
                seats: seats.remove(&id).unwrap_or_default(),
            })
        })
        .collect())
}

/// The (game, seat) pairs among these games that some case already refunds.
pub fn settled(conn: &mut DbConnection, game_ids: &[i64]) -> QueryResult<Vec<(i64, i16)>> {
    let mut found = Vec::new();
    for chunk in game_ids.chunks(500) {
        let rows: Vec<(i64, i16)> = refunds::table
            .filter(refunds::game_id.eq_any(chunk))
            .select((refunds::game_id, refunds::seat))
            .load(conn)?;
        found.extend(rows);
    }
    Ok(found)
}

/// Stores a case's refunds, in the caller's transaction. A seat's loss in a game is refunded
/// once: the unique key (game, seat) refuses a second row.
pub fn insert(
    conn: &mut DbConnection,
    case_id: CaseId,
    lines: &[RefundLine],
    now: NaiveDateTime,
) -> QueryResult<()> {
    let rows: Vec<_> = lines
        .iter()
        .map(|line| {
            (
                refunds::case_id.eq(case_id),
                refunds::game_id.eq(line.game_id),
                refunds::seat.eq(line.seat),
                refunds::amount.eq(line.amount),
                refunds::created_at.eq(now),
            )
        })
        .collect();
    // Bounded statements: SQLite allows a limited number of bound parameters.
    for chunk in rows.chunks(100) {
        insert_all!(conn, refunds::table, chunk)?;
    }
    Ok(())
}

/// A case's refunds as stored, with each seat's name, placement and ratings as the archive
/// holds them now; oldest game first, then seat order.
pub fn of_case(conn: &mut DbConnection, case_id: CaseId) -> QueryResult<Vec<RefundLine>> {
    lines(conn, Whose::Case(case_id))
}

/// Every refund owed to the player (seated under this name), as [`of_case`] reads them: their
/// personal-data export.
pub fn owed_to(conn: &mut DbConnection, player: &str) -> QueryResult<Vec<RefundLine>> {
    lines(conn, Whose::Player(player))
}

/// Which refunds to read.
enum Whose<'a> {
    Case(CaseId),
    Player(&'a str),
}

fn lines(conn: &mut DbConnection, whose: Whose<'_>) -> QueryResult<Vec<RefundLine>> {
    type Row = (
        i64,
        String,
        i16,
        String,
        i16,
        Option<i32>,
        Option<i32>,
        Option<i64>,
    );
    let mut query = refunds::table
        .inner_join(games::table)
        .inner_join(
            game_seats::table.on(game_seats::game_id
                .eq(refunds::game_id)
                .and(game_seats::seat.eq(refunds::seat))),
        )
        .into_boxed();
    query = match whose {
        Whose::Case(case_id) => query.filter(refunds::case_id.eq(case_id)),
        Whose::Player(name) => query.filter(game_seats::player.eq(name.to_string())),
    };
    let rows: Vec<Row> = query
        .order((games::played_at.asc(), games::id.asc(), refunds::seat.asc()))
        .select((
            refunds::game_id,
            games::site_game_id,
            refunds::seat,
            game_seats::player,
            game_seats::placement,
            game_seats::rating_before,
            game_seats::rating_after,
            refunds::amount,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(game_id, site, seat, player, placement, rating_before, rating_after, amount)| {
                RefundLine {
                    game_id,
                    number: GameNumber(site.parse().unwrap_or_default()),
                    seat,
                    player,
                    placement,
                    rating_before,
                    rating_after,
                    amount,
                }
            },
        )
        .collect())
}
