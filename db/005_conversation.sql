-- 005_conversation.sql: what the mail conversation keeps beyond orders.
--
-- WAIT asks for the full time to a phase's deadline even when every order
-- is in: players.waiting holds the step it was asked for (0: none).  A
-- battle that ends early (a side concedes) says how in games.result.
-- settings holds the operator's choices: per game (game_id > 0) or for the
-- whole server (game_id 0), such as press on/off and the per-sender reply
-- limit.  The sender index serves the rate limit, which counts a sender's
-- mail of the last hour.
ALTER TABLE players ADD COLUMN waiting INTEGER NOT NULL DEFAULT 0;
-- A side may have several players, each commanding the brigades the
-- operator named (their names, comma-separated, and "army" for the army
-- commander); NULL: the whole side.
ALTER TABLE players ADD COLUMN brigades TEXT;
ALTER TABLE games ADD COLUMN result TEXT;
CREATE TABLE settings (
    game_id  INTEGER NOT NULL DEFAULT 0,
    key      TEXT NOT NULL,
    value    TEXT NOT NULL,
    PRIMARY KEY (game_id, key)
);
CREATE INDEX messages_by_sender ON messages (sender COLLATE NOCASE, received_at);
CREATE INDEX outbox_by_recipient ON outbox (game_id, recipient COLLATE NOCASE, kind);
-- Standing orders (STANDING: lines): a player's orders kept from phase to
-- phase, played for any phase the player sends no orders for.  A mail with
-- standing lines replaces the player's whole standing set.
CREATE TABLE standing_orders (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side_idx   INTEGER NOT NULL,
    player_id  INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    message    INTEGER NOT NULL REFERENCES messages(id),
    seq        INTEGER NOT NULL,
    line       INTEGER NOT NULL,
    raw        TEXT NOT NULL,
    canonical  TEXT NOT NULL
);
CREATE INDEX standing_by_player ON standing_orders (game_id, player_id, seq);
