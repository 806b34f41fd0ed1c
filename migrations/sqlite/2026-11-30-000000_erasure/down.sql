DROP TRIGGER player_notes_no_update;
CREATE TRIGGER player_notes_no_update BEFORE UPDATE ON player_notes
BEGIN SELECT RAISE(ABORT, 'player notes are append-only'); END;
DROP TABLE erased_names;
DROP TRIGGER modlog_no_update;
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
CREATE TRIGGER modlog_no_update BEFORE UPDATE ON modlog
BEGIN SELECT RAISE(ABORT, 'the moderation log is append-only'); END;
