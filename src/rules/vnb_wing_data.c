/*
 * vnb_wing_data.c - every number the vnb-wing ruleset uses, with where it
 * comes from.
 *
 * Source: "At War in the Americas", the Volley & Bayonet wing-scale
 * variant for the AWI (shared/seeds/003).  Its attack dice and hit number
 * tables lost their numbers in transcription; the values marked "default"
 * are ours, chosen as shared/seeds/MISSING-NUMBERS.md explains, and a
 * scenario may override any of them with `set NAME VALUE`.  Distances are
 * in hundredths of an inch.
 */
#include "rules/vnb_wing.h"

#define FI 16
#define SI 12
#define LC 24

const struct troop_type vnb_types[] = {
	/* British and allies */
	{ "grenadiers", KIND_INFANTRY, FI, 6, WEAPON_MUSKET, ABIL_SH, "British grenadiers", 0, 0 },
	{ "light-company", KIND_DETACHMENT, FI, 6, WEAPON_MUSKET, ABIL_SK, "British light company", 0, 0 },
	{ "guards", KIND_INFANTRY, FI, 6, WEAPON_MUSKET, ABIL_SH, "Guards", 0, 0 },
	{ "british-line", KIND_INFANTRY, FI, 5, WEAPON_MUSKET, 0, "British line", 0, 0 },
	{ "highlanders", KIND_INFANTRY, FI, 5, WEAPON_MUSKET, ABIL_SH, "Highlanders", 0, 0 },
	{ "light-dragoons", KIND_MOUNTED, LC, 6, WEAPON_NONE, 0, "British light dragoons", 0, 0 },
	{ "loyalist-line", KIND_INFANTRY, SI, 5, WEAPON_MUSKET, 0, "Loyalist line", 0, 0 },
	{ "loyalist-trained-militia", KIND_INFANTRY, SI, 4, WEAPON_MUSKET, ABIL_NE | ABIL_PT, "Loyalist trained militia", 0, 0 },
	{ "loyalist-raw-militia", KIND_INFANTRY, SI, 4, WEAPON_MUSKET, ABIL_MIL | ABIL_PT, "Loyalist raw militia", 0, 0 },
	{ "legion-infantry", KIND_DETACHMENT, FI, 5, WEAPON_MUSKET, ABIL_SK, "Loyalist legion infantry", 0, 0 },
	{ "legion-cavalry", KIND_MOUNTED, LC, 5, WEAPON_NONE, 0, "Loyalist legion cavalry", 0, 0 },
	/* Not in the text's tables (its MI label only): morale 5 as legion
	 * infantry, a default. */
	{ "mounted-infantry", KIND_MOUNTED, LC, 5, WEAPON_MUSKET, ABIL_MI, "Mounted infantry (dismounts as detachments; morale a default)", 0, 0 },
	{ "german-grenadiers", KIND_INFANTRY, SI, 5, WEAPON_MUSKET, ABIL_SH, "German grenadiers", 0, 0 },
	{ "fusiliers", KIND_INFANTRY, SI, 6, WEAPON_MUSKET, 0, "German fusiliers", 0, 0 },
	{ "musketeers", KIND_INFANTRY, SI, 5, WEAPON_MUSKET, 0, "German musketeers", 0, 0 },
	{ "jaegers", KIND_DETACHMENT, FI, 6, WEAPON_RIFLE, ABIL_SK, "German jaegers", 0, 0 },
	/* Americans and allies */
	{ "light-infantry", KIND_DETACHMENT, FI, 6, WEAPON_MUSKET, ABIL_SH | ABIL_SK, "American light infantry (late war)", 0, 0 },
	{ "continentals-pre-1778", KIND_INFANTRY, SI, 5, WEAPON_MUSKET, ABIL_PT, "Continentals (pre-1778)", 0, 0 },
	{ "continentals-post-1778", KIND_INFANTRY, FI, 5, WEAPON_MUSKET, 0, "Continentals (post-1778)", 0, 0 },
	{ "state-infantry", KIND_INFANTRY, FI, 6, WEAPON_MUSKET, 0, "State infantry", 0, 0 },
	{ "experienced-militia", KIND_INFANTRY, SI, 5, WEAPON_MUSKET, ABIL_PT, "Experienced militia", 0, 0 },
	{ "trained-militia", KIND_INFANTRY, SI, 4, WEAPON_MUSKET, ABIL_PT, "Trained militia", 0, 0 },
	{ "raw-militia", KIND_INFANTRY, SI, 4, WEAPON_MUSKET, ABIL_MIL | ABIL_PT, "Raw militia", 0, 0 },
	{ "american-legion-infantry", KIND_DETACHMENT, FI, 5, WEAPON_MUSKET, ABIL_SK, "American legion infantry", 0, 0 },
	{ "continental-dragoons", KIND_MOUNTED, LC, 6, WEAPON_NONE, 0, "Dragoon or legion cavalry", 0, 0 },
	{ "state-cavalry", KIND_MOUNTED, LC, 4, WEAPON_NONE, 0, "State cavalry", 0, 0 },
	{ "french-grenadiers", KIND_INFANTRY, SI, 6, WEAPON_MUSKET, ABIL_SH, "French grenadiers", 0, 0 },
	{ "chasseurs", KIND_INFANTRY, FI, 5, WEAPON_MUSKET, 0, "French chasseurs", 0, 0 },
	{ "french-line", KIND_INFANTRY, SI, 5, WEAPON_MUSKET, 0, "French line infantry", 0, 0 },
	{ "french-light-cavalry", KIND_MOUNTED, LC, 6, WEAPON_NONE, 0, "French light cavalry", 0, 0 },
	{ "lancers", KIND_MOUNTED, LC, 6, WEAPON_NONE, ABIL_MC, "French lancers", 0, 0 },
	/* Native Americans: bands of detachments of 1 SP; their morale is on
	 * the stand (6 here, a default: shock at 6 or 7), their weapon row the
	 * text's own. */
	{ "native-americans", KIND_DETACHMENT, FI, 6, WEAPON_NATIVE, ABIL_SK | ABIL_NA, "Native American band (morale a default; set it per band)", 0, 0 },
	/* Artillery: the American table's morale 5 for both sides. */
	{ "light-artillery", KIND_ARTILLERY, 12, 5, WEAPON_LIGHT_GUN, 0, "Light artillery (3-4 lb)", 0, 0 },
	{ "field-artillery", KIND_ARTILLERY, 8, 5, WEAPON_FIELD_GUN, 0, "Field artillery (6-9 lb)", 0, 0 },
	{ "howitzer", KIND_ARTILLERY, 8, 5, WEAPON_HOWITZER, 0, "Field howitzers (5.5-6 in)", 0, 0 },
	{ "heavy-artillery", KIND_ARTILLERY, 4, 5, WEAPON_HEAVY_GUN, 0, "Heavy artillery (12 lb)", 0, 0 },
};
const int vnb_ntypes = (int)(sizeof(vnb_types) / sizeof(vnb_types[0]));

#define TEXT "text"
#define DEF  "default"
#define LOST "the text's table lost its numbers; the project's proposed default (docs/rules-vnb-wing.md)"

const struct rule_param vnb_params[] = {
	{ "command.radius", 600, TEXT, "in command within 6\" of a superior commander", PARAM_INCHES, 0, 10000 },
	{ "command.unit-radius", 300, TEXT, "in command within 3\" of its own unit commander", PARAM_INCHES, 0, 10000 },
	{ "contact", 10, DEF, "stands within 0.10\" count as touching (measuring tolerance)", PARAM_INCHES, 0, 10000 },
	{ "stop-short", 25, TEXT, "a victorious stand stops a quarter inch from the enemy; used for every non-charge move", PARAM_INCHES, 0, 10000 },
	{ "terrain.step", 25, DEF, "terrain is judged every quarter inch along a move", PARAM_INCHES, 5, 10000 },
	{ "arc", 45, DEF, "front arc half-width for fire; the text gives no arc, 45 matches the oblique move", PARAM_COUNT, 1, 180 },
	{ "flank.arc", 45, DEF, "a stand is attacked in flank or rear from more than 45 degrees off its front (the text gives no angle; the same as the fire arc)", PARAM_COUNT, 1, 180 },
	{ "road.half-width", 75, DEF, "a stand is on a road when its centre is within 0.75\" of the road's line (the text gives no width; a road drawn 1.5\" wide)", PARAM_INCHES, 1, 10000 },
	{ "los.end", 100, DEF, "line of sight ignores the first and last inch of the line, the ground the two stands stand on (the text: on the edge of cover sees out)", PARAM_INCHES, 0, 10000 },
	{ "los.forest", 400, TEXT, "stands inside the same forest or thicket see each other up to 4\" away", PARAM_INCHES, 0, 10000 },
	{ "los.wood", 1200, TEXT, "stands inside the same wood see each other up to 12\" away", PARAM_INCHES, 0, 10000 },
	{ "los.far", 800, TEXT, "a stand two contours above an obstacle sees past it when it is 8\" or more from the lower stand", PARAM_INCHES, 0, 10000 },
	{ "los.cover-height", 1, DEF, "woods, forest, thicket, towns and villages stand one contour above their ground for sight over them (the text treats woods as obstacles of a height it does not give)", PARAM_COUNT, 0, 10 },
	{ "los.step", 50, DEF, "line of sight is judged every half inch along the line (measuring grain)", PARAM_INCHES, 5, 10000 },
	{ "rout.overshoot", 600, DEF, "a routing or falling-back stand that would end on another stand goes on, up to 6\" more, until it stands clear (the text: it may pass through, not stop on, friends)", PARAM_INCHES, 0, 10000 },
	{ "abandoned.rate", 1200, DEF, "the crews of guns abandoned in a rout move as infantry: 12\", slow infantry's rate (the text gives no rate)", PARAM_INCHES, 0, 10000 },
	{ "exhaust.morale-min", 4, DEF, "morale below 4 uses the morale 4 exhaustion level (the text's table starts at 4)", PARAM_COUNT, 4, 7 },
	{ "exhaust.morale-max", 7, DEF, "morale above 7 uses the morale 7 exhaustion level (the text's table ends at 7)", PARAM_COUNT, 4, 7 },
	{ "danger.width", 200, TEXT, "artillery danger zone: 2\" either side of the barrel line", PARAM_INCHES, 0, 10000 },
	{ "dice.infantry.fire", 2, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.infantry.melee", 2, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.infantry.fire-stationary", 3, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.infantry.melee-stationary", 3, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.pt.fire", 1, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.pt.melee", 2, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.pt.fire-stationary", 2, TEXT, "the surviving \"2 2\" of the poorly trained row, read as the stationary columns", PARAM_COUNT, 0, 12 },
	{ "dice.pt.melee-stationary", 2, TEXT, "the surviving \"2 2\" of the poorly trained row, read as the stationary columns", PARAM_COUNT, 0, 12 },
	{ "dice.detachment.fire", 1, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.detachment.melee", 1, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.artillery.fire", 2, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.artillery.melee", 1, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.artillery.fire-stationary", 3, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.artillery.melee-stationary", 1, DEF, LOST, PARAM_COUNT, 0, 12 },
	{ "dice.mounted.melee", 2, TEXT, "mounted infantry roll 2 melee dice; light dragoons taken the same", PARAM_COUNT, 0, 12 },
	/* The text's hit table: a row a weapon, a melee/short and a long
	 * column. */
	{ "hit.musket.short", 5, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.musket.long", 6, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.rifle.short", 5, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.rifle.long", 6, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.native.short", 5, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.native.long", 6, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.light-gun.short", 5, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.light-gun.long", 6, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.field-gun.short", 5, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.field-gun.long", 6, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.howitzer.short", 5, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.howitzer.long", 6, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.heavy-gun.short", 5, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.heavy-gun.long", 6, DEF, LOST, PARAM_COUNT, 1, 7 },
	{ "hit.melee", 5, DEF, "the hit number in melee of stands with no weapon row (mounted); the text's table has rows only for weapons", PARAM_COUNT, 1, 7 },
	{ "save", 5, DEF, "saves succeed on 5-6; no number survives in the text", PARAM_COUNT, 1, 7 },
	{ "range.musket.short", 200, DEF, "about 50 yards at 25 yards an inch", PARAM_INCHES, 0, 10000 },
	{ "range.musket.long", 400, DEF, "about 100 yards, effective musket range", PARAM_INCHES, 0, 10000 },
	{ "range.rifle.short", 200, DEF, "as the musket", PARAM_INCHES, 0, 10000 },
	{ "range.native.short", 200, DEF, "as the musket (MISSING-NUMBERS.md)", PARAM_INCHES, 0, 10000 },
	{ "range.native.long", 400, DEF, "as the musket (MISSING-NUMBERS.md)", PARAM_INCHES, 0, 10000 },
	{ "range.rifle.long", 800, DEF, "about 200 yards", PARAM_INCHES, 0, 10000 },
	{ "range.light-gun.short", 600, DEF, "canister range of 3-4 lb guns", PARAM_INCHES, 0, 10000 },
	{ "range.light-gun.long", 1600, DEF, "about 400 yards", PARAM_INCHES, 0, 10000 },
	{ "range.field-gun.short", 800, DEF, "canister range of 6-9 lb guns", PARAM_INCHES, 0, 10000 },
	{ "range.field-gun.long", 2400, DEF, "about 600 yards", PARAM_INCHES, 0, 10000 },
	{ "range.howitzer.short", 600, DEF, "canister range", PARAM_INCHES, 0, 10000 },
	{ "range.howitzer.long", 2000, DEF, "about 500 yards", PARAM_INCHES, 0, 10000 },
	{ "range.heavy-gun.short", 800, DEF, "canister range of 12 lb guns", PARAM_INCHES, 0, 10000 },
	{ "range.heavy-gun.long", 3200, DEF, "about 800 yards", PARAM_INCHES, 0, 10000 },
	{ "exhaust.morale4", 40, TEXT, "exhaustion: 40% of SP for morale 4", PARAM_PERCENT, 1, 100 },
	{ "exhaust.morale5", 50, TEXT, "exhaustion: 50% of SP for morale 5", PARAM_PERCENT, 1, 100 },
	{ "exhaust.morale6", 60, TEXT, "exhaustion: 60% of SP for morale 6", PARAM_PERCENT, 1, 100 },
	{ "exhaust.morale7", 70, DEF, "the table stops at 6; 70% continues it for morale 7", PARAM_PERCENT, 1, 100 },
	{ "rout.sp-loss", 1, TEXT, "a routing stand loses 1 SP", PARAM_COUNT, 0, 20 },
	{ "dismounted.rate", 1600, DEF, "mounted infantry on foot move as fast infantry detachments, 16\" (the text: they serve on foot as detachments; it gives no rate)", PARAM_INCHES, 0, 10000 },
	{ "native.cavalry-move", 1200, TEXT, "mounted troops breaking through disordered Native Americans may move up to 12\", then are disordered", PARAM_INCHES, 0, 10000 },
	{ "retire.per-hit", 600, TEXT, "mounted stands that elect to retire move 6\" a hit from fire, for a save", PARAM_INCHES, 0, 10000 },
	{ "town.capacity", 2, TEXT, "a town block (farmstead) holds up to two infantry stands", PARAM_COUNT, 0, 20 },
	{ "village.capacity", 1, TEXT, "a village block holds a single detachment", PARAM_COUNT, 0, 20 },
	{ "detachment.sp", 1, DEF, "an infantry stand able to skirmish breaks into detachments of 1 SP, one for each SP it has (the text gives no number; its Native bands and light battalions are detachments of 1 SP each)", PARAM_COUNT, 1, 20 },
	{ "unsupported.radius", 300, DEF, "artillery is unsupported with no friendly foot stand within 3\"", PARAM_INCHES, 0, 10000 },
	/* Fog of War cards (a scenario's `cards` line). */
	{ "cards.hand", 0, DEF, "cards a side holds; 0: by its players, as the three rows below (the text's table), the same for every side (the smallest)", PARAM_COUNT, 0, 40 },
	{ "cards.hand.one", 4, TEXT, "a side with one player holds 4 cards", PARAM_COUNT, 0, 40 },
	{ "cards.hand.two", 3, TEXT, "a side with two players holds 3 cards each", PARAM_COUNT, 0, 40 },
	{ "cards.hand.more", 2, TEXT, "a side with three or more players holds 2 cards each", PARAM_COUNT, 0, 40 },
	{ "cards.sharpshooters", 1200, TEXT, "Sharpshooters: a commander within 12\" of a sharpshooter unit", PARAM_INCHES, 0, 10000 },
	{ "cards.regulars", 1800, TEXT, "Regulars!!!: a rebel unit within 18\" of British infantry", PARAM_INCHES, 0, 10000 },
	{ "cards.stream", 1200, TEXT, "Local Knowledge!: a 12\" section of stream (6\" either side of the point named)", PARAM_INCHES, 0, 10000 },
	{ "cards.officers.hit", 4, TEXT, "Officer Casualties: the unit commander falls on 4-6", PARAM_COUNT, 1, 7 },
	{ "cards.pick-off.hit", 2, TEXT, "Pick Off the Officers: the unit commander falls on 2-6", PARAM_COUNT, 1, 7 },
	{ "cards.sharpshooters.unhorse", 3, TEXT, "Sharpshooters: 3-4 kills the commander's horse (no command for a turn)", PARAM_COUNT, 1, 7 },
	{ "cards.sharpshooters.hit", 5, TEXT, "Sharpshooters: 5-6 hits him (out of play for half a d6 turns, rounded up)", PARAM_COUNT, 1, 7 },
};
const int vnb_nparams = (int)(sizeof(vnb_params) / sizeof(vnb_params[0]));

/* The text's basic deck for the period.  Its composition rules: 2 to 6
 * of each neutral card, a third to a half of the deck; 1 or 2 of each
 * crown and rebel card, as many crown cards as rebel ones.  The counts
 * are defaults within them: 2 of each neutral card (16 of 40, 40%); one
 * of each of the 12 crown cards; the 9 rebel cards make 12 with two of
 * the three any American unit may use (Liberty or Death!! and !!!, Local
 * Knowledge).  A scenario changes them with `card "Name" N`.  The names
 * are the text's, made unique where it repeats one (Cold Steel!!!). */
const struct card_def vnb_cards[VC_COUNT] = {
	[VC_OFFICER_CASUALTIES] = { "Officer Casualties", CARD_NEUTRAL, 2, CT_ENEMY_UNIT, "an enemy unit within the long range of one of your units with small arms: on 4-6 its unit commander is out for a turn and it tests morale one worse" },
	[VC_GOOD_GUNNERY] = { "Good Gunnery!!", CARD_NEUTRAL, 2, CT_OWN_UNIT, "one of your artillery units rerolls the dice that missed, in its next fire before your next phase" },
	[VC_BAD_GUNNERY] = { "Bad Gunnery!!", CARD_NEUTRAL, 2, CT_ENEMY_UNIT, "hits by an enemy artillery unit get a second save until your next phase" },
	[VC_DEVASTATING_VOLLEY] = { "Devastating Volley", CARD_NEUTRAL, 2, CT_OWN_UNIT, "one of your infantry units rerolls the dice that missed, in its next fire before your next phase" },
	[VC_DISAPPOINTING_VOLLEY] = { "Disappointing Volley", CARD_NEUTRAL, 2, CT_ENEMY_UNIT, "hits by an enemy infantry unit's fire get a second save until your next phase" },
	[VC_SHARPSHOOTERS] = { "Sharpshooters", CARD_NEUTRAL, 2, CT_ENEMY_COMMANDER, "an enemy commander within 12\" of your sharpshooters: 3-4 he cannot command for a turn, 5-6 he is out for half a d6 turns" },
	[VC_BAD_GOING] = { "Bad Going", CARD_NEUTRAL, 2, CT_ENEMY_UNIT, "an enemy unit moves a d6 inches less (mounted 2d6) until your next phase" },
	[VC_GOOD_GOING] = { "Good Going", CARD_NEUTRAL, 2, CT_OWN_UNIT, "one of your units moves a d6 inches more (mounted 2d6) this phase" },
	[VC_COLD_STEEL_CROWN] = { "Cold Steel!!! (Crown)", CARD_CROWN, 1, CT_ENEMY_UNIT, "a rebel unit meleed by any crown unit until your next phase tests morale one worse" },
	[VC_COLD_STEEL_BRITISH] = { "Cold Steel!!! (British)", CARD_CROWN, 1, CT_ENEMY_UNIT, "a rebel unit meleed by a British unit until your next phase tests morale one worse" },
	[VC_GOD_SAVE_REROLL] = { "God Save the King!!!", CARD_CROWN, 1, CT_OWN_UNIT, "one of your units rerolls its failed morale tests until your next phase" },
	[VC_GOD_SAVE_RALLY] = { "God Save the King!!", CARD_CROWN, 1, CT_OWN_UNIT, "one of your British units rallies from rout at once, no commander needed" },
	[VC_GOD_SAVE_STEADY] = { "God Save the King!", CARD_CROWN, 1, CT_OWN_UNIT, "one of your British units tests morale one better until your next phase" },
	[VC_GOTT_MIT_UNS] = { "Gott mit uns!", CARD_CROWN, 1, CT_OWN_UNIT, "one of your German units tests morale one better until your next phase" },
	[VC_PANIC] = { "Panic!!!", CARD_CROWN, 1, CT_ENEMY_UNIT, "a rebel militia unit that sees another rebel unit rout before your next phase tests morale one worse" },
	[VC_REGULARS_SHAKEN] = { "Regulars!!!", CARD_CROWN, 1, CT_ENEMY_UNIT, "a rebel unit within 18\" of British infantry that sees it tests morale one worse at once" },
	[VC_REGULARS_CROWN] = { "Regulars!!", CARD_CROWN, 1, CT_OWN_UNIT, "one of your units recovers from disorder at once, at no cost" },
	[VC_REGULARS_BRITISH] = { "Regulars!", CARD_CROWN, 1, CT_OWN_UNIT, "one of your British units recovers from disorder at once, at no cost" },
	[VC_LOYALIST_KNOWLEDGE] = { "Loyalist Knowledge", CARD_CROWN, 1, CT_OWN_UNIT, "a Loyalist foot unit crosses rough ground at no extra cost this phase" },
	[VC_HIGHLANDER_FURY] = { "Highlander Fury", CARD_CROWN, 1, CT_ENEMY_UNIT, "a rebel unit meleed by Highlanders until your next phase tests morale one worse" },
	[VC_PICK_OFF] = { "Pick Off the Officers, Boys", CARD_REBEL, 1, CT_ENEMY_UNIT, "an enemy unit within range of your riflemen: on 2-6 its unit commander is out for a turn and it tests morale one worse" },
	[VC_OLD_LINE_STATE] = { "The Old Line State!!!", CARD_REBEL, 1, CT_ENEMY_UNIT, "a crown unit meleed by a Maryland or Delaware unit until your next phase tests morale one worse" },
	[VC_LIBERTY_RALLY] = { "Liberty or Death!", CARD_REBEL, 1, CT_OWN_UNIT, "one of your American units rallies from rout at once, no commander needed" },
	[VC_LIBERTY_REROLL] = { "Liberty or Death!!", CARD_REBEL, 2, CT_OWN_UNIT, "one of your American units rerolls its failed morale tests until your next phase" },
	[VC_LIBERTY_STEADY] = { "Liberty or Death!!!", CARD_REBEL, 2, CT_OWN_UNIT, "one of your American units tests morale one better until your next phase" },
	[VC_LOCAL_STREAM] = { "Local Knowledge!", CARD_REBEL, 1, CT_POINT, "12\" of stream about the point named count as marshy banked for crown units until your next phase" },
	[VC_LOCAL_KNOWLEDGE] = { "Local Knowledge", CARD_REBEL, 2, CT_OWN_UNIT, "an American foot unit crosses rough ground at no extra cost this phase" },
	[VC_COLD_STEEL_LIGHT] = { "Cold Steel!!! (Light Infantry)", CARD_REBEL, 1, CT_ENEMY_UNIT, "a crown unit meleed by American light infantry until your next phase tests morale one worse" },
	[VC_TARLETONS_QUARTER] = { "Tarleton's Quarter", CARD_REBEL, 1, CT_ENEMY_UNIT, "a Loyalist unit meleed by a rebel unit until your next phase tests morale one worse" },
};

const struct verb_def vnb_verbs[] = {
	{ "ADVANCE", V_ADVANCE, ARG_DIST, 1, 0, "ADVANCE N: move N inches straight ahead" },
	{ "MOVE TO", V_MOVE_TO, ARG_POINT, 1, 1, "MOVE TO X,Y: move the centre to the point" },
	{ "WHEEL", V_WHEEL, ARG_TURN, 1, 0, "WHEEL LEFT|RIGHT N: turn N degrees about the centre" },
	{ "FACE", V_FACE, ARG_BEARING, 1, 0, "FACE N: face the bearing N (0 north, 90 east)" },
	{ "FORM", V_FORM, ARG_FORMATION, 1, 0, "FORM LINE|SKIRMISH|DETACHMENTS|ROAD|MOUNTED: change formation" },
	{ "FIRE AT", V_FIRE_AT, ARG_ENEMY, 1, 0, "FIRE AT UNIT: choose the target of the unit's fire" },
	{ "CHARGE", V_CHARGE, ARG_ENEMY, 1, 0, "CHARGE UNIT: move straight at the enemy unit and melee it" },
	{ "HOLD", V_HOLD, ARG_NONE, 1, 1, "HOLD: stay and go stationary where allowed" },
	{ "REFORM", V_REFORM, ARG_NONE, 1, 0, "REFORM: recover from disorder (half the move)" },
	{ "RETIRE", V_RETIRE, ARG_NONE, 1, 0, "RETIRE: (mounted) until your next phase, when hit by fire, retire 6\" a hit and roll a save for each" },
	{ "NO ADVANCE", V_NO_ADVANCE, ARG_NONE, 1, 0, "NO ADVANCE: if the unit wins a melee this phase, it keeps its ground instead of advancing into the ground the enemy left" },
	{ "HURRY", V_HURRY, ARG_NONE, 1, 0, "HURRY: cross bridges this phase at the cost of disorder instead of half the move" },
	{ "JOIN", V_JOIN, ARG_FRIEND, 0, 1, "JOIN UNIT: (commanders) ride to the rear of a friendly unit and move with it until ordered elsewhere" },
};
const int vnb_nverbs = (int)(sizeof(vnb_verbs) / sizeof(vnb_verbs[0]));

/* The orders of bb7 and of other games, as vnb-wing says them. */
static const char *const vnb_aliases[][2] = {
	{ "SHOOT", "FIRE AT" },
	{ "VOLLEY", "FIRE AT" },
	{ "RALLY", "REFORM" },
	{ "ATTACK", "CHARGE" },
	{ NULL, NULL },
};

const struct ruleset ruleset_vnb_wing = {
	.name = "vnb-wing",
	.title = "At War in the Americas: Volley & Bayonet wing scale (AWI)",
	.types = vnb_types,
	.ntypes = (int)(sizeof(vnb_types) / sizeof(vnb_types[0])),
	.params = vnb_params,
	.nparams = (int)(sizeof(vnb_params) / sizeof(vnb_params[0])),
	.verbs = vnb_verbs,
	.nverbs = (int)(sizeof(vnb_verbs) / sizeof(vnb_verbs[0])),
	.turn_minutes = 15,
	.cards = vnb_cards,
	.ncards = VC_COUNT,
	.prepare = vnb_prepare,
	.adjudicate = vnb_adjudicate,
	.verb_aliases = vnb_aliases,
	.preview = vnb_preview,
	.crib = vnb_crib,
	.sees = vnb_sees,
	.situation = vnb_situation,
	.in_command = vnb_in_command,
	.preview_battle = vnb_preview_battle,
	.form_check = vnb_form_check,
	.unit_fields = vnb_unit_fields,
	.yards_per_foot = 300,
	.column_word = "road march",
	.stand_markers = 1,
	.scale_note = "SP are strength points (50 men or one gun each).",
	.road_spacer = 1,
	.form_words = "LINE, SKIRMISH, DETACHMENTS, ROAD, MOUNTED or DISMOUNTED",
};
