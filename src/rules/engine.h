/*
 * engine.h - the number of the rules engine this build plays.
 *
 * The engine number, not the package version, is what a game's records
 * name: the genesis (and so the dice of the first step, which hang on
 * the genesis head) and every step record.  Bump it in the same commit
 * as any change that alters a result, an event's message or values, or
 * a state or events hash for the same scenario, orders and dice (a
 * reworded template changes none of them); never for a
 * release, a packaging change or a faster engine that plays the same
 * bytes.  Then add the old number to the table in src/ledger/engine.c
 * with the build that still replays it, and keep its state-hash
 * function there: a game begun under it is carried over by
 * `despatch game upgrade` (docs/ledger.md, "Engines and upgrades").
 */
#ifndef DESPATCH_RULES_ENGINE_H
#define DESPATCH_RULES_ENGINE_H

/* 5: events signed as message ids and typed values (issue 21). */
#define ENGINE_NUMBER 5

/* The state layout engines 3 to 5 sign (despatch/state/v3) and show in
 * an archive gives every unit its three state numbers (struct unit's
 * state[], the meaning each ruleset's own) under these names, whatever
 * its ruleset: those of the first ruleset to keep any (bb7), frozen with
 * the layout.  A ruleset that keeps fewer leaves the rest 0; one that
 * needs more needs a new layout, and so a new engine. */
#define ENGINE_V3_UNIT_KEYS { "density", "disruption", "marks" }

#endif
