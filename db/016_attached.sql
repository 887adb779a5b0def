-- A commander attached to a unit (JOIN) moves with it in every phase until
-- he is ordered elsewhere: the unit's index, or -1.
ALTER TABLE commanders ADD COLUMN attached INTEGER NOT NULL DEFAULT -1;
