-- What a step may change of a unit itself, for rulesets that keep it
-- (bb7): its density (lowered by spreading out), disruption points and
-- markers (smoke, ammunition, hit this turn).  0 where a ruleset keeps
-- none.
ALTER TABLE units ADD COLUMN density INTEGER NOT NULL DEFAULT 0;
ALTER TABLE units ADD COLUMN disruption INTEGER NOT NULL DEFAULT 0;
ALTER TABLE units ADD COLUMN marks INTEGER NOT NULL DEFAULT 0;
