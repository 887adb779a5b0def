-- 030_campaign_mail_format.sql: how a campaign player's mail comes
-- (issue 26).
--
-- A player chooses SET MAIL TEXT|HTML|FULL in a campaign mail, as in a
-- battle's: the daily report as plain text, with the operational map
-- inline, or with the whole map as SVG beside it too.  NULL is the
-- default, HTML.
ALTER TABLE campaign_players ADD COLUMN mail_format TEXT;
