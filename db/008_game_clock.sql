-- 008_game_clock.sql: deadlines that fire by themselves.
--
-- The open step's deadline (UTC seconds; NULL: none), a pause with its
-- reason and the time it left on the deadline, and the reminders already
-- sent for a step (so each goes once).  The schedule itself (deadline,
-- grace, reminders, weekdays, time zone, NMR policy) is in settings.
ALTER TABLE games ADD COLUMN deadline_at INTEGER;
ALTER TABLE games ADD COLUMN paused_at INTEGER;
ALTER TABLE games ADD COLUMN pause_why TEXT;
ALTER TABLE games ADD COLUMN pause_left INTEGER;
CREATE TABLE reminders_sent (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    step     INTEGER NOT NULL,
    ahead    INTEGER NOT NULL,     -- seconds before the deadline
    PRIMARY KEY (game_id, step, ahead)
);
