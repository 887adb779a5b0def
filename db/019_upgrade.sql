-- A game carried over to a new rules engine (despatch game upgrade):
-- the upgrade act's checkpoint, the state carried across as the
-- archive's "state" object shows it (docs/ledger.md), kept so export can
-- write it; the state the last step left, in that form, which the
-- checkpoint is taken from (the tables hold only what is carried, which
-- lacks what lasts a step, and does not hash to the step's record); and
-- the step at which the players of a game waiting for an upgrade were
-- told so, so they are told once.
ALTER TABLE ledger ADD COLUMN checkpoint TEXT;
ALTER TABLE games ADD COLUMN last_state TEXT;
ALTER TABLE games ADD COLUMN upgrade_told INTEGER NOT NULL DEFAULT 0;
