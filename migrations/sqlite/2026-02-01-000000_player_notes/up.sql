-- Admins' notes on players: append-only, like the moderation log (triggers refuse updates and
-- deletes). A note may name the case it was written for.
CREATE TABLE player_notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    player_id BIGINT NOT NULL REFERENCES players (id),
    author_id BIGINT NOT NULL REFERENCES players (id),
    case_id BIGINT REFERENCES cases (id),
    text TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX player_notes_player ON player_notes (player_id, id);
CREATE TRIGGER player_notes_no_update BEFORE UPDATE ON player_notes
BEGIN SELECT RAISE(ABORT, 'player notes are append-only'); END;
CREATE TRIGGER player_notes_no_delete BEFORE DELETE ON player_notes
BEGIN SELECT RAISE(ABORT, 'player notes are append-only'); END;
