-- Admins' notes on players: append-only, like the moderation log (a trigger refuses updates
-- and deletes). A note may name the case it was written for.
CREATE TABLE player_notes (
    id BIGSERIAL PRIMARY KEY,
    player_id BIGINT NOT NULL REFERENCES players (id),
    author_id BIGINT NOT NULL REFERENCES players (id),
    case_id BIGINT REFERENCES cases (id),
    text TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX player_notes_player ON player_notes (player_id, id);
CREATE FUNCTION player_notes_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'player notes are append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER player_notes_no_change BEFORE UPDATE OR DELETE ON player_notes
    FOR EACH ROW EXECUTE FUNCTION player_notes_append_only();
