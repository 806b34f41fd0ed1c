DROP TABLE player_notes;
