-- Every player the archive has seen, with their games count, kept current at ingest: admins
-- find players by a case-insensitive name prefix (ASCII letters fold) and see the count
-- without a pass over the player's games.
CREATE TABLE archive_players (
    name TEXT PRIMARY KEY,
    name_folded TEXT NOT NULL,
    games BIGINT NOT NULL
);
CREATE INDEX archive_players_folded ON archive_players (name_folded, name);
-- SQLite's lower() folds ASCII letters only, as the service does.
INSERT INTO archive_players (name, name_folded, games)
    SELECT player, lower(player), COUNT(DISTINCT game_id) FROM game_seats GROUP BY player;
