-- An event's message id and typed values (core/events.h), beside the
-- sentence it always had: what the ledger signs and an archive carries
-- from engine 5 on, and what the narrative templates are keyed by.
-- Events stored before have none (msg ''), and are told by their text.
ALTER TABLE events ADD COLUMN msg TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN arg_types TEXT NOT NULL DEFAULT '';
ALTER TABLE events ADD COLUMN args BLOB;
