/*
 * bpw_msgs.h - the message catalogue of the bpw ruleset (bpw*.c): what
 * bpw itself says.  Its moves, fire and melee dice are vnb-wing's and
 * say vnb-wing's messages (vnb_wing_msgs.h), whose templates bpw's
 * narrative takes from templates/vnb-wing.txt (struct ruleset.base).
 *
 * Each macro is one message: its id (stable: the ledger signs it), a
 * letter for each value (core/events.h, EVENT_TYPES) and the sentence.
 * Adding one: a macro here, its line in bp_messages in bpw_data.c and
 * its entry in templates/bpw.txt; tests/report/patterns.py checks all
 * three.
 */
#ifndef DESPATCH_RULES_BPW_MSGS_H
#define DESPATCH_RULES_BPW_MSGS_H

/* --- morale checks ---------------------------------------------------- */
#define BP_M_CHECK_HOLDS \
	"bpw-check-holds", "unxn", \
	"%s checks its morale: %d (%s) against %d+, and holds."
#define BP_M_CHECK_DISORDERED \
	"bpw-check-disordered", "unxnn", \
	"%s checks its morale: %d (%s) against %d+, short by %d: it is disordered."
#define BP_M_CHECK_ROUTS \
	"bpw-check-routs", "unxnnx", \
	"%s checks its morale: %d (%s) against %d+, short by %d%s: it routs."
#define BP_M_CHECK_SHATTERS \
	"bpw-check-shatters", "unxnnx", \
	"%s checks its morale: %d (%s) against %d+, short by %d%s: it shatters and is removed from play."

#define BP_M_SHATTERED \
	"bpw-shattered", "u", \
	"%s is removed from play."

/* --- quality attacks -------------------------------------------------- */
#define BP_M_QUALITY_FORCES \
	"bpw-quality-forces", "uunxnn", \
	"%s's quality attack on %s: %d (%s) less %d for its quality makes %d, forcing a morale check."
#define BP_M_QUALITY_ADDS \
	"bpw-quality-adds", "uunxnn", \
	"%s's quality attack on %s: %d (%s) less %d for its quality makes %d more against its morale check."
#define BP_M_QUALITY_FAILS \
	"bpw-quality-fails", "uunxn", \
	"%s's quality attack on %s: %d (%s) less %d for its quality is below 0 and forces no check."

/* --- rally ------------------------------------------------------------ */
#define BP_M_RALLIES \
	"bpw-rallies", "unxnnx", \
	"%s rallies: %d (%s) against %d+, %d to spare: %s."
#define BP_M_RALLIES_ELAN \
	"bpw-rallies-elan", "unxnnx", \
	"%s rallies with elan: %d (%s) against %d+, %d to spare: %s, and it acts as ordered."
#define BP_M_RALLY_FAILS \
	"bpw-rally-fails", "unxn", \
	"%s fails to rally: %d (%s) against %d+ needs 2 to spare."
#define BP_M_RALLY_TURNS \
	"bpw-rally-turns", "ua", \
	"%s, rallied, turns to face %d, towards the nearest enemy it sees."
#define BP_M_BLOODIED \
	"bpw-bloodied", "u", \
	"%s is bloodied: 1 worse on its morale and quality rolls for the rest of the battle."
#define BP_M_NOTHING_TO_REFORM \
	"bpw-nothing-to-reform", "u", \
	"%s is in good order: it has nothing to reform."
#define BP_M_PERMANENT_DISORDER \
	"bpw-permanent-disorder", "u", \
	"%s's disorder is permanent (its brigade's collapse, or its kind): REFORM cannot take it away."
#define BP_M_ORDERS_DROPPED \
	"bpw-orders-dropped", "u", \
	"%s spends the phase on its rally: the rest of its orders are dropped."
#define BP_M_HOLDS_FIRE_RALLY \
	"bpw-holds-fire-rally", "u", \
	"%s does not fire: it spent the phase on its rally."

/* --- melee ------------------------------------------------------------ */
#define BP_M_SHOOTS_FIRST \
	"bpw-shoots-first", "uux", \
	"%s strikes first at %s (%s)."
#define BP_M_CANNOT_STRIKE_BACK \
	"bpw-cannot-strike-back", "uu", \
	"%s cannot strike back at %s: none of its stands still touches it."
#define BP_M_STRIKES \
	"bpw-strikes", "uunwnw", \
	"%s strikes %s: %d %s, %d %s."
#define BP_M_GIVES_WAY \
	"bpw-gives-way", "uud", \
	"%s gives way to %s and falls back %s\"."
#define BP_M_LOSES_MELEE \
	"bpw-loses-melee", "uu", \
	"%s loses the melee to %s."
#define BP_M_DRIVES_OFF \
	"bpw-drives-off", "uu", \
	"%s drives off %s."
#define BP_M_LOCKED \
	"bpw-locked", "uu", \
	"%s and %s stay locked in melee: neither gives way."

/* --- the purposes of dice ---------------------------------------------- */
#define BP_R_MORALE \
	"bpw-morale-check", "un", \
	"morale check of %s (%d+)"
#define BP_R_QUALITY \
	"bpw-quality-roll", "uun", \
	"quality attack of %s on %s (quality %d)"
#define BP_R_RALLY \
	"bpw-rally-check", "un", \
	"rally check of %s (%d+, 2 to spare)"

#endif
