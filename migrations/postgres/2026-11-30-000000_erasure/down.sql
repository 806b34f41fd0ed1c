CREATE OR REPLACE FUNCTION player_notes_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'player notes are append-only';
END;
$$ LANGUAGE plpgsql;
DROP TABLE erased_names;
ALTER TABLE modlog DISABLE TRIGGER modlog_no_change;
ALTER TABLE modlog ADD COLUMN actor TEXT;
ALTER TABLE modlog ADD COLUMN subject TEXT;
UPDATE modlog SET
    actor = (SELECT name FROM players WHERE players.id = modlog.actor_id),
    subject = (SELECT name FROM players WHERE players.id = modlog.subject_id);
DROP INDEX modlog_subject;
DROP INDEX modlog_actor;
ALTER TABLE modlog DROP COLUMN actor_id;
ALTER TABLE modlog DROP COLUMN subject_id;
CREATE INDEX modlog_subject ON modlog (subject, id);
CREATE INDEX modlog_actor ON modlog (actor, id);
CREATE OR REPLACE FUNCTION modlog_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the moderation log is append-only';
END;
$$ LANGUAGE plpgsql;
ALTER TABLE modlog ENABLE TRIGGER modlog_no_change;
