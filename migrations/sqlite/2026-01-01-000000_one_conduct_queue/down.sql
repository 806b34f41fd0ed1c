ALTER TABLE conduct_records ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN conduct_seats TEXT;
CREATE TABLE conduct_progress (
    id INTEGER PRIMARY KEY NOT NULL CHECK (id = 1),
    applied_through BIGINT NOT NULL,
    version BIGINT NOT NULL
);
UPDATE games SET conduct_seats = (SELECT p.seats FROM conduct_pending p WHERE p.game_id = games.id)
WHERE id IN (SELECT game_id FROM conduct_pending);
INSERT INTO conduct_progress (id, applied_through, version)
VALUES (1, COALESCE((SELECT MIN(game_id) - 1 FROM conduct_pending), (SELECT MAX(id) FROM games), 0), 0);
DELETE FROM conduct_pending;
