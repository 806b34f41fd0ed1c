-- A player's summary and the games two players shared, answered without a pass over the
-- player's games: per-player counts by placement and aborted games, per-player counts by
-- variant, per-pair totals, and one row per pair and game (an index walked newest game first).
-- All kept current in each game's own transaction. A pair is stored once, names in byte order
-- ("C"), as the service orders them.
ALTER TABLE archive_players ADD COLUMN placed_first BIGINT NOT NULL DEFAULT 0;
ALTER TABLE archive_players ADD COLUMN placed_second BIGINT NOT NULL DEFAULT 0;
ALTER TABLE archive_players ADD COLUMN placed_third BIGINT NOT NULL DEFAULT 0;
ALTER TABLE archive_players ADD COLUMN placed_fourth BIGINT NOT NULL DEFAULT 0;
ALTER TABLE archive_players ADD COLUMN aborted BIGINT NOT NULL DEFAULT 0;

CREATE TABLE archive_player_variants (
    player TEXT COLLATE "C" NOT NULL,
    variant TEXT NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (player, variant)
);

CREATE TABLE archive_pairs (
    player_low TEXT COLLATE "C" NOT NULL,
    player_high TEXT COLLATE "C" NOT NULL,
    games BIGINT NOT NULL,
    first_played_at TIMESTAMP NOT NULL,
    last_played_at TIMESTAMP NOT NULL,
    PRIMARY KEY (player_low, player_high),
    CHECK (player_low < player_high)
);

CREATE TABLE game_pairs (
    player_low TEXT COLLATE "C" NOT NULL,
    player_high TEXT COLLATE "C" NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id),
    PRIMARY KEY (player_low, player_high, game_id),
    CHECK (player_low < player_high)
);

-- A player seated twice in one game counts the game once, with their best placement, and as
-- aborted if any of their seats aborted it.
UPDATE archive_players
SET placed_first = t.first, placed_second = t.second, placed_third = t.third,
    placed_fourth = t.fourth, aborted = t.aborted
FROM (
    SELECT player,
           SUM(CASE WHEN placement = 1 THEN 1 ELSE 0 END) AS first,
           SUM(CASE WHEN placement = 2 THEN 1 ELSE 0 END) AS second,
           SUM(CASE WHEN placement = 3 THEN 1 ELSE 0 END) AS third,
           SUM(CASE WHEN placement = 4 THEN 1 ELSE 0 END) AS fourth,
           SUM(aborted) AS aborted
    FROM (
        SELECT s.player, MIN(s.placement) AS placement,
               MAX(CASE WHEN g.aborted_seat = s.seat THEN 1 ELSE 0 END) AS aborted
        FROM game_seats s JOIN games g ON g.id = s.game_id
        GROUP BY s.player, s.game_id
    ) AS per_game
    GROUP BY player
) AS t
WHERE archive_players.name = t.player;

INSERT INTO archive_player_variants (player, variant, games)
    SELECT s.player, g.variant, COUNT(DISTINCT s.game_id)
    FROM game_seats s JOIN games g ON g.id = s.game_id
    GROUP BY s.player, g.variant;

-- Sorted, so the rows append to the primary key instead of landing all over it.
INSERT INTO game_pairs (player_low, player_high, game_id)
    SELECT DISTINCT a.player, b.player, a.game_id
    FROM game_seats a JOIN game_seats b ON b.game_id = a.game_id AND a.player < b.player COLLATE "C"
    ORDER BY 1, 2, 3;

INSERT INTO archive_pairs (player_low, player_high, games, first_played_at, last_played_at)
    SELECT p.player_low, p.player_high, COUNT(*), MIN(g.played_at), MAX(g.played_at)
    FROM game_pairs p JOIN games g ON g.id = p.game_id
    GROUP BY p.player_low, p.player_high;
