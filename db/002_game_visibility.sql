-- 002_game_visibility.sql: open or fog games, and a quick look-up of the
-- mail still to be delivered.
--
-- An open game shows every side everything; a fog game (reports limited
-- to what a side can see) comes with the reports issue.  Games made
-- before this migration are open.
ALTER TABLE games ADD COLUMN visibility TEXT NOT NULL DEFAULT 'open'
    CHECK (visibility IN ('open', 'fog'));
CREATE INDEX outbox_undelivered ON outbox (delivered_at, id);
