-- One conduct queue on both backends (conduct_pending, as here already): the unused games
-- column goes, and so do the records' version numbers (row locks make them redundant).
ALTER TABLE games DROP COLUMN conduct_seats;
ALTER TABLE conduct_records DROP COLUMN version;
