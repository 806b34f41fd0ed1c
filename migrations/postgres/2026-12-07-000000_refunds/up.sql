-- Refunds owed to the victims of an upheld teaming, self-partnering or (Teams) sandbagging
-- case (issue #42, item 5): one row per game and victim's seat, with the case that owes it. The victim's name,
-- placement and ratings are the seat's (`game_seats`), so an erasure renames them there; the
-- amount is NULL when the game server sent no rating for the seat.
-- `webhook_events` gains the `refunds_due` event, which announces a case, not a sanction:
-- `sanction_id` becomes optional, `case_id` is added, and one `refunds_due` per case is the
-- unique key that makes the event idempotent.
CREATE TABLE refunds (
    id BIGSERIAL PRIMARY KEY,
    case_id BIGINT NOT NULL REFERENCES cases (id),
    game_id BIGINT NOT NULL REFERENCES games (id),
    seat SMALLINT NOT NULL CHECK (seat BETWEEN 0 AND 3),
    amount BIGINT CHECK (amount IS NULL OR amount > 0),
    created_at TIMESTAMP NOT NULL,
    -- A seat's loss in a game is refunded once, whichever case owes it first (the two cases
    -- of a pair reported together cover the same games).
    UNIQUE (game_id, seat)
);
CREATE INDEX refunds_case ON refunds (case_id, game_id);
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_kind_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_kind_check
    CHECK (kind IN ('sanction_started', 'sanction_reduced', 'sanction_lifted',
        'sanction_ended', 'refunds_due'));
ALTER TABLE webhook_events ALTER COLUMN sanction_id DROP NOT NULL;
ALTER TABLE webhook_events ADD COLUMN case_id BIGINT REFERENCES cases (id);
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_kind_case UNIQUE (kind, case_id);
