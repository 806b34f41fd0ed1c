-- Retention (`[retention]`): when a game's chat text and its connection data (events and
-- fingerprints) were purged. The partial indexes hold only the games still keeping each, by
-- played time, so the background job finds the next games due without reading purged ones.
ALTER TABLE games ADD COLUMN chat_purged_at TIMESTAMP;
ALTER TABLE games ADD COLUMN connections_purged_at TIMESTAMP;
CREATE INDEX games_chat_kept ON games (played_at, id) WHERE chat_purged_at IS NULL;
CREATE INDEX games_connections_kept ON games (played_at, id) WHERE connections_purged_at IS NULL;
