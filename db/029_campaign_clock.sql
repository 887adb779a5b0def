-- 029_campaign_clock.sql: a campaign's own clock (issue 26).
--
-- A campaign turn is marched at a deadline after it opened, or once
-- every side's orders are in and have settled, and its players are
-- reminded before the deadline.  The operator may set deadline, settle
-- and reminders for one campaign, as settings does for one game; the
-- server's value (settings, game 0) stands for a key a campaign does not
-- set.  Campaigns and games are named apart, so their settings are kept
-- apart: a campaign's id is never read as a game's.
CREATE TABLE campaign_settings (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    key          TEXT NOT NULL,
    value        TEXT NOT NULL,
    PRIMARY KEY (campaign_id, key)
);

-- The reminders sent before a turn's deadline (turn: the one open), so
-- each goes once.
CREATE TABLE campaign_reminders_sent (
    campaign_id  INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
    turn         INTEGER NOT NULL,
    ahead        INTEGER NOT NULL,     -- seconds before the deadline
    PRIMARY KEY (campaign_id, turn, ahead)
);
