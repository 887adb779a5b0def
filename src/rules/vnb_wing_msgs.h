/*
 * vnb_wing_msgs.h - the message catalogue of the wing-scale Volley &
 * Bayonet ruleset (vnb_wing*.c).
 *
 * Each macro is one message: its id (stable: the ledger signs it and
 * an archive carries it, from engine 5), a letter for each value
 * (core/events.h, EVENT_TYPES: u unit, k commander, b brigade, p stand,
 * s side, n count, r die, d distance, a bearing, t ground, c clock, w a
 * word of the rules), and the sentence with the values put in.  The
 * sentence is what engines up to 4 signed: do not reword it, for their
 * games are still replayed; reword templates/vnb-wing.txt instead.
 * An _M_ macro is an event, an _R_ macro the purpose of a die.
 *
 * Adding one: a macro here, its line in vw_messages in vnb_wing_data.c,
 * and its entry in templates/vnb-wing.txt; tests/report/patterns.py
 * checks all three.
 */
#ifndef DESPATCH_RULES_VNB_WING_MSGS_H
#define DESPATCH_RULES_VNB_WING_MSGS_H

#define VW_M_STAND_DESTROYED \
	"stand-destroyed", "up", \
	"%s: stand %d is destroyed and is removed from play."
#define VW_M_STAND_ROUTS_OFF \
	"stand-routs-off", "up", \
	"%s: stand %d routs off the table and is removed from play."
#define VW_M_STAND_ROUTS_AGAIN \
	"stand-routs-again", "up", \
	"%s: stand %d routs again and is removed from play."
#define VW_M_STAND_GONE_IN_COLLAPSE \
	"stand-gone-in-collapse", "up", \
	"%s: stand %d was routed when its brigade collapsed and is removed from play."
#define VW_M_STAND_FAILS_MORALE_ROUTED \
	"stand-fails-morale-routed", "up", \
	"%s: stand %d fails morale while routed and is removed from play."
#define VW_M_STAND_RIDDEN_DOWN \
	"stand-ridden-down", "up", \
	"%s: stand %d is ridden down, disordered, by horse and is removed from play."
#define VW_M_STAND_LOSES_MELEE_ROUTED \
	"stand-loses-melee-routed", "up", \
	"%s: stand %d loses a melee while routed and is removed from play."
#define VW_M_STAND_LOSES_SP \
	"stand-loses-sp", "upnwn", \
	"%s: stand %d loses %d SP (%s), %d left."
#define VW_M_STAND_DISORDERED \
	"stand-disordered", "upw", \
	"%s: stand %d is disordered (%s)."
#define VW_M_STAND_FALLS_BACK_AHEAD \
	"stand-falls-back-ahead", "up", \
	"%s: stand %d falls back ahead of a retreating stand."
#define VW_M_STAND_ROUTS \
	"stand-routs", "upw", \
	"%s: stand %d routs (%s)."
#define VW_M_CREW_ABANDON_GUNS \
	"crew-abandon-guns", "u", \
	"%s: the crew abandon their guns."
#define VW_M_OUT_OF_COMMAND \
	"out-of-command", "ud", \
	"%s is out of command: no commander of its chain within %s\"."
#define VW_M_PARTLY_OUT_OF_COMMAND \
	"partly-out-of-command", "unnd", \
	"%s is partly out of command: %d of its %d stands neither within " \
	"%s\" of a commander of its chain nor joined to a stand that is."
#define VW_M_ROUTED \
	"routed", "u", \
	"%s is routed and cannot take orders until rallied."
#define VW_M_CANNOT_RETIRE_FIRE \
	"cannot-retire-fire", "u", \
	"%s cannot retire from fire: only mounted stands may."
#define VW_M_WILL_RETIRE_FIRE \
	"will-retire-fire", "u", \
	"%s will retire from fire until its next phase."
#define VW_M_MAY_REFORM_ONLY \
	"may-reform-only", "u", \
	"%s may reform only at the start or the end of its move."
#define VW_M_CANNOT_REFORM_OUT \
	"cannot-reform-out", "u", \
	"%s cannot reform: it is out of command."
#define VW_M_CANNOT_REFORM_CONTACT \
	"cannot-reform-contact", "u", \
	"%s cannot reform in contact with the enemy."
#define VW_M_CANNOT_REFORM_GROUND \
	"cannot-reform-ground", "u", \
	"%s cannot reform in this ground."
#define VW_M_NO_MOVEMENT_TO_REFORM \
	"no-movement-to-reform", "u", \
	"%s has not the movement left to reform."
#define VW_M_NO_DISORDER_IN_COMMAND \
	"no-disorder-in-command", "u", \
	"%s has no disorder it can recover from in its stands in command."
#define VW_M_NO_DISORDER \
	"no-disorder", "u", \
	"%s has no disorder it can recover from."
#define VW_M_RECOVERS_DISORDER_HALF \
	"recovers-disorder-half", "u", \
	"%s recovers from disorder (half its move)."
#define VW_M_CANNOT_CHARGE_TARGET_GONE \
	"cannot-charge-target-gone", "uu", \
	"%s cannot charge %s: it is no longer on the table."
#define VW_M_CANNOT_CHARGE_BRIGADE \
	"cannot-charge-brigade", "u", \
	"%s cannot charge: its brigade is exhausted."
#define VW_M_CANNOT_CHARGE_OUT \
	"cannot-charge-out", "u", \
	"%s cannot charge: it is out of command."
#define VW_M_CANNOT_CHARGE_PART \
	"cannot-charge-part", "u", \
	"%s cannot charge: part of it is out of command."
#define VW_M_CANNOT_CHARGE_IN \
	"cannot-charge-in", "uw", \
	"%s cannot charge in %s."
#define VW_M_CANNOT_CHARGE_AFTER \
	"cannot-charge-after", "u", \
	"%s cannot charge after moving: a charge starts the unit's move (it " \
	"may turn first)."
#define VW_M_CANNOT_CHARGE_SECOND_TURN \
	"cannot-charge-second-turn", "uu", \
	"%s cannot charge %s: it would have to turn a second time, which a " \
	"charger may not."
#define VW_M_CHARGES_MAKES_CONTACT \
	"charges-makes-contact", "uu", \
	"%s charges %s and makes contact."
#define VW_M_CHARGE_FALLS_SHORT \
	"charge-falls-short", "uu", \
	"%s's charge on %s falls short."
#define VW_M_OUT_OF_PLAY \
	"out-of-play", "k", \
	"%s is out of play and cannot move."
#define VW_M_STAND_TURNS_TO_FACE \
	"stand-turns-to-face", "upa", \
	"%s: stand %d turns to face %d as it rallies."
#define VW_M_STAND_RALLIES_TO_COMMANDER \
	"stand-rallies-to-commander", "upk", \
	"%s: stand %d rallies to %s (it stays permanently disordered)."
#define VW_M_STAND_RALLIES_ALONE \
	"stand-rallies-alone", "upw", \
	"%s: stand %d rallies with no commander by it (%s; it stays " \
	"permanently disordered)."
#define VW_M_CANNOT_GO_STATIONARY \
	"cannot-go-stationary", "u", \
	"%s holds but cannot go stationary (it must be infantry or guns, in " \
	"command, out of forest, thicket and swamp, and its brigade not " \
	"exhausted)."
#define VW_M_STATIONARY \
	"stationary", "u", \
	"%s is stationary."
#define VW_M_STATIONARY_IN_PART \
	"stationary-in-part", "unn", \
	"%s is stationary with %d of its %d stands (the others are out of " \
	"command or in forest, thicket or swamp)."
#define VW_M_RIDES_WITH \
	"rides-with", "kudd", \
	"%s rides with %s to %s,%s."
#define VW_M_CANNOT_RIDE_OFF \
	"cannot-ride-off", "k", \
	"%s cannot ride off the table."
#define VW_M_COMMANDER_DOES_NOT_MOVE \
	"commander-does-not-move", "kw", \
	"%s does not move: %s."
#define VW_M_RIDES \
	"rides", "kddd", \
	"%s rides %s\" to %s,%s."
#define VW_M_RIDES_STOPPING \
	"rides-stopping", "kdddw", \
	"%s rides %s\" to %s,%s, stopping: %s."
#define VW_M_JOINS_WILL_MOVE \
	"joins-will-move", "ku", \
	"%s joins %s and will move with it."
#define VW_M_EXHAUSTED \
	"exhausted", "bnnnn", \
	"%s is exhausted: it has lost %d SP of %d (level %d.%d)."
#define VW_M_HOLDS_TOGETHER \
	"holds-together", "brnx", \
	"%s holds together (rolled %d, more than its %d %s)."
#define VW_M_MORALE_COLLAPSE \
	"morale-collapse", "brnx", \
	"%s suffers a morale collapse (rolled %d, not more than its %d %s)."
#define VW_R_MORALE_COLLAPSE \
	"roll-morale-collapse", "bn", \
	"morale collapse of %s: collapses on %d or less"
#define VW_M_DRAWS_CARD \
	"draws-card", "sw", \
	"%s draws the card %s."
#define VW_M_PLAYS_ROLLED_NO_OFFICER \
	"plays-rolled-no-officer", "swur", \
	"%s plays %s on %s: rolled %d, no officer falls."
#define VW_M_PLAYS_ROLLED_FALLS \
	"plays-rolled-falls", "swurk", \
	"%s plays %s on %s: rolled %d, %s falls and is out of play for a " \
	"turn."
#define VW_M_PLAYS_ROLLED_OFFICERS \
	"plays-rolled-officers", "swur", \
	"%s plays %s on %s: rolled %d, its officers fall."
#define VW_M_PLAYS_ROLLED_HE_MISSED \
	"plays-rolled-he-missed", "swkr", \
	"%s plays %s at %s: rolled %d, he is missed."
#define VW_M_PLAYS_ROLLED_HORSE \
	"plays-rolled-horse", "swkr", \
	"%s plays %s at %s: rolled %d, his horse is killed and he cannot " \
	"command for a turn."
#define VW_M_PLAYS_ROLLED_HE_HIT \
	"plays-rolled-he-hit", "swkrnx", \
	"%s plays %s at %s: rolled %d, he is hit and out of play for %d %s."
#define VW_M_PLAYS \
	"plays", "swu", \
	"%s plays %s on %s."
#define VW_M_STAND_RECOVERS_DISORDER \
	"stand-recovers-disorder", "upw", \
	"%s: stand %d recovers from disorder (%s)."
#define VW_M_PLAYS_MOVES_MORE \
	"plays-moves-more", "swur", \
	"%s plays %s on %s: it moves %d\" more this phase."
#define VW_M_PLAYS_MOVES_LESS \
	"plays-moves-less", "swur", \
	"%s plays %s on %s: it moves %d\" less in its next phase."
#define VW_M_PLAYS_STREAM_THERE \
	"plays-stream-there", "swdds", \
	"%s plays %s at %s,%s: the stream there is marshy banked for the " \
	"crown's units until %s's next phase."
#define VW_M_PLAYS_UNTIL_NEXT \
	"plays-until-next", "swus", \
	"%s plays %s on %s, until %s's next phase."
#define VW_M_DOES_NOT_HOLD_CARD \
	"does-not-hold-card", "swn", \
	"%s does not hold the card %s: line %d does nothing."
#define VW_M_DISCARDS_CARD \
	"discards-card", "sw", \
	"%s discards the card %s."
#define VW_M_CANNOT_PLAY_CARD_ON_UNIT \
	"cannot-play-card-on-unit", "swuw", \
	"%s cannot play the card %s on %s: %s; it stays in the hand."
#define VW_M_CANNOT_PLAY_CARD_ON_COMMANDER \
	"cannot-play-card-on-commander", "swkw", \
	"%s cannot play the card %s on %s: %s; it stays in the hand."
#define VW_M_CANNOT_PLAY_CARD_AT_PLACE \
	"cannot-play-card-at-place", "sww", \
	"%s cannot play the card %s on the place named: %s; it stays in the " \
	"hand."
#define VW_M_BACK_COMMAND \
	"back-command", "k", \
	"%s is back in command."
#define VW_M_SEES_ROUT \
	"sees-rout", "uuw", \
	"%s sees %s rout (%s)."
#define VW_R_CARD_MOVE \
	"roll-card-move", "wuw", \
	"%s for %s (%s)"
#define VW_R_CARD_MOVE_SECOND \
	"roll-card-move-second", "wu", \
	"%s for %s, second die"
#define VW_R_CARD_DRAWN_DECK \
	"roll-card-drawn-deck", "sn", \
	"a card drawn by %s from the %d in the deck"
#define VW_R_OFFICERS_FALL_MORE \
	"roll-officers-fall-more", "wun", \
	"%s on %s, the officers fall on %d or more"
#define VW_R_SHARPSHOOTERS \
	"roll-sharpshooters", "wk", \
	"%s at %s"
#define VW_R_SHARPSHOOTERS_TURNS_OUT \
	"roll-sharpshooters-turns-out", "k", \
	"turns %s is out (half the roll, rounded up)"
#define VW_M_STAND_REROLLS_MORALE \
	"stand-rerolls-morale", "uprw", \
	"%s: stand %d rolled %d for morale and rerolls it (%s)."
#define VW_M_STAND_PASSES_MORALE \
	"stand-passes-morale", "upwrn", \
	"%s: stand %d passes morale (%s): rolled %d, needed %d or less."
#define VW_M_STAND_FAILS_MORALE \
	"stand-fails-morale", "upwrn", \
	"%s: stand %d fails morale (%s): rolled %d, needed %d or less."
#define VW_M_WILL_NOT_CLOSE \
	"will-not-close", "uu", \
	"%s will not close with %s: it stops halfway and deploys as " \
	"skirmishers."
#define VW_M_BREAKS_THROUGH \
	"breaks-through", "uu", \
	"%s breaks through: %s gives way before the melee, and it occupies " \
	"the ground."
#define VW_M_BREAKS_THROUGH_CHARGES \
	"breaks-through-charges", "uuu", \
	"%s breaks through: %s gives way before the melee, and it charges " \
	"%s."
#define VW_M_STAND_SAVES_HIT \
	"stand-saves-hit", "upwr", \
	"%s: stand %d saves a hit (%s, rolled %d)."
#define VW_M_STAND_HIT \
	"stand-hit", "upu", \
	"%s: stand %d is hit by %s."
#define VW_M_FIRES_RANGE \
	"fires-range", "uuwnxnx", \
	"%s fires at %s (%s range): %d %s, %d %s."
#define VW_M_RETURNS_FIRE \
	"returns-fire", "uunxnx", \
	"%s returns fire on %s: %d %s, %d %s."
#define VW_M_STAND_RETIRES_FIRE \
	"stand-retires-fire", "updnx", \
	"%s: stand %d retires %s\" from the fire (%d %s)."
#define VW_M_CANNOT_FIRE_SKIRMISHERS \
	"cannot-fire-skirmishers", "uu", \
	"%s cannot fire at %s: skirmishers in front of it draw its fire."
#define VW_M_CANNOT_FIRE \
	"cannot-fire", "uuw", \
	"%s cannot fire at %s: %s."
#define VW_M_STAND_ABANDONS_GUNS \
	"stand-abandons-guns", "up", \
	"%s: stand %d abandons its guns in the works."
#define VW_M_STAND_FALLS_BACK \
	"stand-falls-back", "upd", \
	"%s: stand %d falls back %s\"."
#define VW_M_ADVANCES_INTO_GROUND \
	"advances-into-ground", "udu", \
	"%s advances %s\" into the ground %s held."
#define VW_M_TURNS_TO_FACE_AFTER_MELEE \
	"turns-to-face-after-melee", "ua", \
	"%s turns to face %d after the melee."
#define VW_M_NO_LONGER_IN_CONTACT \
	"no-longer-in-contact", "uu", \
	"%s is no longer in contact with %s: no melee."
#define VW_M_DESTROY_EACH_OTHER \
	"destroy-each-other", "uunn", \
	"%s and %s destroy each other in the melee (hits scored %d to %d): " \
	"neither side wins."
#define VW_M_WINS_MELEE \
	"wins-melee", "uunnw", \
	"%s wins the melee with %s (hits scored %d to %d%s)."
#define VW_M_LOSES_MELEE \
	"loses-melee", "uu", \
	"%s loses the melee with %s."
#define VW_R_MORALE_STAND_NEEDS \
	"roll-morale-stand-needs", "upwnw", \
	"morale of %s stand %d (%s), needs %d or less%s"
#define VW_R_MORALE_STAND_REROLLED \
	"roll-morale-stand-rerolled", "upwn", \
	"morale of %s stand %d rerolled (%s), needs %d or less"
#define VW_R_STAND_HITS_MORE \
	"roll-stand-hits-more", "wupun", \
	"%s of %s stand %d at %s, hits on %d or more"
#define VW_R_FIRE_STAND_REROLLED \
	"roll-fire-stand-rerolled", "upwn", \
	"fire of %s stand %d rerolled (%s), hits on %d or more"
#define VW_R_SAVE_STAND_SAVES \
	"roll-save-stand-saves", "upwn", \
	"save for %s stand %d (%s), saves on %d or more"
#define VW_R_MELEE_TIE_ROLL \
	"roll-melee-tie-roll", "un", \
	"melee tie roll-off for %s (+%d)"
#define VW_M_NO_MOVEMENT_TO_FORM \
	"no-movement-to-form", "u", \
	"%s has not the movement left to change formation."
#define VW_M_NO_DISMOUNTED_FORM \
	"no-dismounted-form", "u", \
	"%s has no dismounted form in this scenario."
#define VW_M_MUST_MOUNT_BEFORE \
	"must-mount-before", "u", \
	"%s must mount before it changes formation."
#define VW_M_MUST_FORM_BEFORE \
	"must-form-before", "u", \
	"%s must form before it dismounts."
#define VW_M_CANNOT_CHANGE_FORMATION \
	"cannot-change-formation", "u", \
	"%s cannot change formation: its stands would not have room there."
#define VW_M_DISMOUNTS_HALF_MOVE \
	"dismounts-half-move", "u", \
	"%s dismounts (half its move)."
#define VW_M_MOUNTS_HALF_MOVE \
	"mounts-half-move", "u", \
	"%s mounts (half its move)."
#define VW_M_CANNOT_BREAK_INTO \
	"cannot-break-into", "u", \
	"%s cannot break into detachments: only infantry with the Skirmish " \
	"ability can."
#define VW_M_CANNOT_TAKE_SKIRMISH \
	"cannot-take-skirmish", "u", \
	"%s cannot take skirmish order: only detachments and mounted stands " \
	"can."
#define VW_M_CANNOT_LEAVE_ROAD \
	"cannot-leave-road", "u", \
	"%s cannot leave road march in contact with the enemy."
#define VW_M_CANNOT_BREAK_UP \
	"cannot-break-up", "uw", \
	"%s cannot break into detachments: %s."
#define VW_M_CANNOT_FORM_UP \
	"cannot-form-up", "uw", \
	"%s cannot form up from its detachments: %s."
#define VW_M_BREAKS_INTO_DETACHMENTS \
	"breaks-into-detachments", "unww", \
	"%s breaks into %d detachments%s%s."
#define VW_M_FORMS_UP_DETACHMENTS \
	"forms-up-detachments", "unxw", \
	"%s forms up from its detachments into %d %s (%s its move)."
#define VW_M_FORMS \
	"forms", "uww", \
	"%s forms %s%s."
#define VW_M_STAND_GOING \
	"stand-going", "uptw", \
	"%s: stand %d in %s: %s."
#define VW_M_KNOCKS_DOWN_CROPS \
	"knocks-down-crops", "ut", \
	"%s knocks down the crops of %s."
#define VW_M_CANNOT_CHANGE_FACING \
	"cannot-change-facing", "u", \
	"%s cannot change facing a third time this turn."
#define VW_M_NO_MOVEMENT_TO_TURN \
	"no-movement-to-turn", "uw", \
	"%s has not the movement left to turn (a %s facing change costs " \
	"half its move)."
#define VW_M_CANNOT_TURN_THERE \
	"cannot-turn-there", "u", \
	"%s cannot turn there: it would leave the table."
#define VW_M_TURNS_TO_FACE \
	"turns-to-face", "uaw", \
	"%s turns to face %d%s."
#define VW_M_MOVES \
	"moves", "uddd", \
	"%s moves %s\" to %s,%s."
#define VW_M_MOVES_STOPPING \
	"moves-stopping", "udddw", \
	"%s moves %s\" to %s,%s, stopping: %s."
#define VW_M_DOES_NOT_MOVE \
	"does-not-move", "uw", \
	"%s does not move: %s."
#define VW_M_NO_MOVEMENT_LEFT \
	"no-movement-left", "u", \
	"%s has no movement left."
#define VW_R_MARSH_STAND_EFFECT \
	"roll-marsh-stand-effect", "tupww", \
	"marsh (%s) for %s stand %d%s%s: 1-2 no effect, 3-4 2 for 1, 5+ 4 " \
	"for 1 and disordered"
#define VW_R_FENCE_TEST_STAND \
	"roll-fence-test-stand", "upn", \
	"fence test of %s stand %d, disordered on %d or more"

#endif
