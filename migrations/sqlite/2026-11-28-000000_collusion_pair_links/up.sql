-- Pair records gain the link between the two accounts over their shared games (seats with the
-- same device or network fingerprint, games in which rating went from one to the other), so
-- that judging a pair reads no game history; the record itself is stored in a compact form.
-- The table holds only sums of game_pair_play and game_seats rows, so it is recreated empty
-- (and as an ordinary rowid table: its rows are a few kilobytes): each pair's row is summed
-- again from those rows the next time the two meet.
DROP TABLE collusion_pairs;
CREATE TABLE collusion_pairs (
    player_low TEXT NOT NULL,
    player_high TEXT NOT NULL,
    games BIGINT NOT NULL,
    shared_device_games BIGINT NOT NULL,
    shared_network_games BIGINT NOT NULL,
    rating_to_high BIGINT NOT NULL,
    rating_to_low BIGINT NOT NULL,
    record TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (player_low, player_high),
    CHECK (player_low < player_high)
);
