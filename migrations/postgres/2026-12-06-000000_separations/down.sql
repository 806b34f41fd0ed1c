DROP TABLE separation_members;
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id JOIN sanctions s ON s.id = e.sanction_id WHERE s.kind = 'separation');
DELETE FROM webhook_deliveries WHERE event_id IN (SELECT e.id FROM webhook_events e JOIN sanctions s ON s.id = e.sanction_id WHERE s.kind = 'separation');
DELETE FROM webhook_events WHERE sanction_id IN (SELECT id FROM sanctions WHERE kind = 'separation');
DELETE FROM appeals WHERE sanction_id IN (SELECT id FROM sanctions WHERE kind = 'separation');
UPDATE decisions SET sanction_id = NULL WHERE sanction_id IN (SELECT id FROM sanctions WHERE kind = 'separation');
DELETE FROM sanctions WHERE kind = 'separation';
ALTER TABLE sanctions DROP CONSTRAINT sanctions_kind_check;
ALTER TABLE sanctions ADD CONSTRAINT sanctions_kind_check
    CHECK (kind IN ('chat_ban', 'play_ban', 'club_ban'));
