//! Bulk fixtures for the benches: `n` sanctions on `players` players, a quarter of them
//! separations of two (every third of those a ring of three), the rest chat, play and club
//! bans; a fifth permanent, a fifth lifted, two fifths over by their end, a fifth in force.
//! Inserted by `INSERT ... SELECT` in one transaction (used by `table_check_load`).

use arbiter::store::DbConnection;
use diesel::connection::SimpleConnection;

/// The sanctioned player of sanction `i`, and the separated partners (SQL over `i`, `p`).
const OWNER_SQL: &str = "1 + (i * 7919) % {p}";
const PARTNER_SQL: &str = "1 + (i * 7919 + 1 + i % 97) % {p}";
const THIRD_SQL: &str = "1 + (i * 7919 + 200 + i % 89) % {p}";

const KIND_SQL: &str = "CASE WHEN i % 4 = 0 THEN 'separation' \
    WHEN i % 4 = 1 THEN 'chat_ban' WHEN i % 4 = 2 THEN 'play_ban' ELSE 'club_ban' END";

/// The player ids of sanction `i`'s owner and partner, as the SQL computes them.
pub fn separated_pair(i: i64, players: i64) -> (i64, i64) {
    (
        1 + (i * 7919) % players,
        1 + (i * 7919 + 1 + i % 97) % players,
    )
}

/// A sanction index that is a separation in force (permanent, not lifted).
pub const SEPARATION_IN_FORCE: i64 = 20;

/// Inserts `players` players (`player1`...), a `moderator`, and `n` sanctions.
pub fn fill_sanctions(conn: &mut DbConnection, n: i64, players: i64) -> anyhow::Result<()> {
    let p = players;
    let owner = OWNER_SQL.replace("{p}", &p.to_string());
    let partner = PARTNER_SQL.replace("{p}", &p.to_string());
    let third = THIRD_SQL.replace("{p}", &p.to_string());
    let moderator = p + 1;
    // SQLite counts with one sequence: as long as the longer of players and sanctions.
    let count = n.max(p);
    let sql = match conn {
        DbConnection::Sqlite(_) => {
            let starts = "strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (1 + i % 365) || ' days')";
            let soon = "strftime('%Y-%m-%d %H:%M:%f', 'now', '+' || (1 + i % 60) || ' days')";
            let after_start =
                "strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || (1 + i % 365) || ' days', '+12 hours')";
            format!(
                "BEGIN;
                 CREATE TEMP TABLE seq AS WITH RECURSIVE n(i) AS
                     (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count}) SELECT i FROM n;
                 INSERT INTO players (id, name, created_at)
                     SELECT i, 'player' || i, '2026-01-01 00:00:00' FROM seq WHERE i <= {p};
                 INSERT INTO players (id, name, created_at)
                     VALUES ({moderator}, 'moderator', '2026-01-01 00:00:00');
                 INSERT INTO sanctions (id, player_id, kind, reason, ground, starts_at, ends_at,
                                        lifted_at, issued_by, note)
                     SELECT i, {owner}, {KIND_SQL}, 'prearranged_teaming', 'prearranged_teaming',
                            {starts},
                            CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN {soon} WHEN 4 THEN {soon}
                                 ELSE {after_start} END,
                            CASE WHEN i % 5 = 1 THEN {after_start} END,
                            {moderator}, 'spared each other in their shared games'
                     FROM seq WHERE i <= {n};
                 INSERT INTO separation_members (sanction_id, player_id)
                     SELECT i, {owner} FROM seq WHERE i <= {n} AND i % 4 = 0;
                 INSERT OR IGNORE INTO separation_members (sanction_id, player_id)
                     SELECT i, {partner} FROM seq WHERE i <= {n} AND i % 4 = 0;
                 INSERT OR IGNORE INTO separation_members (sanction_id, player_id)
                     SELECT i, {third} FROM seq WHERE i <= {n} AND i % 12 = 0;
                 DROP TABLE seq;
                 COMMIT;
                 ANALYZE;"
            )
        }
        DbConnection::Postgres(_) => {
            let starts = "timezone('utc', now()) - make_interval(days => (1 + i % 365)::int)";
            let soon = "timezone('utc', now()) + make_interval(days => (1 + i % 60)::int)";
            let after_start = format!("{starts} + INTERVAL '12 hours'");
            format!(
                "BEGIN;
                 INSERT INTO players (id, name, created_at)
                     SELECT i, 'player' || i, TIMESTAMP '2026-01-01 00:00:00'
                     FROM generate_series(1, {p}) AS i;
                 INSERT INTO players (id, name, created_at)
                     VALUES ({moderator}, 'moderator', TIMESTAMP '2026-01-01 00:00:00');
                 INSERT INTO sanctions (id, player_id, kind, reason, ground, starts_at, ends_at,
                                        lifted_at, issued_by, note)
                     SELECT i, {owner}, {KIND_SQL}, 'prearranged_teaming', 'prearranged_teaming',
                            {starts},
                            CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN {soon} WHEN 4 THEN {soon}
                                 ELSE {after_start} END,
                            CASE WHEN i % 5 = 1 THEN {after_start} END,
                            {moderator}, 'spared each other in their shared games'
                     FROM generate_series(1, {n}::bigint) AS i;
                 INSERT INTO separation_members (sanction_id, player_id)
                     SELECT i, {owner} FROM generate_series(1, {n}::bigint) AS i WHERE i % 4 = 0;
                 INSERT INTO separation_members (sanction_id, player_id)
                     SELECT i, {partner} FROM generate_series(1, {n}::bigint) AS i WHERE i % 4 = 0
                     ON CONFLICT DO NOTHING;
                 INSERT INTO separation_members (sanction_id, player_id)
                     SELECT i, {third} FROM generate_series(1, {n}::bigint) AS i WHERE i % 12 = 0
                     ON CONFLICT DO NOTHING;
                 SELECT setval('players_id_seq', {moderator});
                 SELECT setval('sanctions_id_seq', {n});
                 COMMIT;
                 ANALYZE;"
            )
        }
    };
    conn.batch_execute(&sql)?;
    Ok(())
}
