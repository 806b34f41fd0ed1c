//! The queries of a player's erasure (the use case `erase_player` runs them in one
//! transaction): their chat lines and fingerprints deleted, their name replaced by the
//! pseudonym `erased-<players.id>` everywhere it is stored (keys, free text, PGN4 tags,
//! encoded seat lists), and the name's keyed hash kept so their sanctions still answer the
//! standing check. The moderation log names people by id, so renaming the `players` row
//! pseudonymises it; only the free text of its `why` column is rewritten.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use diesel::sql_types::{Nullable, Text};

use super::archive_pairs::pair_key;
use super::connection::DbConnection;
use super::schema::{
    api_tokens, appeals, archive_pairs, archive_player_variants, archive_players,
    automatic_reports, chat_flags, collusion_baselines, collusion_pairs, collusion_reported,
    conduct_outcomes, conduct_pending, conduct_records, console_sessions, decisions, erased_names,
    game_chat, game_pair_play, game_pairs, game_seats, games, modlog, player_notes,
    players as players_table, reports, sanctions, warnings, webhook_events,
};
use crate::conduct::stored::{decode_seats, encode_seats};
use crate::moderation::erasure::{fold_name, replace_name, replace_name_in_pgn4_tags};
use crate::moderation::PlayerId;

diesel::define_sql_function! {
    /// Lower case (ASCII only on SQLite), for a case-blind prefilter before the exact match.
    fn lower(x: Nullable<Text>) -> Nullable<Text>;
}

/// Game ids are changed in chunks of this many (bind limits, bounded memory).
pub const CHUNK: usize = 500;

/// Whether any name was ever erased.
pub fn any_erased(conn: &mut DbConnection) -> QueryResult<bool> {
    let held: Option<String> = erased_names::table
        .select(erased_names::name_key)
        .first(conn)
        .optional()?;
    Ok(held.is_some())
}

/// Whether the archive's player look-up holds the name.
pub fn archived(conn: &mut DbConnection, name: &str) -> QueryResult<bool> {
    Ok(archive_players::table
        .find(name)
        .count()
        .get_result::<i64>(conn)?
        > 0)
}

/// The ids of the games the name sat in.
pub fn game_ids(conn: &mut DbConnection, name: &str) -> QueryResult<Vec<i64>> {
    game_seats::table
        .filter(game_seats::player.eq(name))
        .select(game_seats::game_id)
        .distinct()
        .load(conn)
}

/// Deletes the chat lines the name sent; returns how many.
pub fn delete_chat_lines(conn: &mut DbConnection, name: &str) -> QueryResult<usize> {
    diesel::delete(game_chat::table.filter(game_chat::sender.eq(name))).execute(conn)
}

/// Seats the pseudonym in the name's seats, without their fingerprints.
pub fn anonymise_seats(conn: &mut DbConnection, name: &str, pseudonym: &str) -> QueryResult<()> {
    diesel::update(game_seats::table.filter(game_seats::player.eq(name)))
        .set((
            game_seats::player.eq(pseudonym),
            game_seats::device_fp.eq(None::<String>),
            game_seats::network_fp.eq(None::<String>),
        ))
        .execute(conn)?;
    Ok(())
}

/// Renames the moderation row of the player.
pub fn rename_player(
    conn: &mut DbConnection,
    player_id: PlayerId,
    pseudonym: &str,
) -> QueryResult<()> {
    diesel::update(players_table::table.find(player_id))
        .set(players_table::name.eq(pseudonym))
        .execute(conn)?;
    Ok(())
}

/// Keeps the erased name's keyed hash for the player, so their sanctions still answer the
/// standing check.
pub fn keep_name_key(
    conn: &mut DbConnection,
    name_key: &str,
    player_id: PlayerId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    // Erasing a name twice (a pseudonym row renamed back is impossible, but two players
    // whose names fold alike share a key) keeps one row per player.
    let held: i64 = erased_names::table
        .filter(erased_names::name_key.eq(name_key))
        .filter(erased_names::player_id.eq(player_id))
        .count()
        .get_result(conn)?;
    if held == 0 {
        diesel::insert_into(erased_names::table)
            .values((
                erased_names::name_key.eq(name_key),
                erased_names::player_id.eq(player_id),
                erased_names::erased_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// One erasure's name change: the queries that replace `name` by `pseudonym`. Those that
/// rewrite free text, PGN4 tags or encoded seats return how many rows they rewrote.
pub struct Rename<'a> {
    pub name: &'a str,
    pub pseudonym: &'a str,
}

impl Rename<'_> {
    /// The name inside text, if it occurs as a whole word.
    fn text(&self, text: &str) -> Option<String> {
        replace_name(text, self.name, self.pseudonym)
    }

    /// A LIKE pattern that finds every row holding the name in any case (and some more).
    fn pattern(&self) -> String {
        format!("%{}%", fold_name(self.name))
    }

    /// The PGN4 tags, result tag and termination text of the player's games.
    pub fn games(&self, conn: &mut DbConnection, game_ids: &[i64]) -> QueryResult<u64> {
        let mut rewritten = 0;
        let rows: Vec<(i64, String, String, String)> = games::table
            .filter(games::id.eq_any(game_ids))
            .select((
                games::id,
                games::pgn4,
                games::result_tag,
                games::termination_text,
            ))
            .load(conn)?;
        for (id, pgn4, result_tag, termination_text) in rows {
            let pgn4 = replace_name_in_pgn4_tags(&pgn4, self.name, self.pseudonym);
            let result_tag = self.text(&result_tag);
            let termination_text = self.text(&termination_text);
            if pgn4.is_none() && result_tag.is_none() && termination_text.is_none() {
                continue;
            }
            let target = games::table.find(id);
            if let Some(pgn4) = pgn4 {
                diesel::update(target)
                    .set(games::pgn4.eq(pgn4))
                    .execute(conn)?;
            }
            if let Some(result_tag) = result_tag {
                diesel::update(target)
                    .set(games::result_tag.eq(result_tag))
                    .execute(conn)?;
            }
            if let Some(termination_text) = termination_text {
                diesel::update(target)
                    .set(games::termination_text.eq(termination_text))
                    .execute(conn)?;
            }
            rewritten += 1;
        }
        Ok(rewritten)
    }

    /// The encoded seat lists the conduct applier keeps per game (names inside base64).
    pub fn conduct_seats(&self, conn: &mut DbConnection, game_ids: &[i64]) -> QueryResult<u64> {
        let mut rewritten = 0;
        let outcomes: Vec<(i64, String)> = conduct_outcomes::table
            .filter(conduct_outcomes::game_id.eq_any(game_ids))
            .select((conduct_outcomes::game_id, conduct_outcomes::seats))
            .load(conn)?;
        for (game_id, seats) in outcomes {
            if let Some(seats) = self.seats(&seats)? {
                diesel::update(conduct_outcomes::table.find(game_id))
                    .set(conduct_outcomes::seats.eq(seats))
                    .execute(conn)?;
                rewritten += 1;
            }
        }
        let pending: Vec<(i64, String)> = conduct_pending::table
            .filter(conduct_pending::game_id.eq_any(game_ids))
            .select((conduct_pending::game_id, conduct_pending::seats))
            .load(conn)?;
        for (game_id, seats) in pending {
            if let Some(seats) = self.seats(&seats)? {
                diesel::update(conduct_pending::table.find(game_id))
                    .set(conduct_pending::seats.eq(seats))
                    .execute(conn)?;
                rewritten += 1;
            }
        }
        Ok(rewritten)
    }

    fn seats(&self, stored: &str) -> QueryResult<Option<String>> {
        let seats = decode_seats(stored)
            .map_err(|e| DieselError::DeserializationError(Box::new(std::io::Error::other(e.0))))?;
        if !seats.iter().any(|(player, _)| player == self.name) {
            return Ok(None);
        }
        let renamed: Vec<(&str, _)> = seats
            .iter()
            .map(|(player, outcome)| {
                let player = if player == self.name {
                    self.pseudonym
                } else {
                    player.as_str()
                };
                (player, outcome)
            })
            .collect();
        Ok(Some(encode_seats(&renamed)))
    }

    /// Every table keyed or indexed by the name itself.
    pub fn keys(&self, conn: &mut DbConnection, now: NaiveDateTime) -> QueryResult<()> {
        let (name, pseudonym) = (self.name, self.pseudonym);
        diesel::update(chat_flags::table.filter(chat_flags::sender.eq(name)))
            .set(chat_flags::sender.eq(pseudonym))
            .execute(conn)?;
        diesel::update(automatic_reports::table.filter(automatic_reports::player.eq(name)))
            .set(automatic_reports::player.eq(pseudonym))
            .execute(conn)?;
        diesel::update(conduct_records::table.filter(conduct_records::player.eq(name)))
            .set(conduct_records::player.eq(pseudonym))
            .execute(conn)?;
        diesel::update(archive_players::table.filter(archive_players::name.eq(name)))
            .set((
                archive_players::name.eq(pseudonym),
                archive_players::name_folded.eq(fold_name(pseudonym)),
            ))
            .execute(conn)?;
        diesel::update(
            archive_player_variants::table.filter(archive_player_variants::player.eq(name)),
        )
        .set(archive_player_variants::player.eq(pseudonym))
        .execute(conn)?;
        diesel::update(game_pair_play::table.filter(game_pair_play::player.eq(name)))
            .set(game_pair_play::player.eq(pseudonym))
            .execute(conn)?;
        diesel::update(game_pair_play::table.filter(game_pair_play::opponent.eq(name)))
            .set(game_pair_play::opponent.eq(pseudonym))
            .execute(conn)?;
        diesel::update(collusion_baselines::table.filter(collusion_baselines::player.eq(name)))
            .set(collusion_baselines::player.eq(pseudonym))
            .execute(conn)?;
        // An erased admin: their tokens and console sessions end with the name.
        diesel::update(
            api_tokens::table
                .filter(api_tokens::name.eq(name))
                .filter(api_tokens::revoked_at.is_null()),
        )
        .set(api_tokens::revoked_at.eq(now))
        .execute(conn)?;
        diesel::update(api_tokens::table.filter(api_tokens::name.eq(name)))
            .set(api_tokens::name.eq(pseudonym))
            .execute(conn)?;
        diesel::update(
            console_sessions::table
                .filter(console_sessions::admin_name.eq(name))
                .filter(console_sessions::ended_at.is_null()),
        )
        .set(console_sessions::ended_at.eq(now))
        .execute(conn)?;
        diesel::update(console_sessions::table.filter(console_sessions::admin_name.eq(name)))
            .set(console_sessions::admin_name.eq(pseudonym))
            .execute(conn)?;
        Ok(())
    }

    /// The tables keyed by a pair of names in byte order: re-keyed under the pseudonym, which
    /// may sort to the other side. Collusion pair records hold direction-specific sums; they
    /// are deleted and summed again from the stored games when the two next meet.
    pub fn pairs(&self, conn: &mut DbConnection, game_ids: &[i64]) -> QueryResult<()> {
        let mut others: Vec<String> = Vec::new();
        for chunk in game_ids.chunks(CHUNK) {
            others.extend(
                game_seats::table
                    .filter(game_seats::game_id.eq_any(chunk))
                    .filter(game_seats::player.ne(self.pseudonym))
                    .select(game_seats::player)
                    .distinct()
                    .load::<String>(conn)?,
            );
        }
        // Reported pairs outlive nothing else, but look them up by name too.
        others.extend(
            collusion_reported::table
                .filter(collusion_reported::player_low.eq(self.name))
                .select(collusion_reported::player_high)
                .load::<String>(conn)?,
        );
        others.extend(
            collusion_reported::table
                .filter(collusion_reported::player_high.eq(self.name))
                .select(collusion_reported::player_low)
                .load::<String>(conn)?,
        );
        others.sort_unstable();
        others.dedup();
        for other in &others {
            let (Some((low, high)), Some((new_low, new_high))) =
                (pair_key(self.name, other), pair_key(self.pseudonym, other))
            else {
                continue;
            };
            diesel::update(
                game_pairs::table
                    .filter(game_pairs::player_low.eq(low))
                    .filter(game_pairs::player_high.eq(high)),
            )
            .set((
                game_pairs::player_low.eq(new_low),
                game_pairs::player_high.eq(new_high),
            ))
            .execute(conn)?;
            diesel::update(archive_pairs::table.find((low, high)))
                .set((
                    archive_pairs::player_low.eq(new_low),
                    archive_pairs::player_high.eq(new_high),
                ))
                .execute(conn)?;
            diesel::update(collusion_reported::table.find((low, high)))
                .set((
                    collusion_reported::player_low.eq(new_low),
                    collusion_reported::player_high.eq(new_high),
                ))
                .execute(conn)?;
            diesel::delete(collusion_pairs::table.find((low, high))).execute(conn)?;
        }
        Ok(())
    }

    /// Free text anyone wrote that may name the player: chat lines of others, report
    /// messages, notes, decision notes (to the player and to reporters), warnings, sanction
    /// notes, appeals, automatic report summaries,
    /// flag findings, webhook bodies and the log's `why`.
    pub fn free_text(&self, conn: &mut DbConnection) -> QueryResult<u64> {
        let pattern = self.pattern();
        let mut rewritten = 0;
        let chat: Vec<(i64, i32, String)> = game_chat::table
            .filter(lower(game_chat::text.nullable()).like(&pattern))
            .select((game_chat::game_id, game_chat::idx, game_chat::text))
            .load(conn)?;
        for (game_id, idx, text) in chat {
            if let Some(text) = self.text(&text) {
                diesel::update(game_chat::table.find((game_id, idx)))
                    .set(game_chat::text.eq(text))
                    .execute(conn)?;
                rewritten += 1;
            }
        }
        macro_rules! rewrite {
            ($table:ident, $column:ident) => {{
                let rows: Vec<(i64, Option<String>)> = $table::table
                    .filter(lower($table::$column.nullable()).like(&pattern))
                    .select(($table::id, $table::$column.nullable()))
                    .load(conn)?;
                for (id, text) in rows {
                    if let Some(text) = text.as_deref().and_then(|t| self.text(t)) {
                        diesel::update($table::table.find(id))
                            .set($table::$column.eq(text))
                            .execute(conn)?;
                        rewritten += 1;
                    }
                }
            }};
        }
        rewrite!(reports, message);
        rewrite!(player_notes, text);
        rewrite!(decisions, note);
        rewrite!(decisions, reporter_note);
        rewrite!(warnings, text);
        rewrite!(warnings, text_en);
        rewrite!(reports, reporter_note);
        rewrite!(sanctions, note);
        rewrite!(sanctions, player_note);
        rewrite!(appeals, text);
        rewrite!(appeals, note);
        rewrite!(automatic_reports, summary);
        rewrite!(chat_flags, explanation);
        rewrite!(chat_flags, evidence_finding);
        rewrite!(webhook_events, body);
        rewrite!(modlog, why);
        Ok(rewritten)
    }
}
