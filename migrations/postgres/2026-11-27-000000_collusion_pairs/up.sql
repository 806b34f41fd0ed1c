-- Each pair's record kept as running sums, so that a game updates six rows instead of the
-- pair's whole history being read again: over their shared FFA and Solo games, what
-- player_low did to player_high and back, and each one's whole play in those games (a JSON
-- PairRecord). A pair with game_pair_play rows from before this table gets its row from those
-- rows the next time the two meet.
CREATE TABLE collusion_pairs (
    player_low TEXT COLLATE "C" NOT NULL,
    player_high TEXT COLLATE "C" NOT NULL,
    games BIGINT NOT NULL,
    record TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (player_low, player_high),
    CHECK (player_low < player_high)
);

-- Flagged pairs are walked from either player to find rings.
CREATE INDEX collusion_reported_high ON collusion_reported (player_high);
