-- Games stored but not yet applied to their players' conduct records: the ingest writes one
-- row here (the seats' outcomes, encoded) instead of updating four records inside the game's
-- transaction; the conduct applier applies them in batches and deletes the rows.
CREATE TABLE conduct_pending (
    game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    played_at TIMESTAMP NOT NULL,
    seats TEXT NOT NULL
);
