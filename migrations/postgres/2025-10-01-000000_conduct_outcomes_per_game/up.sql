-- Conduct outcomes: one row per game, its seats' players and outcomes in the compact form the
-- queue (conduct_pending) already uses, instead of one 16-column row per seat. Writing four
-- checked rows per game was most of what the conduct applier did while it held the writer.
-- The per-seat rows cannot be re-encoded in SQL: they are dropped, and `arbiter conduct
-- rebuild` writes every archived game's row again. Player records are not touched.
DROP TABLE conduct_outcomes;
CREATE TABLE conduct_outcomes (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    played_at TIMESTAMP NOT NULL,
    seats TEXT NOT NULL
);
