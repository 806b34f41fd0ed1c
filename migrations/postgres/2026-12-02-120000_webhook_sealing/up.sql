-- Webhook secrets and URL credentials sealed at rest (issue #40). `secret` holds
-- `sealed:v1:<base64url(nonce || ciphertext)>`, sealed under [webhooks] sealing_key; a value
-- without that prefix is a legacy plain secret, which `arbiter serve` seals at start-up once
-- the key is set. `url` holds the URL without `user:password@`; those credentials, if any,
-- are in `url_credentials`, sealed the same way.
ALTER TABLE webhook_subscriptions ADD COLUMN url_credentials TEXT;
