//! The archive search: one page of games, newest first, by player, pair and the other
//! filters. A player's or a pair's page walks an index of their game ids, so its cost does not
//! grow with the archive.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::connection::DbConnection;
use super::games::{with_seats, GameRow, SeatRow};
use super::schema::{game_pairs, game_seats, games};

/// Archive filters; every one is optional.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    pub player: Option<String>,
    /// A second player who must also have played.
    pub with: Option<String>,
    pub variant: Option<String>,
    pub termination: Option<String>,
    pub aborted: Option<bool>,
    /// `played_at >= from`.
    pub from: Option<NaiveDateTime>,
    /// `played_at < to`.
    pub to: Option<NaiveDateTime>,
}

type Backend = <DbConnection as diesel::Connection>::Backend;

/// The games passing the filters other than the players.
fn games_matching(filter: &GameFilter) -> games::BoxedQuery<'static, Backend> {
    let mut query = games::table.into_boxed();
    if let Some(variant) = &filter.variant {
        query = query.filter(games::variant.eq(variant.clone()));
    }
    if let Some(termination) = &filter.termination {
        query = query.filter(games::termination.eq(termination.clone()));
    }
    if let Some(aborted) = filter.aborted {
        query = query.filter(games::aborted.eq(aborted));
    }
    if let Some(from) = filter.from {
        query = query.filter(games::played_at.ge(from));
    }
    if let Some(to) = filter.to {
        query = query.filter(games::played_at.lt(to));
    }
    query
}

/// One page of games, newest id first: at most `limit` games with id below `before_id`, each
/// with its seats.
///
/// With a player, the page walks that player's seats (index `(player, game_id)`) newest game
/// first; with two players, the pair's rows in `game_pairs`. Without other filters a page then
/// costs `limit` index steps however large the archive or the player's record; the other
/// filters narrow that walk, so a rare one reads further into the player's games.
pub fn list_page(
    conn: &mut DbConnection,
    filter: &GameFilter,
    before_id: Option<i64>,
    limit: i64,
) -> QueryResult<Vec<(GameRow, Vec<SeatRow>)>> {
    let players: Vec<String> = [&filter.player, &filter.with]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let rows = match players.as_slice() {
        [] => {
            let mut query = games_matching(filter).select(GameRow::as_select());
            if let Some(before) = before_id {
                query = query.filter(games::id.lt(before));
            }
            query.order(games::id.desc()).limit(limit).load(conn)?
        }
        [player] => walk(conn, filter, before_id, limit, |c, before, n| {
            player_game_ids(c, player, before, n)
        })?,
        [a, b] => match super::archive_pairs::pair_key(a, b) {
            Some((low, high)) => walk(conn, filter, before_id, limit, |c, before, n| {
                pair_game_ids(c, low, high, before, n)
            })?,
            None => walk(conn, filter, before_id, limit, |c, before, n| {
                player_game_ids(c, a, before, n)
            })?,
        },
        _ => unreachable!("at most two players"),
    };
    with_seats(conn, rows)
}

/// Ids read per step of a walk narrowed by other filters.
const NARROWED_WALK_STEP: i64 = 500;

/// A page from an index of game ids read newest first: each step reads the next ids (one
/// range of one index, whatever the planner thinks of the data), then those games that pass
/// the other filters by primary key, until the page is full or the index is walked.
fn walk(
    conn: &mut DbConnection,
    filter: &GameFilter,
    before_id: Option<i64>,
    limit: i64,
    mut next_ids: impl FnMut(&mut DbConnection, Option<i64>, i64) -> QueryResult<Vec<i64>>,
) -> QueryResult<Vec<GameRow>> {
    let narrowed = filter.variant.is_some()
        || filter.termination.is_some()
        || filter.aborted.is_some()
        || filter.from.is_some()
        || filter.to.is_some();
    let mut page: Vec<GameRow> = Vec::new();
    let mut before = before_id;
    while (page.len() as i64) < limit {
        let want = limit - page.len() as i64;
        let step = if narrowed {
            want.max(NARROWED_WALK_STEP)
        } else {
            want
        };
        let mut ids = next_ids(conn, before, step)?;
        let walked = (ids.len() as i64) < step;
        // A player seated twice in a game meets it twice.
        ids.dedup();
        let Some(&last) = ids.last() else { break };
        before = Some(last);
        let found: Vec<GameRow> = games_matching(filter)
            .select(GameRow::as_select())
            .filter(games::id.eq_any(ids))
            .order(games::id.desc())
            .limit(want)
            .load(conn)?;
        let taken = found.len() as i64;
        page.extend(found);
        if taken == want {
            // The page is full; the ids after the last listed game are for the next page.
            break;
        }
        if walked {
            break;
        }
    }
    Ok(page)
}

/// At most `n` of a player's game ids (one per seat) below `before`, newest first.
fn player_game_ids(
    conn: &mut DbConnection,
    player: &str,
    before: Option<i64>,
    n: i64,
) -> QueryResult<Vec<i64>> {
    let mut query = game_seats::table
        .filter(game_seats::player.eq(player.to_string()))
        .select(game_seats::game_id)
        .into_boxed();
    if let Some(before) = before {
        query = query.filter(game_seats::game_id.lt(before));
    }
    query.order(game_seats::game_id.desc()).limit(n).load(conn)
}

/// At most `n` of a pair's game ids below `before`, newest first.
fn pair_game_ids(
    conn: &mut DbConnection,
    low: &str,
    high: &str,
    before: Option<i64>,
    n: i64,
) -> QueryResult<Vec<i64>> {
    let mut query = game_pairs::table
        .filter(game_pairs::player_low.eq(low.to_string()))
        .filter(game_pairs::player_high.eq(high.to_string()))
        .select(game_pairs::game_id)
        .into_boxed();
    if let Some(before) = before {
        query = query.filter(game_pairs::game_id.lt(before));
    }
    query.order(game_pairs::game_id.desc()).limit(n).load(conn)
}
