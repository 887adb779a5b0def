-- 028_campaigns.sql: campaigns (issue 26), their players, their signed
-- records, and which games are a campaign's battles.
--
-- A campaign keeps the text of its file and of every battlefield file it
-- names, so that it never depends on the files again (as a game keeps its
-- scenario); its state is the canonical text of campaign_state_write,
-- which is what its ledger hashes.

CREATE TABLE campaigns (
    id           INTEGER PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE,
    title        TEXT NOT NULL,
    ruleset      TEXT NOT NULL,
    file_name    TEXT NOT NULL,
    file_text    BLOB NOT NULL,
    status       TEXT NOT NULL DEFAULT 'setup'
                 CHECK (status IN ('setup', 'running', 'finished')),
    turn         INTEGER NOT NULL DEFAULT 0,
    state_text   BLOB,                   -- NULL until it starts
    pending      BLOB,                   -- a turn marched, its battles
                                         -- not yet over (campaign_turn_write)
    seed_secret  BLOB NOT NULL,          -- never revealed: its seed chain's tip and battles' secrets are made from it
    sandbox      INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    started_at   INTEGER
);

-- The battlefield files, by the path the campaign file writes.
CREATE TABLE campaign_fields (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    path         TEXT NOT NULL,
    text         BLOB NOT NULL,
    PRIMARY KEY (campaign_id, path)
);

-- A player has one secret for the campaign and each of its battles.
CREATE TABLE campaign_players (
    id           INTEGER PRIMARY KEY,
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    side         TEXT NOT NULL,
    email        TEXT NOT NULL,
    secret_hash  BLOB NOT NULL,
    created_at   INTEGER NOT NULL,
    UNIQUE (campaign_id, email)
);

-- The campaign's hash chain: its genesis, then its records.
CREATE TABLE campaign_records (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    kind         TEXT NOT NULL,
    record       BLOB NOT NULL,
    head         BLOB NOT NULL,
    sig          BLOB NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, seq)
);

-- Each side's orders for a turn, canonical, one a line.
CREATE TABLE campaign_orders (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    side         TEXT NOT NULL,
    orders       TEXT NOT NULL,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (campaign_id, turn, side)
);

-- The battles a turn opened, in the order of its contacts.  A battle's
-- game is an ordinary one, which knows its campaign.
CREATE TABLE campaign_battles (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    idx          INTEGER NOT NULL,
    game_id      INTEGER NOT NULL REFERENCES games(id),
    PRIMARY KEY (campaign_id, turn, idx)
);
ALTER TABLE games ADD COLUMN campaign_id INTEGER REFERENCES campaigns(id);
