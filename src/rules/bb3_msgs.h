/*
 * bb3_msgs.h - the message catalogue of the Bloodybacks 3 ruleset
 * (bb3*.c).
 *
 * Each macro is one message: its id (stable: the ledger signs it and an
 * archive carries it), a letter for each value (core/events.h,
 * EVENT_TYPES: u unit, k commander, s side, n count, r die, d distance,
 * a bearing, w a word of the rules) and the core's sentence.  Players
 * read templates/bb3.txt's wording instead.  An _M_ macro is an event,
 * an _R_ macro the purpose of a die.
 *
 * Adding one: a macro here, its line in b3_messages in bb3_data.c, and
 * its entry in templates/bb3.txt; tests/report/patterns.py checks all
 * three.
 */
#ifndef DESPATCH_RULES_BB3_MSGS_H
#define DESPATCH_RULES_BB3_MSGS_H

/* The initiative. */
#define B3_M_INITIATIVE \
	"initiative", "srrwsn", \
	"%s wins the initiative, %d to %d, and chooses to move %s: %s moves first in turn %d."
#define B3_M_INITIATIVE_TIE \
	"initiative-tie", "r", \
	"Both sides roll %d for the initiative and roll again."
#define B3_R_INITIATIVE \
	"roll-initiative", "s", \
	"initiative of %s"

/* Panic and rally. */
#define B3_M_PANIC_ROUTS \
	"panic-routs", "u", \
	"%s panics at its fleeing friends and breaks."
#define B3_M_PINNED \
	"pinned", "u", \
	"%s is pinned by the panic around it: it may not charge or move this turn."
#define B3_M_RALLIES \
	"rallies", "u", \
	"%s rallies and does nothing else this turn."
#define B3_M_FAILS_TO_RALLY \
	"fails-to-rally", "u", \
	"%s fails to rally and runs on."

/* Charges. */
#define B3_M_CANNOT_CHARGE \
	"cannot-charge", "uw", \
	"%s cannot charge: %s."
#define B3_M_CHARGES \
	"charges", "uu", \
	"%s charges %s."
#define B3_M_RESPONDS \
	"responds", "uwu", \
	"%s answers with %s the charge of %s."
#define B3_M_CONTACT \
	"contact", "uud", \
	"%s reaches %s after %s\" and is in contact."
#define B3_M_CONTACT_CROWDED \
	"contact-crowded", "uu", \
	"%s is wedged against %s among other units."
#define B3_M_CHARGE_SHORT \
	"charge-short", "udddu", \
	"%s charges %s\" to %s,%s, short of %s."
#define B3_M_CHARGE_STOPS \
	"charge-stops", "u", \
	"%s's charge is stopped as it falls back."
#define B3_M_WINS_DRAW \
	"wins-draw", "uun", \
	"%s beats %s on the roll-off after a melee drawn at %d."
#define B3_M_CAUGHT \
	"caught", "uu", \
	"%s is caught by %s and destroyed."
#define B3_M_FALLS_BACK \
	"falls-back", "uddd", \
	"%s falls back %s\" in good order to %s,%s."
#define B3_R_CHARGE \
	"roll-charge", "u", \
	"charge of %s, four times the die"
#define B3_R_EVADE \
	"roll-evade", "u", \
	"evasion of %s"
#define B3_R_FALL_BACK \
	"roll-fall-back", "u", \
	"fall-back of %s"

/* Movement and officers. */
#define B3_M_ORDERED \
	"ordered", "urnd", \
	"%s is ordered on (%d, needing %d or less) and may move %s\"."
#define B3_M_NO_ORDER \
	"no-order", "urn", \
	"%s rolls %d for its order, over %d: it does not move."
#define B3_M_NATIVE_STAY \
	"native-stay", "urn", \
	"%s rolls %d with %d stands lost and moves as it will."
#define B3_M_NATIVE_LEAVE \
	"native-leave", "urn", \
	"%s rolls %d with %d stands lost and leaves the field."
#define B3_M_IN_CONTACT \
	"in-contact", "uu", \
	"%s does not move: it is in contact with %s."
#define B3_M_MOVES \
	"moves", "uddd", \
	"%s moves %s\" to %s,%s."
#define B3_M_MOVES_RIVER \
	"moves-river", "uddd", \
	"%s moves %s\" to %s,%s and is stopped by the river."
#define B3_M_RIDES \
	"rides", "kddd", \
	"%s rides %s\" to %s,%s."
#define B3_M_JOINS \
	"joins", "kddd", \
	"%s rides %s\" to %s,%s and joins the unit there."
#define B3_R_COMMAND \
	"roll-command", "un", \
	"order to %s, %d or less"
#define B3_R_NATIVE \
	"roll-native", "un", \
	"spirit of %s, with %d stands lost"

/* Firing. */
#define B3_M_CANNOT_FIRE \
	"cannot-fire", "uw", \
	"%s does not fire: %s."
#define B3_M_FIRES \
	"fires", "uunrnwnx", \
	"%s fires at %s: %d points and %d on the d3, modified by %d%s: %d%s."
#define B3_M_LOSES \
	"loses", "unx", \
	"%s loses %d figure%s."
#define B3_M_OFFICER_KILLED \
	"officer-killed", "ku", \
	"%s falls at the head of %s."
#define B3_M_MISFIRE \
	"misfire", "u", \
	"%s's shell misfires."
#define B3_M_SCATTERS \
	"scatters", "una", \
	"%s's shell scatters %d\" towards %d degrees."
#define B3_M_SHELL_ON \
	"shell-on", "uu", \
	"%s's shell bursts on %s."
#define B3_M_SHELL_EMPTY \
	"shell-empty", "u", \
	"%s's shell bursts on empty ground."
#define B3_M_SHELL_HITS \
	"shell-hits", "uun", \
	"%s's shell strikes %s for %d points."
#define B3_R_FIRE \
	"roll-fire", "uu", \
	"fire of %s at %s, the d3"
#define B3_R_OFFICER \
	"roll-officer", "kn", \
	"officer %s, killed on %d or more"
#define B3_R_PICK_OFF \
	"roll-pick-off", "kn", \
	"aimed at officer %s, killed on %d or more"
#define B3_R_SCATTER \
	"roll-scatter", "u", \
	"scatter die of %s's shell"
#define B3_R_DIRECTION \
	"roll-direction", "u", \
	"direction of %s's shell, by the clock"
#define B3_R_DISTANCE \
	"roll-distance", "u", \
	"artillery die of %s's shell"
#define B3_R_WHICH \
	"roll-which", "u", \
	"which unit %s's shell strikes"
#define B3_R_SHELL \
	"roll-shell", "u", \
	"shell's fire points on %s"

/* Melee. */
#define B3_M_MELEE \
	"melee", "uu", \
	"%s and %s fight a melee."
#define B3_M_WINS \
	"wins", "uunn", \
	"%s beats %s in the melee, %d to %d."
#define B3_M_LOSES_MELEE \
	"loses-melee", "u", \
	"%s loses the melee."
#define B3_M_PURSUES \
	"pursues", "uddd", \
	"%s pursues %s\" to %s,%s."
#define B3_M_WHEELS \
	"wheels", "ua", \
	"%s wheels after its catch to face %d degrees."
#define B3_R_MELEE \
	"roll-melee", "u", \
	"melee die of %s"
#define B3_R_DRAW \
	"roll-draw", "u", \
	"roll-off of %s, the lower loses"
#define B3_R_PURSUIT \
	"roll-pursuit", "u", \
	"pursuit of %s"

/* Morale, running, the reform. */
#define B3_M_MORALE_PASSES \
	"morale-passes", "uwrn", \
	"%s tests its morale (%s): %d, at or under %d, passes."
#define B3_M_MORALE_FAILS \
	"morale-fails", "uwrn", \
	"%s tests its morale (%s): %d, over %d, fails."
#define B3_M_BREAKS \
	"breaks", "u", \
	"%s breaks and runs."
#define B3_M_RUNS \
	"runs", "uddd", \
	"%s runs %s\" to %s,%s."
#define B3_M_RUNS_OFF \
	"runs-off", "u", \
	"%s runs off the field."
#define B3_M_REFORMS \
	"reforms", "unnx", \
	"%s reforms after %d casualties and removes %d stand%s."
#define B3_M_REFORMS_WHOLE \
	"reforms-whole", "un", \
	"%s reforms after %d casualties and keeps all its stands."
#define B3_M_REMOVED \
	"removed", "u", \
	"%s is removed from the field."
#define B3_M_OFFICER_LOST \
	"officer-lost", "ku", \
	"%s is lost with %s."
#define B3_R_MORALE \
	"roll-morale", "uwn", \
	"morale of %s (%s), %d or less"
#define B3_R_RUN \
	"roll-run", "u", \
	"run of %s"
#define B3_R_WAY \
	"roll-way", "u", \
	"way round for %s: 1-3 left, 4-6 right"
#define B3_R_ODD \
	"roll-odd", "u", \
	"odd casualty of %s, a stand on 6"

#endif
