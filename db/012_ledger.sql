-- 012_ledger.sql: each game's signed hash chain (docs/ledger.md).
--
-- A game's records, in order: the genesis record (seq 0), then one for
-- each adjudicated step and one for each act of the operator (pause,
-- resume, extend, replace, reset) between them.  record holds the
-- canonical bytes that head is the hash of, and sig the server's Ed25519
-- signature of head.
CREATE TABLE ledger (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    kind     TEXT NOT NULL CHECK (kind IN ('genesis', 'step', 'act')),
    step     INTEGER,
    record   BLOB NOT NULL,
    head     BLOB NOT NULL,
    sig      BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- What each leaf of a step's orders root was made of: the archive
-- publishes them, and a player's report quotes their own.
CREATE TABLE ledger_leaves (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    idx        INTEGER NOT NULL,       -- its place in the root
    side_idx   INTEGER NOT NULL,
    player_id  INTEGER,
    seat       INTEGER NOT NULL,
    mailed     INTEGER NOT NULL,       -- 0: standing orders or none
    salt       BLOB NOT NULL,
    orders     TEXT NOT NULL,          -- the canonical orders played
    leaf       BLOB NOT NULL,
    PRIMARY KEY (game_id, step, idx)
);

-- The salt of a mail's order set (the same on each of its lines), told
-- to the sender in the reply.
ALTER TABLE orders ADD COLUMN salt BLOB;

-- The length of the game's seed chain (its secret tip is seed_secret);
-- NULL until the genesis record is written.
ALTER TABLE games ADD COLUMN chain_steps INTEGER;

-- Games with nonces (the setting nonces): each player's commitment for a
-- step (SHA-256 of the nonce they will reveal), sent with their orders or
-- alone, the nonces revealed, and the step closed to orders while they
-- are awaited, with the root its Close notice gave and the time the
-- nonces are awaited until.
CREATE TABLE nonce_commits (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    player_id  INTEGER NOT NULL,
    hash       BLOB NOT NULL,
    PRIMARY KEY (game_id, step, player_id)
);
CREATE TABLE nonce_reveals (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step       INTEGER NOT NULL,
    player_id  INTEGER NOT NULL,
    nonce      TEXT NOT NULL,
    PRIMARY KEY (game_id, step, player_id)
);
ALTER TABLE games ADD COLUMN closed_step INTEGER;
ALTER TABLE games ADD COLUMN closed_at INTEGER;
ALTER TABLE games ADD COLUMN closed_root BLOB;
ALTER TABLE games ADD COLUMN reveal_until INTEGER;
