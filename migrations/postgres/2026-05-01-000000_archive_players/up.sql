-- Every player the archive has seen, with their games count, kept current at ingest: admins
-- find players by a case-insensitive name prefix (ASCII letters fold) and see the count
-- without a pass over the player's games. Byte order ("C"), so a prefix is an index range.
CREATE TABLE archive_players (
    name TEXT COLLATE "C" PRIMARY KEY,
    name_folded TEXT COLLATE "C" NOT NULL,
    games BIGINT NOT NULL
);
CREATE INDEX archive_players_folded ON archive_players (name_folded, name);
-- ASCII letters only, as the service folds.
INSERT INTO archive_players (name, name_folded, games)
    SELECT player,
           translate(player, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'),
           COUNT(DISTINCT game_id)
    FROM game_seats GROUP BY player;
