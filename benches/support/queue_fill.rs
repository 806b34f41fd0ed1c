//! Bulk fixtures for the benches: `n` open cases with realistic priority bases, reasons and
//! ages, inserted by `INSERT ... SELECT` (used by `queue_page` and `console_pages`).

use arbiter::store::DbConnection;
use diesel::connection::SimpleConnection;

/// Priority bases as the write side produces them: a few severity levels, one to four
/// reporters of middling accuracy, sometimes automatic evidence, sometimes history. Many cases
/// share a base (one reporter, nothing else), many do not.
const BASE_SQL: &str = "(6.0 * (2 + i % 4)) \
    + (5.0 * (1 + (i / 4) % 4)) \
    + (CASE WHEN i % 3 = 0 THEN 3.75 ELSE (i % 997) * 15.0 / 997.0 * 0.5 END) \
    + (CASE WHEN i % 5 = 0 THEN (i % 101) * 15.0 / 101.0 ELSE 0 END) \
    + (CASE WHEN i % 11 = 0 THEN 10.0 / 3 ELSE 0 END)";

const REASON_SQL: &str =
    "CASE i % 6 WHEN 0 THEN 'offensive_chat' WHEN 1 THEN 'rule_violating_chat' \
    WHEN 2 THEN 'abandoning' WHEN 3 THEN 'self_partnering' WHEN 4 THEN 'prearranged_teaming' \
    ELSE 'other' END";

/// Seconds the case has been open: spread over 30 days.
const AGE_SQL: &str = "((i * 7919) % 2592000)";

/// Inserts `n` open cases (and their accused, `player1`...) by bulk `INSERT ... SELECT`.
pub fn fill_open_cases(conn: &mut DbConnection, n: usize) -> anyhow::Result<()> {
    let sql = match conn {
        DbConnection::Sqlite(_) => format!(
            "BEGIN;
             CREATE TEMP TABLE seq AS WITH RECURSIVE n(i) AS
                 (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) SELECT i FROM n;
             INSERT INTO players (id, name, created_at)
                 SELECT i, 'player' || i, '2026-01-01 00:00:00' FROM seq;
             INSERT INTO cases (id, accused_id, reason, status, opened_at, updated_at,
                                priority_base, entry_count)
                 SELECT i, i, {REASON_SQL}, 'open',
                        strftime('%Y-%m-%d %H:%M:%f', 'now', '-' || {AGE_SQL} || ' seconds'),
                        strftime('%Y-%m-%d %H:%M:%f', 'now'), {BASE_SQL}, 1 + i % 4
                 FROM seq;
             DROP TABLE seq;
             COMMIT;
             ANALYZE;"
        ),
        DbConnection::Postgres(_) => format!(
            "BEGIN;
             INSERT INTO players (id, name, created_at)
                 SELECT i, 'player' || i, TIMESTAMP '2026-01-01 00:00:00'
                 FROM generate_series(1, {n}) AS i;
             INSERT INTO cases (id, accused_id, reason, status, opened_at, updated_at,
                                priority_base, entry_count)
                 SELECT i, i, {REASON_SQL}, 'open',
                        timezone('utc', now()) - make_interval(secs => {AGE_SQL}),
                        timezone('utc', now()), {BASE_SQL}, 1 + i % 4
                 FROM generate_series(1, {n}::bigint) AS i;
             SELECT setval('players_id_seq', {n});
             SELECT setval('cases_id_seq', {n});
             COMMIT;
             ANALYZE;"
        ),
    };
    conn.batch_execute(&sql)?;
    Ok(())
}
