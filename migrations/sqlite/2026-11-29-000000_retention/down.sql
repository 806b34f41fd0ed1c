DROP INDEX games_connections_kept;
DROP INDEX games_chat_kept;
ALTER TABLE games DROP COLUMN connections_purged_at;
ALTER TABLE games DROP COLUMN chat_purged_at;
