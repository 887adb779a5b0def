-- 027_pending_secret.sql: a second secret waiting to be used, and the
-- players' absences (the SECRET and ABSENT mail commands).
--
-- SECRET mails a player a new secret, made by the server, but a mail's
-- From is easily forged: were the old secret dropped at once, anyone who
-- knows a player's address could lock them out.  So the new secret's hash
-- waits beside the old one, and only the first mail that gives it makes
-- it the player's secret (and the old one stops).  NULL: none waiting.
ALTER TABLE players ADD COLUMN pending_hash BLOB;

-- ABSENT FROM d TO d: the days a player is away, first and last as
-- YYYY-MM-DD in the game's time zone.  Kept once over, so that the
-- absence-cap setting counts every day a player took in a game.
CREATE TABLE absences (
    id          INTEGER PRIMARY KEY,
    player_id   INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    first_day   TEXT NOT NULL,
    last_day    TEXT NOT NULL CHECK (last_day >= first_day),
    created_at  INTEGER NOT NULL
);
CREATE INDEX absences_by_player ON absences (player_id, last_day);
