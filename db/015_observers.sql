-- Observers: people who follow a game without playing it.  Each gets
-- the whole picture of every phase (both sides, every roll, the map),
-- `delay` phases late so that nothing they pass on can help a player;
-- when the battle ends they get whatever was still held back.
CREATE TABLE observers (
    id        INTEGER PRIMARY KEY,
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    email     TEXT NOT NULL,
    delay     INTEGER NOT NULL CHECK (delay >= 0),
    added_at  INTEGER NOT NULL,
    UNIQUE (game_id, email)
);

-- A mail held back until its game has played step hold_step (observers'
-- reports); until then next_attempt_at is far in the future, so no
-- sender takes it.
ALTER TABLE outbox ADD COLUMN hold_step INTEGER;
