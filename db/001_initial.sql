-- 001_initial.sql: the first schema of a despatch database.
--
-- One file holds every game on a server.  A game's scenario text is kept
-- whole, so a game never depends on the file it was made from; the live
-- battle state (brigades, commanders, units, stands) is kept as rows and
-- rewritten in one transaction with each adjudicated step.

CREATE TABLE server_keys (
    name  TEXT PRIMARY KEY,          -- 'secret-hash': key of the players' secret hashes
    key   BLOB NOT NULL
);

CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE,
    title           TEXT NOT NULL,
    ruleset         TEXT NOT NULL,
    scenario_file   TEXT NOT NULL,    -- the name it was created from
    scenario_text   TEXT NOT NULL,
    scenario_sha256 BLOB NOT NULL,
    sandbox         INTEGER NOT NULL DEFAULT 0,   -- scripted dice allowed
    status          TEXT NOT NULL DEFAULT 'setup'
                    CHECK (status IN ('setup', 'running', 'finished')),
    step            INTEGER NOT NULL DEFAULT 0,   -- the open step; 0 before start
    seed_secret     BLOB NOT NULL,                -- 32 bytes; step seeds derive from it
    created_at      INTEGER NOT NULL,
    started_at      INTEGER
);

CREATE TABLE sides (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    side_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    PRIMARY KEY (game_id, idx),
    UNIQUE (game_id, side_id)
);

CREATE TABLE players (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side_idx     INTEGER NOT NULL,
    email        TEXT NOT NULL,
    secret_hash  BLOB NOT NULL,      -- keyed BLAKE2b of the secret
    created_at   INTEGER NOT NULL,
    UNIQUE (game_id, email),
    FOREIGN KEY (game_id, side_idx) REFERENCES sides(game_id, idx)
);

CREATE TABLE brigades (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    side_idx   INTEGER NOT NULL,
    name       TEXT NOT NULL,
    commander  INTEGER NOT NULL,
    level10    INTEGER NOT NULL,     -- exhaustion level, tenths of an SP
    sp0        INTEGER NOT NULL,
    sp_lost    INTEGER NOT NULL DEFAULT 0,
    exhausted  INTEGER NOT NULL DEFAULT 0,
    collapsed  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE commanders (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    side_idx   INTEGER NOT NULL,
    brigade    INTEGER NOT NULL,     -- -1 for the army commander
    name       TEXT NOT NULL,
    x          INTEGER NOT NULL,     -- hundredths of an inch
    y          INTEGER NOT NULL,
    facing     INTEGER NOT NULL,
    gone       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE units (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    side_idx   INTEGER NOT NULL,
    brigade    INTEGER NOT NULL,
    name       TEXT NOT NULL,
    type       TEXT NOT NULL,
    kind       INTEGER NOT NULL,
    speed      INTEGER NOT NULL,     -- hundredths of an inch
    morale     INTEGER NOT NULL,
    weapon     INTEGER NOT NULL,
    abilities  INTEGER NOT NULL,
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE stands (
    game_id    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,     -- battle-wide stand index
    unit_idx   INTEGER NOT NULL,
    sp         INTEGER NOT NULL,
    sp0        INTEGER NOT NULL,
    x          INTEGER NOT NULL,
    y          INTEGER NOT NULL,
    facing     INTEGER NOT NULL,
    formation  INTEGER NOT NULL,
    flags      INTEGER NOT NULL,     -- disordered 1, permanent 2, stationary 4, gone 8, guns lost 16
    PRIMARY KEY (game_id, idx)
);

CREATE TABLE turns (
    game_id         INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step            INTEGER NOT NULL,
    turn            INTEGER NOT NULL,
    side_idx        INTEGER,          -- phasing side; NULL when simultaneous
    seed            BLOB,             -- the dice seed used
    scripted        INTEGER NOT NULL DEFAULT 0,
    dice_rolled     INTEGER NOT NULL DEFAULT 0,
    adjudicated_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, step)
);

CREATE TABLE messages (
    id           INTEGER PRIMARY KEY,
    message_id   TEXT UNIQUE,         -- without angle brackets; NULL if absent
    sha256       BLOB NOT NULL UNIQUE,-- of the raw bytes as received
    sender       TEXT,
    subject      TEXT,
    game_id      INTEGER REFERENCES games(id) ON DELETE SET NULL,
    player_id    INTEGER REFERENCES players(id) ON DELETE SET NULL,
    step         INTEGER,
    status       TEXT NOT NULL,       -- orders, rejected, unknown-game, ignored ...
    note         TEXT,
    raw          BLOB NOT NULL,       -- as received, the secret blanked out
    received_at  INTEGER NOT NULL
);

CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step        INTEGER NOT NULL,
    side_idx    INTEGER NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    message     INTEGER NOT NULL REFERENCES messages(id),
    seq         INTEGER NOT NULL,     -- order within the set
    line        INTEGER NOT NULL,     -- line in the mail
    raw         TEXT NOT NULL,
    canonical   TEXT NOT NULL,
    superseded  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX orders_by_step ON orders (game_id, step, side_idx, superseded);

CREATE TABLE events (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step      INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    kind      TEXT NOT NULL,
    side_idx  INTEGER,
    unit_idx  INTEGER,
    target    INTEGER,
    value     INTEGER NOT NULL,
    sides     INTEGER NOT NULL,
    text      TEXT NOT NULL,
    PRIMARY KEY (game_id, step, seq)
);

CREATE TABLE outbox (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER REFERENCES games(id) ON DELETE SET NULL,
    message_id    TEXT NOT NULL UNIQUE,
    recipient     TEXT NOT NULL,
    subject       TEXT NOT NULL,
    kind          TEXT NOT NULL,      -- ack, reply, welcome, report
    raw           BLOB NOT NULL,      -- the whole RFC 5322 message
    created_at    INTEGER NOT NULL,
    delivered_at  INTEGER
);
