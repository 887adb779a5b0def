-- 006_game_from.sql: the address a game's mail goes out from.
--
-- Stored when the game is made, so that every process (the CLI from any
-- shell, the daemon) answers a game's players from the same address, and
-- its Message-IDs carry the same domain.  NULL for games made before
-- this: they use the server's address of the moment.
ALTER TABLE games ADD COLUMN from_addr TEXT;
