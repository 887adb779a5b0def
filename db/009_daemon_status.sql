-- 009_daemon_status.sql: what the daemon is doing, for 'despatch status'.
CREATE TABLE daemon_status (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    pid     INTEGER NOT NULL,
    state   TEXT NOT NULL,        -- running, stopped
    detail  TEXT,
    at      INTEGER NOT NULL      -- when it last said so
);
