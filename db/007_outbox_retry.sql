-- 007_outbox_retry.sql: sending queued mail over SMTP.
--
-- A mail that could not be sent yet is tried again after a wait that
-- doubles with each attempt (capped); one the server refused for good
-- (5xx) is marked failed and shown by 'despatch outbox', never retried.
ALTER TABLE outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox ADD COLUMN last_error TEXT;
ALTER TABLE outbox ADD COLUMN failed_at INTEGER;
