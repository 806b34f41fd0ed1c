-- Separations (issue #42, item 4): a sanction of kind 'separation' keeps its members apart at
-- the table; every member (the sanctioned accused first) has a row in separation_members, read
-- by player for the table check.
ALTER TABLE sanctions DROP CONSTRAINT sanctions_kind_check;
ALTER TABLE sanctions ADD CONSTRAINT sanctions_kind_check
    CHECK (kind IN ('chat_ban', 'play_ban', 'club_ban', 'separation'));
CREATE TABLE separation_members (
    sanction_id BIGINT NOT NULL REFERENCES sanctions (id),
    player_id BIGINT NOT NULL REFERENCES players (id),
    PRIMARY KEY (sanction_id, player_id)
);
CREATE INDEX separation_members_player ON separation_members (player_id, sanction_id);
