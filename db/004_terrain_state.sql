-- 004_terrain_state.sql: ground changed by the battle.
--
-- A marsh that a stand has crossed is easier for the next (its die gets
-- +1), and standing crops that formed troops crossed are knocked down and
-- no longer block sight.  The terrain itself comes from the scenario text;
-- this table keeps only what changed, by the terrain's index.
CREATE TABLE terrain_state (
    game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    idx      INTEGER NOT NULL,
    trodden  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, idx)
);
