/*
 * bb7_msgs.h - the message catalogue of the Bloodybacks 7 ruleset
 * (bb7*.c).
 *
 * Each macro is one message: its id (stable: the ledger signs it and
 * an archive carries it, from engine 5), a letter for each value
 * (core/events.h, EVENT_TYPES: u unit, k commander, b brigade, p stand,
 * s side, n count, r die, d distance, a bearing, t ground, c clock, w a
 * word of the rules), and the sentence with the values put in.  The
 * sentence is what engines up to 4 signed: do not reword it, for their
 * games are still replayed; reword templates/bb7.txt instead.
 * An _M_ macro is an event, an _R_ macro the purpose of a die.
 *
 * Adding one: a macro here, its line in b7_messages in bb7_data.c,
 * and its entry in templates/bb7.txt; tests/report/patterns.py checks
 * all three.
 */
#ifndef DESPATCH_RULES_BB7_MSGS_H
#define DESPATCH_RULES_BB7_MSGS_H

#define B7_M_ROLLS_MOVE_TAKES \
	"rolls-move-takes", "urrwn", \
	"%s rolls %d and %d for its move and takes %s: %d\"."
#define B7_M_DOES_NOT_MOVE_UNLIMBERED \
	"does-not-move-unlimbered", "u", \
	"%s does not move: unlimbered heavy guns cannot be moved."
#define B7_M_DOES_NOT_MOVE_AGAIN \
	"does-not-move-again", "u", \
	"%s does not move again: unlimbered guns move once a turn."
#define B7_M_MOVES \
	"moves", "uddd", \
	"%s moves %s\" to %s,%s."
#define B7_M_MOVES_STOPPED \
	"moves-stopped", "uddd", \
	"%s moves %s\" to %s,%s and is stopped."
#define B7_M_MOVES_TO_THE_EDGE \
	"moves-to-the-edge", "uddd", \
	"%s moves %s\" to %s,%s and is stopped at the table's edge."
#define B7_M_MOVES_STOPPED_BY \
	"moves-stopped-by", "udddu", \
	"%s moves %s\" to %s,%s and is stopped by %s."
#define B7_M_MOVES_IN_WOODS \
	"moves-in-woods", "udddd", \
	"%s moves %s\" to %s,%s (woods: %s\" less)."
#define B7_M_MOVES_IN_WOODS_STOPPED \
	"moves-in-woods-stopped", "udddd", \
	"%s moves %s\" to %s,%s (woods: %s\" less) and is stopped."
#define B7_M_MOVES_IN_WOODS_TO_THE_EDGE \
	"moves-in-woods-to-the-edge", "udddd", \
	"%s moves %s\" to %s,%s (woods: %s\" less) and is stopped at the " \
	"table's edge."
#define B7_M_MOVES_IN_WOODS_STOPPED_BY \
	"moves-in-woods-stopped-by", "uddddu", \
	"%s moves %s\" to %s,%s (woods: %s\" less) and is stopped by %s."
#define B7_M_TURNS_TO_FACE \
	"turns-to-face", "ua", \
	"%s turns to face %d."
#define B7_M_NO_ROOM_TO_FORM \
	"no-room-to-form", "u", \
	"%s has no room to form there."
#define B7_M_LIMBERS_GUNS \
	"limbers-guns", "u", \
	"%s limbers its guns."
#define B7_M_UNLIMBERS_GUNS \
	"unlimbers-guns", "u", \
	"%s unlimbers its guns."
#define B7_M_FORMS_DENSITY \
	"forms-density", "uwn", \
	"%s forms %s (density %d)."
#define B7_M_RIDES \
	"rides", "kddd", \
	"%s rides %s\" to %s,%s."
#define B7_M_GUN_RESUPPLIED \
	"gun-resupplied", "up", \
	"%s: gun %d is resupplied."
#define B7_M_GUN_WAITS_AMMUNITION \
	"gun-waits-ammunition", "up", \
	"%s: gun %d waits for ammunition."
#define B7_M_NO_ACTION_LEFT \
	"no-action-left", "uwn", \
	"%s has no action left for %s (part %d of its orders)."
#define B7_M_CANNOT_TAKE_DENSITY \
	"cannot-take-density", "unnn", \
	"%s cannot take density %d: from %d to its formed %d."
#define B7_M_OPENS_FILES_DENSITY \
	"opens-files-density", "un", \
	"%s opens its files to density %d."
#define B7_M_CLOSES_FILES_DENSITY \
	"closes-files-density", "un", \
	"%s closes its files to density %d."
#define B7_M_KEEPS_DENSITY \
	"keeps-density", "un", \
	"%s keeps density %d."
#define B7_M_RALLIES_DISRUPTION_LEFT \
	"rallies-disruption-left", "unx", \
	"%s rallies: %d disruption %s left."
#define B7_M_RALLIES_NO_DISRUPTION \
	"rallies-no-disruption", "u", \
	"%s rallies, though it has no disruption to lose."
#define B7_M_NO_GUNS_TO_RESUPPLY \
	"no-guns-to-resupply", "u", \
	"%s has no guns to resupply."
#define B7_M_NEEDS_NO_AMMUNITION \
	"needs-no-ammunition", "u", \
	"%s needs no ammunition."
#define B7_M_HOLDS \
	"holds", "u", \
	"%s holds and does not activate."
#define B7_M_ACTIVATES_DICE_SUCCEED \
	"activates-dice-succeed", "uknnnnx", \
	"%s activates with %s: %d of %d dice succeed on %d or less, %d %s."
#define B7_M_ACTIVATES_ALONE \
	"activates-alone", "unnnnx", \
	"%s activates with no commander near: %d of %d dice succeed on %d " \
	"or less, %d %s."
#define B7_R_MOVE_FIRST_DIE \
	"roll-move-first-die", "u", \
	"move of %s, first die"
#define B7_R_MOVE_SECOND_DIE \
	"roll-move-second-die", "u", \
	"move of %s, second die"
#define B7_R_RESUPPLY_GUN \
	"roll-resupply-gun", "upn", \
	"resupply of %s gun %d, on %d"
#define B7_R_ACTIVATION_SUCCEEDS_LESS \
	"roll-activation-succeeds-less", "un", \
	"activation of %s, succeeds on %d or less"
#define B7_M_REMOVED \
	"removed", "uw", \
	"%s is removed from play (%s)."
#define B7_M_TAKES_DISRUPTION \
	"takes-disruption", "uwn", \
	"%s takes a disruption point (%s): %d now."
#define B7_M_LOSES_FIGURE \
	"loses-figure", "un", \
	"%s loses a figure, %d left."
#define B7_M_CHECKS_MORALE_FAILS \
	"checks-morale-fails", "uw", \
	"%s checks morale (%s): no success."
#define B7_M_CHECKS_MORALE_SUCCESSES \
	"checks-morale-successes", "uwn", \
	"%s checks morale (%s): %d successes, it carries on."
#define B7_M_CHECKS_MORALE_ROUTS \
	"checks-morale-routs", "uwnx", \
	"%s checks morale (%s): %d %s, it routs."
#define B7_M_CHECKS_MORALE_PUSHED_BACK \
	"checks-morale-pushed-back", "uwnx", \
	"%s checks morale (%s): %d %s, it is pushed back."
#define B7_M_ROUTS_FROM \
	"routs-from", "udu", \
	"%s routs %s\" from %s, its back to the enemy."
#define B7_M_FALLS_BACK_FROM \
	"falls-back-from", "udu", \
	"%s falls back %s\" from %s, facing the enemy."
#define B7_M_GUN_ROLLED_LOW \
	"gun-rolled-low", "upw", \
	"%s: gun %d rolled a 12 and is low on %s."
#define B7_M_CANNOT_SHOOT_GONE \
	"cannot-shoot-gone", "uu", \
	"%s cannot shoot at %s: it is gone."
#define B7_M_NO_MISSED_DICE \
	"no-missed-dice", "u", \
	"%s has no missed dice to roll again."
#define B7_M_SHOOTS_AGAIN_MORE \
	"shoots-again-more", "uunx", \
	"%s shoots again at %s: %d more %s."
#define B7_M_WILL_NOT_SHOOT_FRIEND \
	"will-not-shoot-friend", "uu", \
	"%s will not shoot at %s, a friend."
#define B7_M_CANNOT_SHOOT_FRONT \
	"cannot-shoot-front", "uu", \
	"%s cannot shoot at %s: it is not in front of it."
#define B7_M_CANNOT_SHOOT_UNSEEN \
	"cannot-shoot-unseen", "uu", \
	"%s cannot shoot at %s: it cannot see it for the woods."
#define B7_M_CANNOT_SHOOT_GUNS \
	"cannot-shoot-guns", "u", \
	"%s cannot shoot: its guns are limbered."
#define B7_M_GUN_OUT_OF_AMMUNITION \
	"gun-out-of-ammunition", "upw", \
	"%s: gun %d is out of %s."
#define B7_M_CANNOT_SHOOT_RANGE_OR_AMMUNITION \
	"cannot-shoot-range-or-ammunition", "uu", \
	"%s cannot shoot at %s: out of range, or out of ammunition."
#define B7_M_CANNOT_SHOOT_OFF \
	"cannot-shoot-off", "uud", \
	"%s cannot shoot at %s: %s\" off, out of range."
#define B7_M_SHOOTS \
	"shoots", "uudnxnx", \
	"%s shoots at %s (%s\"): %d %s, %d %s."
#define B7_M_LOSES_MELEE_LEFT \
	"loses-melee-left", "unxn", \
	"%s loses %d %s in the melee, %d left."
#define B7_M_FIGHTS_MELEE \
	"fights-melee", "unxnxnx", \
	"%s fights with %d %s in the melee (%d %s): %d %s."
#define B7_M_MELEE_BETWEEN_DRAWN \
	"melee-between-drawn", "uun", \
	"The melee between %s and %s is drawn: %d casualties each."
#define B7_M_WINS_MELEE \
	"wins-melee", "uu", \
	"%s wins the melee with %s."
#define B7_M_LOSES_MELEE \
	"loses-melee", "uunx", \
	"%s loses the melee with %s by %d %s."
#define B7_M_CANNOT_CHARGE \
	"cannot-charge", "uu", \
	"%s cannot charge %s."
#define B7_M_EVADES \
	"evades", "uud", \
	"%s evades %s: it falls back %s\"."
#define B7_M_EVADES_TO_THE_EDGE \
	"evades-to-the-edge", "uud", \
	"%s evades %s: it falls back %s\", stopped at the table's edge."
#define B7_M_EVADES_STOPPED_BY \
	"evades-stopped-by", "uudu", \
	"%s evades %s: it falls back %s\", stopped by %s."
#define B7_M_CHARGES_AFTER \
	"charges-after", "udu", \
	"%s charges %s\" after %s."
#define B7_M_CHARGE_STOPPED_BY \
	"charge-stopped-by", "uduu", \
	"%s charges %s\" at %s and falls short, stopped by %s."
#define B7_M_CHARGE_STOPPED_AT_THE_EDGE \
	"charge-stopped-at-the-edge", "udu", \
	"%s charges %s\" at %s and falls short, stopped at the table's edge."
#define B7_M_CHARGE_SHORT_AFTER_THE_DICE \
	"charge-short-after-the-dice", "udud", \
	"%s charges %s\" at %s and falls short, still %s\" off after the " \
	"dice's move."
#define B7_M_CHARGE_SHORT_OF_A_MOVE \
	"charge-short-of-a-move", "ududd", \
	"%s charges %s\" at %s and falls short, still %s\" off: a move takes " \
	"it %s\"."
#define B7_M_CHARGE_SHORT_OF_A_MOVE_IN_WOODS \
	"charge-short-of-a-move-in-woods", "ududd", \
	"%s charges %s\" at %s and falls short, still %s\" off: a move takes " \
	"it %s\", less what the woods take."
#define B7_M_WILL_NOT_CLOSE \
	"will-not-close", "uunnd", \
	"%s will not close with %s (%d of %d dice): it halts %s\" short."
#define B7_M_CLOSES_DICE_CHARGES \
	"closes-dice-charges", "uunn", \
	"%s closes with %s (%d of %d dice) and charges home."
#define B7_R_KILL_DISRUPTION_POINT \
	"roll-kill-disruption-point", "unn", \
	"kill on %s: a disruption point if more than %d/%d"
#define B7_R_MORALE_SUCCEEDS_LESS \
	"roll-morale-succeeds-less", "uwn", \
	"morale of %s (%s), succeeds on %d or less"
#define B7_R_HITS_LESS \
	"roll-hits-less", "wuunw", \
	"%s of %s at %s, hits on %d or less (%s)"
#define B7_R_MELEE_SUCCEEDS_LESS \
	"roll-melee-succeeds-less", "un", \
	"melee of %s, succeeds on %d or less"
#define B7_R_CLOSING_SUCCEEDS_LESS \
	"roll-closing-succeeds-less", "uun", \
	"%s closing with %s, succeeds on %d or less"

#endif
