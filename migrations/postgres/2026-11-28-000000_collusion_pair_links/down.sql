DROP TABLE collusion_pairs;
CREATE TABLE collusion_pairs (
    player_low TEXT COLLATE "C" NOT NULL,
    player_high TEXT COLLATE "C" NOT NULL,
    games BIGINT NOT NULL,
    record TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (player_low, player_high),
    CHECK (player_low < player_high)
);
