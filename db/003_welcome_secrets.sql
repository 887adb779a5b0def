-- 003_welcome_secrets.sql: the welcome mail carries each player's secret.
--
-- A secret is known in clear only between 'player add' and 'start': it is
-- kept in player_secrets until the welcome mail that tells the player is
-- queued, in the same transaction that deletes it.  A mail marked
-- sensitive (a welcome) has its body replaced by a stub once delivered, so
-- the secret does not stay in the outbox either.
CREATE TABLE player_secrets (
    player_id  INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE,
    secret     TEXT NOT NULL
);
ALTER TABLE outbox ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0;
