-- Erasure (issue #26). The moderation log names people by `players.id` rather than by text,
-- so renaming one `players` row pseudonymises every line about that person without editing
-- the log. The only edit the log still allows is to `why`, the free text someone wrote,
-- where an erasure replaces the erased name (nothing else in a line changes, ever).
ALTER TABLE modlog DISABLE TRIGGER modlog_no_change;
ALTER TABLE modlog ADD COLUMN actor_id BIGINT REFERENCES players (id);
ALTER TABLE modlog ADD COLUMN subject_id BIGINT REFERENCES players (id);
INSERT INTO players (name, created_at)
    SELECT actor, MIN(at) FROM modlog WHERE actor IS NOT NULL GROUP BY actor
    ON CONFLICT (name) DO NOTHING;
INSERT INTO players (name, created_at)
    SELECT subject, MIN(at) FROM modlog WHERE subject IS NOT NULL GROUP BY subject
    ON CONFLICT (name) DO NOTHING;
UPDATE modlog SET
    actor_id = (SELECT id FROM players WHERE players.name = modlog.actor),
    subject_id = (SELECT id FROM players WHERE players.name = modlog.subject);
DROP INDEX modlog_subject;
DROP INDEX modlog_actor;
ALTER TABLE modlog DROP COLUMN actor;
ALTER TABLE modlog DROP COLUMN subject;
CREATE INDEX modlog_subject ON modlog (subject_id, id);
CREATE INDEX modlog_actor ON modlog (actor_id, id);
CREATE OR REPLACE FUNCTION modlog_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND
        (NEW.id, NEW.at, NEW.actor_kind, NEW.actor_id, NEW.kind, NEW.subject_id, NEW.case_id,
         NEW.report_id, NEW.sanction_id, NEW.appeal_id, NEW.details)
        IS NOT DISTINCT FROM
        (OLD.id, OLD.at, OLD.actor_kind, OLD.actor_id, OLD.kind, OLD.subject_id, OLD.case_id,
         OLD.report_id, OLD.sanction_id, OLD.appeal_id, OLD.details) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the moderation log is append-only';
END;
$$ LANGUAGE plpgsql;
ALTER TABLE modlog ENABLE TRIGGER modlog_no_change;

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
CREATE OR REPLACE FUNCTION player_notes_append_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND
        (NEW.id, NEW.player_id, NEW.author_id, NEW.case_id, NEW.created_at)
        IS NOT DISTINCT FROM
        (OLD.id, OLD.player_id, OLD.author_id, OLD.case_id, OLD.created_at) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'player notes are append-only';
END;
$$ LANGUAGE plpgsql;
