DROP TABLE player_notes;
DROP FUNCTION player_notes_append_only();
