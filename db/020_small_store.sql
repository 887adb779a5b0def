-- A database that stays small (issue 19): a welcome is queued as text,
-- its map of the field at the start drawn when it is sent; once a mail
-- is delivered its
-- bytes go, keeping its headers, a hash of the bytes, the step it was
-- queued at and, for a game's mail that held no secret, its text part
-- compressed (RESEND sends it again); a received mail keeps its headers,
-- the text it was read from and its hash once its step is played (or a
-- week after it came, for mail that is not a player's orders).
ALTER TABLE outbox ADD COLUMN sha256 BLOB;    -- of the bytes as queued
ALTER TABLE outbox ADD COLUMN step INTEGER;   -- the game's step then
ALTER TABLE outbox ADD COLUMN text_z BLOB;    -- its text part, zlib
ALTER TABLE outbox ADD COLUMN draw TEXT;      -- 'start FORMAT': its map is
                                              -- drawn when sent (a welcome's)
ALTER TABLE messages ADD COLUMN text TEXT;    -- what was read (redacted)
ALTER TABLE messages ADD COLUMN trimmed_at INTEGER;  -- raw cut to headers
CREATE INDEX messages_untrimmed ON messages (game_id, step)
    WHERE trimmed_at IS NULL;
