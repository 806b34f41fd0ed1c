CREATE INDEX conduct_outcomes_player ON conduct_outcomes (player, played_at);
