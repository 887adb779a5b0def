-- 026_due_index.sql: a tick reads the games with something due, not all.
--
-- A running game's clock makes it due only at its deadline, or at a
-- reminder some time before it; so the running games whose clock runs
-- (not paused) are indexed by their deadline, and a tick reads one range
-- of the index (deadline before now and the longest reminder) instead of
-- every game.  The rest that can make a game due before its deadline
-- (orders in for the open step, a phase closed for its nonces) is looked
-- for in the second index, which names the running games and their open
-- steps without reading their rows (each holding its scenario's text).
CREATE INDEX games_by_deadline ON games (deadline_at)
    WHERE status = 'running' AND paused_at IS NULL;
CREATE INDEX games_running ON games (id, step, closed_step)
    WHERE status = 'running' AND paused_at IS NULL;
