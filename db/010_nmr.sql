-- 010_nmr.sql: phases in a row a player sent no orders for.
--
-- At the 'nmr-limit' (a setting), the operator and the other players are
-- told, and 'despatch player replace' can hand the side to someone else.
ALTER TABLE players ADD COLUMN nmr_count INTEGER NOT NULL DEFAULT 0;
