-- Where each side last saw each enemy unit, in a fog game: a report
-- shows a unit out of sight now at its last known place, marked with
-- when it was seen there.  Written after every step (and at the start,
-- step 0) in the step's own transaction.
CREATE TABLE sightings (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side_idx  INTEGER NOT NULL,   -- the side that saw it
    unit_idx  INTEGER NOT NULL,   -- the enemy unit
    x         INTEGER NOT NULL,   -- centre of the stands seen,
    y         INTEGER NOT NULL,   --   hundredths of an inch
    facing    INTEGER NOT NULL,
    stands    INTEGER NOT NULL,   -- how many of its stands were seen
    step      INTEGER NOT NULL,   -- seen after this step (0: at the start)
    turn      INTEGER NOT NULL,
    PRIMARY KEY (game_id, side_idx, unit_idx)
);
