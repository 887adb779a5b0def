-- The settle time (issue 22): a phase whose orders are all in is played
-- a while after the last order mail, not the instant it comes, so that a
-- player can still act on what the reply says.  A player's set for a
-- step counts as in when the latest mail that changed it (or tried to)
-- read cleanly, or after the player's READY; changed_at is when that
-- mail came, from which the settle time counts.
CREATE TABLE order_state (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    player_id  INTEGER NOT NULL REFERENCES players(id),
    clean      INTEGER NOT NULL,           -- no line refused or not read
    ready      INTEGER NOT NULL DEFAULT 0, -- READY since that mail
    changed_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, step, player_id)
);
