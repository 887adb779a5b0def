-- 011_spool.sql: mail taken out of the mailbox and not yet read.
--
-- despatchd first makes each fetched mail durable here (one insert, a
-- batch to a transaction) and only then moves it out of the mailbox; it
-- reads and answers the spooled mails after, each in the transaction
-- that deletes its row, so a crash at any point neither loses a mail nor
-- answers one twice.  A mail the intake cannot take (an internal error,
-- not a player's mistake) keeps its row with the error, for the operator.
CREATE TABLE spool (
    id        INTEGER PRIMARY KEY,
    raw       BLOB NOT NULL,
    arrived   INTEGER NOT NULL,   -- when the mailbox took it (0: unknown)
    source    TEXT NOT NULL,      -- where it came from, for the log
    failed_at INTEGER,            -- set when the intake failed on it
    error     TEXT
);
