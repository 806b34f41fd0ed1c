-- Erasure (issue #26). The moderation log names people by `players.id` rather than by text,
-- so renaming one `players` row pseudonymises every line about that person without editing
-- the log. The only edit the log still allows is to `why`, the free text someone wrote,
-- where an erasure replaces the erased name (nothing else in a line changes, ever).
DROP TRIGGER modlog_no_update;
ALTER TABLE modlog ADD COLUMN actor_id BIGINT REFERENCES players (id);
ALTER TABLE modlog ADD COLUMN subject_id BIGINT REFERENCES players (id);
INSERT OR IGNORE INTO players (name, created_at)
    SELECT actor, MIN(at) FROM modlog WHERE actor IS NOT NULL GROUP BY actor;
INSERT OR IGNORE INTO players (name, created_at)
    SELECT subject, MIN(at) FROM modlog WHERE subject IS NOT NULL GROUP BY subject;
UPDATE modlog SET
    actor_id = (SELECT id FROM players WHERE players.name = modlog.actor),
    subject_id = (SELECT id FROM players WHERE players.name = modlog.subject);
DROP INDEX modlog_subject;
DROP INDEX modlog_actor;
ALTER TABLE modlog DROP COLUMN actor;
ALTER TABLE modlog DROP COLUMN subject;
CREATE INDEX modlog_subject ON modlog (subject_id, id);
CREATE INDEX modlog_actor ON modlog (actor_id, id);
CREATE TRIGGER modlog_no_update BEFORE UPDATE OF
    id, at, actor_kind, actor_id, kind, subject_id, case_id, report_id, sanction_id,
    appeal_id, details ON modlog
BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;

-- An erased player's name, as HMAC-SHA256([privacy] erasure_key, case-folded name) in hex:
-- the standing check still finds the erased player's sanctions by the old name, while the
-- name itself is stored nowhere. Two erased players whose names fold alike share a key.
CREATE TABLE erased_names (
    name_key TEXT NOT NULL,
    player_id BIGINT NOT NULL REFERENCES players (id),
    erased_at TIMESTAMP NOT NULL,
    PRIMARY KEY (name_key, player_id)
);
CREATE INDEX erased_names_player ON erased_names (player_id);

-- Notes likewise: an erasure may replace the erased name in a note's text, nothing else.
DROP TRIGGER player_notes_no_update;
CREATE TRIGGER player_notes_no_update BEFORE UPDATE OF
    id, player_id, author_id, case_id, created_at ON player_notes
BEGIN SELECT RAISE(ABORT, 'player notes are append-only'); END;
