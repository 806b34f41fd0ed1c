ALTER TABLE webhook_subscriptions DROP COLUMN url_credentials;
