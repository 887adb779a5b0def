-- Fog of War cards (a scenario's `cards` line): where each card of the
-- deck is, the effects of cards played that last beyond the moment, and
-- commanders a card has put out of play.  Written with the rest of the
-- battle state after every step.
CREATE TABLE cards (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL,   -- the card, in the deck's scenario order
    place     INTEGER NOT NULL,   -- -1 in the deck, -2 used, else the side
                                  --   index holding it
    PRIMARY KEY (game_id, idx)
);
CREATE TABLE card_effects (
    game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq       INTEGER NOT NULL,   -- in the order they were played
    card      INTEGER NOT NULL,   -- the ruleset's card index
    side_idx  INTEGER NOT NULL,   -- who played it
    unit_idx  INTEGER NOT NULL,   -- the unit it is on, or -1
    commander INTEGER NOT NULL,   -- the commander it is on, or -1
    x         INTEGER NOT NULL,   -- the point it names, hundredths of an
    y         INTEGER NOT NULL,   --   inch
    value     INTEGER NOT NULL,   -- what it rolled
    until_step INTEGER NOT NULL,  -- the last step it lasts
    spent     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- A commander a card's casualty keeps out: commands nobody up to and
-- including this step; removed: off the table meanwhile.
ALTER TABLE commanders ADD COLUMN out_until INTEGER NOT NULL DEFAULT 0;
ALTER TABLE commanders ADD COLUMN out_removed INTEGER NOT NULL DEFAULT 0;
