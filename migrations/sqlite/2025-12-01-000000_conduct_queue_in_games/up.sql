-- SQLite queues a game for the conduct applier in the game's own row: a row of its own in
-- conduct_pending wrote one more page to the log in every ingest transaction, while the games
-- row's page is written anyway. The applier reads games after a high-water mark of applied
-- ids; sound because SQLite has one writer and AUTOINCREMENT ids rise in commit order, so no
-- game can later appear below the mark. (PostgreSQL keeps conduct_pending: there a smaller id
-- can commit after a larger one.)
ALTER TABLE games ADD COLUMN conduct_seats TEXT;

-- One row: every game with an id up to applied_through has been looked at by the applier.
-- version rises on every change (and when a rebuild recomputes queued games), so an applier
-- that read a batch before a change finds out when it writes.
CREATE TABLE conduct_progress (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    applied_through BIGINT NOT NULL,
    version BIGINT NOT NULL
);

-- Games still queued move into their rows; the mark goes just below the oldest of them (or
-- past every game when none is queued).
UPDATE games SET conduct_seats = (SELECT p.seats FROM conduct_pending p WHERE p.game_id = games.id)
WHERE id IN (SELECT game_id FROM conduct_pending);
INSERT INTO conduct_progress (id, applied_through, version)
VALUES (1, COALESCE((SELECT MIN(game_id) - 1 FROM conduct_pending), (SELECT MAX(id) FROM games), 0), 0);
DELETE FROM conduct_pending;
