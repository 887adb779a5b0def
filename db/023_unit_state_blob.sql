-- A unit's state numbers of its ruleset's own (struct unit's state[]:
-- for bb7 its density, disruption points and markers) are kept as one
-- text a battle, so that the store names none of them: a line a unit
-- that has any, "INDEX N0 N1 N2".  The three columns of 018 move into it.
CREATE TABLE battle_rules (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    units   TEXT NOT NULL
);
INSERT INTO battle_rules (game_id, units)
    SELECT game_id, group_concat(idx || ' ' || density || ' ' || disruption ||
        ' ' || marks, char(10))
    FROM units WHERE density != 0 OR disruption != 0 OR marks != 0
    GROUP BY game_id;
ALTER TABLE units DROP COLUMN density;
ALTER TABLE units DROP COLUMN disruption;
ALTER TABLE units DROP COLUMN marks;
