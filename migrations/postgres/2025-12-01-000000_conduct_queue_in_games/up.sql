-- SQLite queues a game for the conduct applier in games.conduct_seats (see its migration);
-- PostgreSQL keeps conduct_pending, since here a smaller id can commit after a larger one, so
-- the column stays NULL. It exists so that both backends share one table definition.
ALTER TABLE games ADD COLUMN conduct_seats TEXT;
