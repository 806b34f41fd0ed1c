ALTER TABLE games DROP COLUMN conduct_seats;
