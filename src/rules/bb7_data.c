/*
 * bb7_data.c - every number the bb7 ruleset uses, with where it comes
 * from, and its troop types and orders.
 *
 * Source: Bloodybacks version 7 (2019, amended May 2021), shared/seeds/000.
 * The text is complete; what it leaves to the players (cover, a routing
 * cavalry unit's move) has a default marked as such, and a scenario may
 * override any number with `set NAME VALUE`.  Distances are in hundredths
 * of an inch.  docs/rules-bb7.md says how the text is read.
 */
#include "rules/bb7.h"

/* Troop types.  The text rates each unit for itself; the types give the
 * usual quality and density of the kinds of troops it names (quality:
 * levy 1, trained militia 2, second-line regulars or experienced militia
 * 3, first-line regulars 4, veterans 5; density: close order 7, standard
 * 6, loose files 5, dispersed 3).  A scenario sets each unit's own with
 * `quality N` and `density N`.  The speed and morale columns are unused. */
const struct troop_type bb7_types[] = {
	{ "british-regulars", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "British regulars in loose files", 4, 5 },
	{ "regulars", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "First-line regulars, shoulder to shoulder", 4, 6 },
	{ "second-line", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "Second-line regulars", 3, 6 },
	{ "german-regulars", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "Hessian and other German regulars in close order", 4, 7 },
	{ "french-regulars", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "French regulars in close order", 4, 7 },
	{ "light-infantry", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "Light infantry", 4, 5 },
	{ "experienced-militia", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "Experienced militia", 3, 6 },
	{ "militia", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "Trained militia", 2, 6 },
	{ "levy", KIND_INFANTRY, 0, 0, WEAPON_MUSKET, ABIL_SK, "Levies with little or no training", 1, 6 },
	{ "riflemen", KIND_INFANTRY, 0, 0, WEAPON_RIFLE, ABIL_SK, "Riflemen, dispersed", 3, 3 },
	{ "dragoons", KIND_MOUNTED, 0, 0, WEAPON_CARBINE, 0, "Dragoons and light horse", 3, 6 },
	{ "light-gun", KIND_ARTILLERY, 0, 0, WEAPON_LIGHT_GUN, 0, "Light guns (a model is two pieces)", 3, 6 },
	{ "field-gun", KIND_ARTILLERY, 0, 0, WEAPON_FIELD_GUN, 0, "Field guns", 3, 6 },
	{ "heavy-gun", KIND_ARTILLERY, 0, 0, WEAPON_HEAVY_GUN, 0, "Heavy guns", 3, 6 },
};

#define TEXT "text"
#define DEF  "default"

const struct rule_param bb7_params[] = {
	/* Activation */
	{ "hand", 6, TEXT, "a unit activates with a hand of six d12", PARAM_COUNT, 1, 12 },
	{ "hand.dp-max", 3, TEXT, "one die fewer for each disruption point, at most three", PARAM_COUNT, 0, 6 },
	{ "command.radius", 1800, TEXT, "a commander within 18\" adds his quality to the unit's", PARAM_INCHES, 0, 10000 },
	{ "command.quality", 3, TEXT, "an average commander's quality, for one the scenario does not rate", PARAM_COUNT, 1, 5 },
	{ "actions.one", 1, TEXT, "one success earns one action", PARAM_COUNT, 1, 12 },
	{ "actions.two", 3, TEXT, "three successes earn two actions", PARAM_COUNT, 1, 12 },
	{ "actions.three", 6, TEXT, "six successes earn three actions", PARAM_COUNT, 1, 12 },
	/* Movement */
	{ "move.infantry", 1200, TEXT, "infantry move 12\" less their density, in column 12\"", PARAM_INCHES, 0, 10000 },
	{ "move.cavalry.column", 1800, TEXT, "cavalry in column move 18\"; otherwise two d12", PARAM_INCHES, 0, 10000 },
	{ "move.limbered.road", 1200, TEXT, "limbered guns move 12\" on roads", PARAM_INCHES, 0, 10000 },
	{ "move.limbered", 800, TEXT, "limbered guns move 8\" elsewhere", PARAM_INCHES, 0, 10000 },
	{ "move.unlimbered.light", 600, TEXT, "unlimbered light guns move 6\", once a turn", PARAM_INCHES, 0, 10000 },
	{ "move.unlimbered.field", 400, TEXT, "unlimbered field guns move 4\", once a turn (heavy guns not at all)", PARAM_INCHES, 0, 10000 },
	{ "woods.light", 200, TEXT, "light woods take 2\" from infantry's and guns' move", PARAM_INCHES, 0, 10000 },
	{ "woods.heavy", 300, TEXT, "heavy woods take 3\"", PARAM_INCHES, 0, 10000 },
	{ "move.commander", 2400, DEF, "a commander rides up to 24\" a phase, over any ground (the text moves only units)", PARAM_INCHES, 0, 10000 },
	{ "rout.cavalry", 1200, DEF, "a routing or pushed-back cavalry unit moves 12\": it has no dice to choose from (the text gives none)", PARAM_INCHES, 0, 10000 },
	{ "stop-short", 25, DEF, "a move stops a quarter inch short of enemy bases: bases that close are in contact", PARAM_INCHES, 0, 10000 },
	{ "step", 25, DEF, "moves and ground are judged every quarter inch", PARAM_INCHES, 5, 10000 },
	{ "sight.woods", 600, DEF, "a unit sees and shoots through at most 6\" of woods (the text leaves sight to the players)", PARAM_INCHES, 0, 10000 },
	{ "road.half-width", 75, DEF, "a base is on a road within 0.75\" of its line (the text gives no width)", PARAM_INCHES, 1, 10000 },
	/* Shooting */
	{ "shoot.figures", 6, TEXT, "small arms roll a d12 for every 6 figures (rounded down; at least one, a default)", PARAM_COUNT, 1, 60 },
	{ "shoot.long", 2, TEXT, "2 is added to each die at long range", PARAM_COUNT, 0, 12 },
	{ "arc", 45, DEF, "a unit shoots at what lies within 45 degrees of its front (the text gives no arc)", PARAM_COUNT, 1, 180 },
	{ "range.musket.close", 600, TEXT, "musket close range", PARAM_INCHES, 0, 10000 },
	{ "range.musket.long", 1200, TEXT, "musket long range", PARAM_INCHES, 0, 10000 },
	{ "range.rifle.long", 2400, TEXT, "rifles shoot at long range only, to 24\"", PARAM_INCHES, 0, 10000 },
	{ "range.carbine.close", 600, TEXT, "carbines shoot at close range only, to 6\"", PARAM_INCHES, 0, 10000 },
	{ "gun.light.4", 0, TEXT, "light guns never roll four dice", PARAM_INCHES, 0, 100000 },
	{ "gun.light.3", 1800, TEXT, "light guns: canister, three dice to 18\"", PARAM_INCHES, 0, 100000 },
	{ "gun.light.2", 4800, TEXT, "roundshot, two dice to 48\"", PARAM_INCHES, 0, 100000 },
	{ "gun.light.1", 9600, TEXT, "roundshot, one die to 96\"", PARAM_INCHES, 0, 100000 },
	{ "gun.field.4", 1200, TEXT, "field guns: canister, four dice to 12\"", PARAM_INCHES, 0, 100000 },
	{ "gun.field.3", 2400, TEXT, "canister, three dice to 24\"", PARAM_INCHES, 0, 100000 },
	{ "gun.field.2", 6000, TEXT, "roundshot, two dice to 60\"", PARAM_INCHES, 0, 100000 },
	{ "gun.field.1", 12000, TEXT, "roundshot, one die to 120\"", PARAM_INCHES, 0, 100000 },
	{ "gun.heavy.4", 1500, TEXT, "heavy guns: canister, four dice to 15\"", PARAM_INCHES, 0, 100000 },
	{ "gun.heavy.3", 3000, TEXT, "canister, three dice to 30\"", PARAM_INCHES, 0, 100000 },
	{ "gun.heavy.2", 7200, TEXT, "roundshot, two dice to 72\"", PARAM_INCHES, 0, 100000 },
	{ "gun.heavy.1", 14400, TEXT, "roundshot, one die to 144\"", PARAM_INCHES, 0, 100000 },
	{ "cover.density", 4, TEXT, "a unit in buildings or works counts density 4", PARAM_COUNT, 1, 12 },
	{ "cover.light-woods", 1, DEF, "1 added to each die at a target in light woods (the text leaves cover to the players)", PARAM_COUNT, 0, 12 },
	{ "cover.heavy-woods", 2, DEF, "2 added to each die at a target in heavy woods", PARAM_COUNT, 0, 12 },
	{ "smoke", 1, TEXT, "shooter and target both in smoke: the target counts one density less", PARAM_COUNT, 0, 6 },
	{ "density.min", 3, TEXT, "density is never below 3", PARAM_COUNT, 1, 7 },
	/* Melee */
	{ "evade.density", 4, TEXT, "units of density 3 or 4 evade a charge ...", PARAM_COUNT, 0, 12 },
	{ "evade.charger", 5, TEXT, "... by a unit of density 5 or more, unless in buildings or works", PARAM_COUNT, 0, 12 },
	{ "close.dice", 3, TEXT, "closing: three d12, one more for each DP of the target, each succeeding at twice the quality", PARAM_COUNT, 1, 12 },
	{ "close.needed", 3, TEXT, "three successes to charge home", PARAM_COUNT, 1, 12 },
	{ "close.quality", 2, TEXT, "a closing die succeeds at twice the charger's quality", PARAM_COUNT, 1, 6 },
	{ "melee.figures", 3, TEXT, "a melee d12 for every 3 figures in contact or overlapping", PARAM_COUNT, 1, 60 },
	{ "melee.reach", 100, DEF, "a base is in the melee when within 1\" of an enemy base: in contact, or overlapping at its corner (the text does not measure it)", PARAM_INCHES, 0, 10000 },
	{ "melee.british-density", 5, TEXT, "British at density 5 add one to their melee success number", PARAM_COUNT, 0, 12 },
	/* Hits, rally, resupply, morale */
	{ "dp.max", 3, TEXT, "a unit has at most three disruption points", PARAM_COUNT, 1, 6 },
	{ "kill.divisor", 6, TEXT, "a kill adds a DP when a d6 beats the unit's size divided by 6", PARAM_COUNT, 1, 60 },
	{ "resupply.on", 1, TEXT, "a gun is resupplied on a d12 of 1", PARAM_COUNT, 0, 12 },
	{ "morale.dice", 3, TEXT, "a morale check is three d12", PARAM_COUNT, 1, 12 },
	{ "morale.cover", 5, TEXT, "in cover a die succeeds at 5 plus the unit's quality", PARAM_COUNT, 0, 12 },
	{ "morale.open", 2, TEXT, "in the open a die succeeds at twice the unit's quality", PARAM_COUNT, 1, 6 },
};
const int bb7_nparams = (int)(sizeof(bb7_params) / sizeof(bb7_params[0]));

const struct verb_def bb7_verbs[] = {
	{ "MOVE TO", V_MOVE_TO, ARG_POINT, 1, 1, "MOVE TO X,Y: (an action) move towards the point" },
	{ "ADVANCE", V_ADVANCE, ARG_DIST, 1, 0, "ADVANCE N: (an action) move N inches straight ahead" },
	{ "WHEEL", V_WHEEL, ARG_TURN, 1, 0, "WHEEL LEFT|RIGHT N: (an action) turn N degrees about the centre" },
	{ "FACE", V_FACE, ARG_BEARING, 1, 0, "FACE N: (an action) face the bearing N (0 north, 90 east)" },
	{ "FORM", V_FORM, ARG_FORMATION, 1, 0, "FORM LINE|COLUMN|DISPERSED|LIMBERED|UNLIMBERED: (an action) change formation" },
	{ "DENSITY", V_DENSITY, ARG_COUNT, 1, 0, "DENSITY N: (an action) spread the bases out to density N, or close them up again (3 to the unit's formed density)" },
	{ "SHOOT AT", V_FIRE_AT, ARG_ENEMY, 1, 0, "SHOOT AT UNIT: (an action) shoot; a second SHOOT rolls the misses again" },
	{ "CHARGE", V_CHARGE, ARG_ENEMY, 1, 0, "CHARGE UNIT: (an action) move at the enemy and, if the unit reaches it and closes, melee" },
	{ "NO PURSUIT", V_NO_ADVANCE, ARG_NONE, 1, 0, "NO PURSUIT: (costs nothing) if an enemy it charges evades, stop where the enemy stood" },
	{ "RALLY", V_RALLY, ARG_NONE, 1, 0, "RALLY: (an action) remove one disruption point" },
	{ "RESUPPLY", V_RESUPPLY, ARG_NONE, 1, 0, "RESUPPLY: (an action, guns) a d12 for a gun that is low (each low gun, in a battery whose other guns shoot): on 1 its ammunition is made up" },
	{ "DICE", V_DICE, ARG_COUNT, 1, 0, "DICE N: (costs nothing, guns) each gun rolls at most N dice this phase, to spare its ammunition" },
	{ "HOLD", V_HOLD, ARG_NONE, 1, 1, "HOLD: do not activate this phase" },
};
const int bb7_nverbs = (int)(sizeof(bb7_verbs) / sizeof(bb7_verbs[0]));

/* The orders of vnb-wing and of other games, as bb7 says them. */
static const char *const bb7_aliases[][2] = {
	{ "FIRE", "SHOOT AT" },
	{ "VOLLEY", "SHOOT AT" },
	{ "REFORM", "RALLY" },
	{ "RETIRE", "MOVE TO (away from the enemy)" },
	{ "HURRY", "MOVE TO (a unit in COLUMN moves farther)" },
	{ "JOIN", "MOVE TO (commanders ride to a point)" },
	{ "ATTACK", "CHARGE" },
	{ NULL, NULL },
};

const struct ruleset ruleset_bb7 = {
	.name = "bb7",
	.title = "Bloodybacks version 7 (AWI, 1 figure = 10 men)",
	.types = bb7_types,
	.ntypes = (int)(sizeof(bb7_types) / sizeof(bb7_types[0])),
	.params = bb7_params,
	.nparams = (int)(sizeof(bb7_params) / sizeof(bb7_params[0])),
	.verbs = bb7_verbs,
	.nverbs = (int)(sizeof(bb7_verbs) / sizeof(bb7_verbs[0])),
	.turn_minutes = 5,
	.prepare = bb7_prepare,
	.adjudicate = bb7_adjudicate,
	.form_check = bb7_form_check,
	.step_check = bb7_step_check,
	.verb_aliases = bb7_aliases,
	.unit_fields = bb7_unit_fields,
	.situation = bb7_situation,
	.crib = bb7_crib,
	.preview = bb7_preview,
	.preview_battle = bb7_preview_battle,
	.sees = bb7_sees,
	.strength_word = "figures",
	.stand_word = "base",
	.form_phrase = bb7_form_phrase,
	.yards_per_foot = 100,
	.column_word = "column",
	.limbered_word = "limbered",
	.scale_note = "A figure is ten men, a gun model two pieces; 12 inches "
	    "are 100 yards.",
	.road_spacer = 0,
	.form_words = "LINE, COLUMN, DISPERSED, LIMBERED or UNLIMBERED",
	.form_word = bb7_form_word,
};
