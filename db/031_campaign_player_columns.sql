-- 031_campaign_player_columns.sql: which columns a campaign player
-- commands (issue 26).
--
-- `campaign player add NAME SIDE EMAIL --columns LIST` gives a player
-- only some of the side's columns, as `player add --brigades` does in a
-- battle: their campaign orders may name only those (and columns made
-- by DETACH, which any of the side's players may order), and in each
-- battle they command the brigades of those columns.  NULL: every
-- column of the side.
ALTER TABLE campaign_players ADD COLUMN columns TEXT;
