-- vnb-wing's Fog of War deck leaves the shared tables of 017: the cards
-- are that ruleset's optional rule, and its state is its own block of
-- the battle.  What the store keeps of such a block is the rows of the
-- ruleset's tables (struct ruleset.tables), as one text a battle beside
-- the units' (023): a line a row, "TABLE ROW V1 V2 ...".  The store
-- gives them no meaning.  A commander's casualty marks (017's columns
-- on commanders) stay where they are: any ruleset may put a commander
-- out of action for a while.
ALTER TABLE battle_rules ADD COLUMN tables TEXT NOT NULL DEFAULT '';
INSERT OR IGNORE INTO battle_rules (game_id, units)
    SELECT DISTINCT game_id, '' FROM cards;
UPDATE battle_rules SET tables = COALESCE((
    SELECT group_concat('cards ' || idx || ' ' || place, char(10))
    FROM cards WHERE cards.game_id = battle_rules.game_id), '');
UPDATE battle_rules SET tables = tables || COALESCE((
    SELECT CASE WHEN battle_rules.tables = '' THEN '' ELSE char(10) END ||
        group_concat('effects ' || seq || ' ' || card || ' ' || side_idx ||
        ' ' || unit_idx || ' ' || commander || ' ' || x || ' ' || y || ' ' ||
        value || ' ' || until_step || ' ' || spent, char(10))
    FROM card_effects WHERE card_effects.game_id = battle_rules.game_id), '');
DROP TABLE card_effects;
DROP TABLE cards;
