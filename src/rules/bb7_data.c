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
#include "core/deploy.h"
#include "rules/bb7.h"
#include "rules/bb7_msgs.h"

#include <stdio.h>

/* Troop types.  The text rates each unit for itself; the types give the
 * usual quality and density of the kinds of troops it names (quality:
 * levy 1, trained militia 2, second-line regulars or experienced militia
 * 3, first-line regulars 4, veterans 5; density: close order 7, standard
 * 6, loose files 5, dispersed 3).  A scenario sets each unit's own with
 * `quality N` and `density N`.  The speed and morale columns are unused. */
const struct troop_type bb7_types[] = {
	{ .id = "british-regulars", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "British regulars in loose files", .nation = NATION_BRITISH, .numbers = { [B7_N_QUALITY] = 4, [B7_N_DENSITY] = 5 } },
	{ .id = "regulars", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "First-line regulars, shoulder to shoulder", .numbers = { [B7_N_QUALITY] = 4, [B7_N_DENSITY] = 6 } },
	{ .id = "second-line", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "Second-line regulars", .numbers = { [B7_N_QUALITY] = 3, [B7_N_DENSITY] = 6 } },
	{ .id = "german-regulars", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "Hessian and other German regulars in close order", .nation = NATION_HESSIAN, .numbers = { [B7_N_QUALITY] = 4, [B7_N_DENSITY] = 7 } },
	{ .id = "french-regulars", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "French regulars in close order", .nation = NATION_FRENCH, .numbers = { [B7_N_QUALITY] = 4, [B7_N_DENSITY] = 7 } },
	{ .id = "light-infantry", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "Light infantry", .numbers = { [B7_N_QUALITY] = 4, [B7_N_DENSITY] = 5 } },
	{ .id = "experienced-militia", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "Experienced militia", .numbers = { [B7_N_QUALITY] = 3, [B7_N_DENSITY] = 6 } },
	{ .id = "militia", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "Trained militia", .numbers = { [B7_N_QUALITY] = 2, [B7_N_DENSITY] = 6 } },
	{ .id = "levy", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "Levies with little or no training", .numbers = { [B7_N_QUALITY] = 1, [B7_N_DENSITY] = 6 } },
	{ .id = "riflemen", .kind = KIND_INFANTRY, .speed = 0, .morale = 0, .weapon = WEAPON_RIFLE, .abil = ABIL_SK, .label = "Riflemen, dispersed", .numbers = { [B7_N_QUALITY] = 3, [B7_N_DENSITY] = 3 } },
	{ .id = "dragoons", .kind = KIND_MOUNTED, .speed = 0, .morale = 0, .weapon = WEAPON_CARBINE, .abil = 0, .label = "Dragoons and light horse", .numbers = { [B7_N_QUALITY] = 3, [B7_N_DENSITY] = 6 } },
	{ .id = "light-gun", .kind = KIND_ARTILLERY, .speed = 0, .morale = 0, .weapon = WEAPON_LIGHT_GUN, .abil = 0, .label = "Light guns (a model is two pieces)", .numbers = { [B7_N_QUALITY] = 3, [B7_N_DENSITY] = 6 } },
	{ .id = "field-gun", .kind = KIND_ARTILLERY, .speed = 0, .morale = 0, .weapon = WEAPON_FIELD_GUN, .abil = 0, .label = "Field guns", .numbers = { [B7_N_QUALITY] = 3, [B7_N_DENSITY] = 6 } },
	{ .id = "heavy-gun", .kind = KIND_ARTILLERY, .speed = 0, .morale = 0, .weapon = WEAPON_HEAVY_GUN, .abil = 0, .label = "Heavy guns", .numbers = { [B7_N_QUALITY] = 3, [B7_N_DENSITY] = 6 } },
};

#define TEXT "text"
#define DEF  "default"

const struct rule_param bb7_params[] = {
	/* Activation */
	{ .name = "hand", .value = 6, .source = TEXT, .why = "a unit activates with a hand of six d12", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	{ .name = "hand.dp-max", .value = 3, .source = TEXT, .why = "one die fewer for each disruption point, at most three", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "command.radius", .value = 1800, .source = TEXT, .why = "a commander within 18\" adds his quality to the unit's", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "command.quality", .value = 3, .source = TEXT, .why = "an average commander's quality, for one the scenario does not rate", .unit = PARAM_COUNT, .min = 1, .max = 5 },
	{ .name = "actions.one", .value = 1, .source = TEXT, .why = "one success earns one action", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	{ .name = "actions.two", .value = 3, .source = TEXT, .why = "three successes earn two actions", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	{ .name = "actions.three", .value = 6, .source = TEXT, .why = "six successes earn three actions", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	/* Movement */
	{ .name = "move.infantry", .value = 1200, .source = TEXT, .why = "infantry move 12\" less their density, in column 12\"", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "move.cavalry.column", .value = 1800, .source = TEXT, .why = "cavalry in column move 18\"; otherwise two d12", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "move.limbered.road", .value = 1200, .source = TEXT, .why = "limbered guns move 12\" on roads", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "move.limbered", .value = 800, .source = TEXT, .why = "limbered guns move 8\" elsewhere", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "move.unlimbered.light", .value = 600, .source = TEXT, .why = "unlimbered light guns move 6\", once a turn", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "move.unlimbered.field", .value = 400, .source = TEXT, .why = "unlimbered field guns move 4\", once a turn (heavy guns not at all)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "woods.light", .value = 200, .source = TEXT, .why = "light woods take 2\" from infantry's and guns' move", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "woods.heavy", .value = 300, .source = TEXT, .why = "heavy woods take 3\"", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "move.commander", .value = 2400, .source = DEF, .why = "a commander rides up to 24\" a phase, over any ground (the text moves only units)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "rout.cavalry", .value = 1200, .source = DEF, .why = "a routing or pushed-back cavalry unit moves 12\": it has no dice to choose from (the text gives none)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "stop-short", .value = 25, .source = DEF, .why = "a move stops a quarter inch short of enemy bases: bases that close are in contact", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "step", .value = 25, .source = DEF, .why = "moves and ground are judged every quarter inch", .unit = PARAM_INCHES, .min = 5, .max = 10000 },
	{ .name = "sight.woods", .value = 600, .source = DEF, .why = "a unit sees and shoots through at most 6\" of woods (the text leaves sight to the players)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "road.half-width", .value = 75, .source = DEF, .why = "a base is on a road within 0.75\" of its line (the text gives no width)", .unit = PARAM_INCHES, .min = 1, .max = 10000 },
	/* Shooting */
	{ .name = "shoot.figures", .value = 6, .source = TEXT, .why = "small arms roll a d12 for every 6 figures (rounded down; at least one, a default)", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "shoot.long", .value = 2, .source = TEXT, .why = "2 is added to each die at long range", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "arc", .value = 45, .source = DEF, .why = "a unit shoots at what lies within 45 degrees of its front (the text gives no arc)", .unit = PARAM_COUNT, .min = 1, .max = 180 },
	{ .name = "range.musket.close", .value = 600, .source = TEXT, .why = "musket close range", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.musket.long", .value = 1200, .source = TEXT, .why = "musket long range", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.rifle.long", .value = 2400, .source = TEXT, .why = "rifles shoot at long range only, to 24\"", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.carbine.close", .value = 600, .source = TEXT, .why = "carbines shoot at close range only, to 6\"", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "gun.light.4", .value = 0, .source = TEXT, .why = "light guns never roll four dice", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.light.3", .value = 1800, .source = TEXT, .why = "light guns: canister, three dice to 18\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.light.2", .value = 4800, .source = TEXT, .why = "roundshot, two dice to 48\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.light.1", .value = 9600, .source = TEXT, .why = "roundshot, one die to 96\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.field.4", .value = 1200, .source = TEXT, .why = "field guns: canister, four dice to 12\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.field.3", .value = 2400, .source = TEXT, .why = "canister, three dice to 24\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.field.2", .value = 6000, .source = TEXT, .why = "roundshot, two dice to 60\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.field.1", .value = 12000, .source = TEXT, .why = "roundshot, one die to 120\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.heavy.4", .value = 1500, .source = TEXT, .why = "heavy guns: canister, four dice to 15\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.heavy.3", .value = 3000, .source = TEXT, .why = "canister, three dice to 30\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.heavy.2", .value = 7200, .source = TEXT, .why = "roundshot, two dice to 72\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "gun.heavy.1", .value = 14400, .source = TEXT, .why = "roundshot, one die to 144\"", .unit = PARAM_INCHES, .min = 0, .max = 100000 },
	{ .name = "cover.density", .value = 4, .source = TEXT, .why = "a unit in buildings or works counts density 4", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	{ .name = "cover.light-woods", .value = 1, .source = DEF, .why = "1 added to each die at a target in light woods (the text leaves cover to the players)", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "cover.heavy-woods", .value = 2, .source = DEF, .why = "2 added to each die at a target in heavy woods", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "smoke", .value = 1, .source = TEXT, .why = "shooter and target both in smoke: the target counts one density less", .unit = PARAM_COUNT, .min = 0, .max = 6 },
	{ .name = "density.min", .value = 3, .source = TEXT, .why = "density is never below 3", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	/* Melee */
	{ .name = "evade.density", .value = 4, .source = TEXT, .why = "units of density 3 or 4 evade a charge ...", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "evade.charger", .value = 5, .source = TEXT, .why = "... by a unit of density 5 or more, unless in buildings or works", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "close.dice", .value = 3, .source = TEXT, .why = "closing: three d12, one more for each DP of the target, each succeeding at twice the quality", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	{ .name = "close.needed", .value = 3, .source = TEXT, .why = "three successes to charge home", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	{ .name = "close.quality", .value = 2, .source = TEXT, .why = "a closing die succeeds at twice the charger's quality", .unit = PARAM_COUNT, .min = 1, .max = 6 },
	{ .name = "melee.figures", .value = 3, .source = TEXT, .why = "a melee d12 for every 3 figures in contact or overlapping", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "melee.reach", .value = 100, .source = DEF, .why = "a base is in the melee when within 1\" of an enemy base: in contact, or overlapping at its corner (the text does not measure it)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "melee.british-density", .value = 5, .source = TEXT, .why = "British at density 5 add one to their melee success number", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	/* Hits, rally, resupply, morale */
	{ .name = "dp.max", .value = 3, .source = TEXT, .why = "a unit has at most three disruption points", .unit = PARAM_COUNT, .min = 1, .max = 6 },
	{ .name = "kill.divisor", .value = 6, .source = TEXT, .why = "a kill adds a DP when a d6 beats the unit's size divided by 6", .unit = PARAM_COUNT, .min = 1, .max = 60 },
	{ .name = "resupply.on", .value = 1, .source = TEXT, .why = "a gun is resupplied on a d12 of 1", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "morale.dice", .value = 3, .source = TEXT, .why = "a morale check is three d12", .unit = PARAM_COUNT, .min = 1, .max = 12 },
	{ .name = "morale.cover", .value = 5, .source = TEXT, .why = "in cover a die succeeds at 5 plus the unit's quality", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "morale.open", .value = 2, .source = TEXT, .why = "in the open a die succeeds at twice the unit's quality", .unit = PARAM_COUNT, .min = 1, .max = 6 },
};
const int bb7_nparams = (int)(sizeof(bb7_params) / sizeof(bb7_params[0]));

/* What a battle's losses carry back in a campaign (docs/campaign.md,
 * After a battle).  The rules text is of one battle and says nothing of
 * the days after it; every number is a default. */
static const struct rule_param bb7_campaign_params[] = {
	{ .name = "carry.return.winner", .value = 50, .source = "default", .why = "a figure lost in Bloodybacks is ten men down or gone: half of a winner's losses are men scattered, not hit, and are back in the ranks the next morning (the clubs' rule of thumb)", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "carry.return.loser", .value = 30, .source = "default", .why = "a beaten army gathers fewer of its scattered men before it must march on", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "carry.return.draw", .value = 40, .source = "default", .why = "between a winner's and a loser's", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "carry.lost.winner", .value = 10, .source = "default", .why = "a tenth of the losses are killed or maimed and never return (the clubs' rule of thumb)", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "carry.lost.loser", .value = 20, .source = "default", .why = "a beaten army also leaves its badly wounded and its stragglers to the enemy as prisoners", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "carry.lost.draw", .value = 15, .source = "default", .why = "between a winner's and a loser's", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "carry.routed", .value = 25, .source = "default", .why = "a beaten side's unit still routed at the end loses a quarter of the figures it kept as prisoners and deserters", .unit = PARAM_PERCENT, .min = 0, .max = 100 },
	{ .name = "carry.guns", .value = 1, .source = "default", .why = "a beaten side's guns that are routed or abandoned at the end are taken by the winner (1), or are dragged off (0)", .unit = PARAM_COUNT, .min = 0, .max = 1 },
};

const struct verb_def bb7_verbs[] = {
	{ .word = "MOVE TO", .verb = V_MOVE_TO, .arg = ARG_POINT, .for_units = 1, .for_commanders = 1, .help = "MOVE TO X,Y: (an action) move towards the point" },
	{ .word = "ADVANCE", .verb = V_ADVANCE, .arg = ARG_DIST, .for_units = 1, .for_commanders = 0, .help = "ADVANCE N: (an action) move N inches straight ahead" },
	{ .word = "WHEEL", .verb = V_WHEEL, .arg = ARG_TURN, .for_units = 1, .for_commanders = 0, .help = "WHEEL LEFT|RIGHT N: (an action) turn N degrees about the centre" },
	{ .word = "FACE", .verb = V_FACE, .arg = ARG_BEARING, .for_units = 1, .for_commanders = 0, .help = "FACE N: (an action) face the bearing N (0 north, 90 east)" },
	{ .word = "FORM", .verb = V_FORM, .arg = ARG_FORMATION, .for_units = 1, .for_commanders = 0, .help = "FORM LINE|COLUMN|DISPERSED|LIMBERED|UNLIMBERED: (an action) change formation" },
	{ .word = "DENSITY", .verb = B7_V_DENSITY, .arg = ARG_COUNT, .for_units = 1, .for_commanders = 0, .help = "DENSITY N: (an action) spread the bases out to density N, or close them up again (3 to the unit's formed density)" },
	{ .word = "SHOOT AT", .verb = V_FIRE_AT, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "SHOOT AT UNIT: (an action) shoot; a second SHOOT rolls the misses again" },
	{ .word = "CHARGE", .verb = V_CHARGE, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "CHARGE UNIT: (an action) move at the enemy and, if the unit reaches it and closes, melee" },
	{ .word = "NO PURSUIT", .verb = V_NO_ADVANCE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "NO PURSUIT: (costs nothing) if an enemy it charges evades, stop where the enemy stood" },
	{ .word = "RALLY", .verb = V_RALLY, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "RALLY: (an action) remove one disruption point" },
	{ .word = "RESUPPLY", .verb = B7_V_RESUPPLY, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "RESUPPLY: (an action, guns) a d12 for a gun that is low (each low gun, in a battery whose other guns shoot): on 1 its ammunition is made up" },
	{ .word = "DICE", .verb = B7_V_DICE, .arg = ARG_COUNT, .for_units = 1, .for_commanders = 0, .help = "DICE N: (costs nothing, guns) each gun rolls at most N dice this phase, to spare its ammunition" },
	{ .word = "HOLD", .verb = V_HOLD, .arg = ARG_NONE, .for_units = 1, .for_commanders = 1, .help = "HOLD: do not activate this phase" },
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

/* What the reports and the map call things in this ruleset. */
static void
bb7_type_numbers(const struct troop_type *t, char *out, size_t size)
{
	snprintf(out, size, "quality %d  density %d", t->numbers[B7_N_QUALITY],
	    t->numbers[B7_N_DENSITY]);
}

/* The message catalogue (bb7_msgs.h), for the templates' checks. */
static const struct event_msg b7_messages[] = {
	EVENT_MSG(B7_M_ROLLS_MOVE_TAKES),
	EVENT_MSG(B7_M_DOES_NOT_MOVE_UNLIMBERED),
	EVENT_MSG(B7_M_DOES_NOT_MOVE_AGAIN),
	EVENT_MSG(B7_M_MOVES),
	EVENT_MSG(B7_M_MOVES_STOPPED),
	EVENT_MSG(B7_M_MOVES_TO_THE_EDGE),
	EVENT_MSG(B7_M_MOVES_STOPPED_BY),
	EVENT_MSG(B7_M_MOVES_IN_WOODS),
	EVENT_MSG(B7_M_MOVES_IN_WOODS_STOPPED),
	EVENT_MSG(B7_M_MOVES_IN_WOODS_TO_THE_EDGE),
	EVENT_MSG(B7_M_MOVES_IN_WOODS_STOPPED_BY),
	EVENT_MSG(B7_M_TURNS_TO_FACE),
	EVENT_MSG(B7_M_NO_ROOM_TO_FORM),
	EVENT_MSG(B7_M_LIMBERS_GUNS),
	EVENT_MSG(B7_M_UNLIMBERS_GUNS),
	EVENT_MSG(B7_M_FORMS_DENSITY),
	EVENT_MSG(B7_M_RIDES),
	EVENT_MSG(B7_M_GUN_RESUPPLIED),
	EVENT_MSG(B7_M_GUN_WAITS_AMMUNITION),
	EVENT_MSG(B7_M_NO_ACTION_LEFT),
	EVENT_MSG(B7_M_CANNOT_TAKE_DENSITY),
	EVENT_MSG(B7_M_OPENS_FILES_DENSITY),
	EVENT_MSG(B7_M_CLOSES_FILES_DENSITY),
	EVENT_MSG(B7_M_KEEPS_DENSITY),
	EVENT_MSG(B7_M_RALLIES_DISRUPTION_LEFT),
	EVENT_MSG(B7_M_RALLIES_NO_DISRUPTION),
	EVENT_MSG(B7_M_NO_GUNS_TO_RESUPPLY),
	EVENT_MSG(B7_M_NEEDS_NO_AMMUNITION),
	EVENT_MSG(B7_M_HOLDS),
	EVENT_MSG(B7_M_ACTIVATES_DICE_SUCCEED),
	EVENT_MSG(B7_M_ACTIVATES_ALONE),
	EVENT_MSG(B7_R_MOVE_FIRST_DIE),
	EVENT_MSG(B7_R_MOVE_SECOND_DIE),
	EVENT_MSG(B7_R_RESUPPLY_GUN),
	EVENT_MSG(B7_R_ACTIVATION_SUCCEEDS_LESS),
	EVENT_MSG(B7_M_REMOVED),
	EVENT_MSG(B7_M_TAKES_DISRUPTION),
	EVENT_MSG(B7_M_LOSES_FIGURE),
	EVENT_MSG(B7_M_CHECKS_MORALE_FAILS),
	EVENT_MSG(B7_M_CHECKS_MORALE_SUCCESSES),
	EVENT_MSG(B7_M_CHECKS_MORALE_ROUTS),
	EVENT_MSG(B7_M_CHECKS_MORALE_PUSHED_BACK),
	EVENT_MSG(B7_M_ROUTS_FROM),
	EVENT_MSG(B7_M_FALLS_BACK_FROM),
	EVENT_MSG(B7_M_GUN_ROLLED_LOW),
	EVENT_MSG(B7_M_CANNOT_SHOOT_GONE),
	EVENT_MSG(B7_M_NO_MISSED_DICE),
	EVENT_MSG(B7_M_SHOOTS_AGAIN_MORE),
	EVENT_MSG(B7_M_WILL_NOT_SHOOT_FRIEND),
	EVENT_MSG(B7_M_CANNOT_SHOOT_FRONT),
	EVENT_MSG(B7_M_CANNOT_SHOOT_UNSEEN),
	EVENT_MSG(B7_M_CANNOT_SHOOT_GUNS),
	EVENT_MSG(B7_M_GUN_OUT_OF_AMMUNITION),
	EVENT_MSG(B7_M_CANNOT_SHOOT_RANGE_OR_AMMUNITION),
	EVENT_MSG(B7_M_CANNOT_SHOOT_OFF),
	EVENT_MSG(B7_M_SHOOTS),
	EVENT_MSG(B7_M_LOSES_MELEE_LEFT),
	EVENT_MSG(B7_M_FIGHTS_MELEE),
	EVENT_MSG(B7_M_MELEE_BETWEEN_DRAWN),
	EVENT_MSG(B7_M_WINS_MELEE),
	EVENT_MSG(B7_M_LOSES_MELEE),
	EVENT_MSG(B7_M_CANNOT_CHARGE),
	EVENT_MSG(B7_M_EVADES),
	EVENT_MSG(B7_M_EVADES_TO_THE_EDGE),
	EVENT_MSG(B7_M_EVADES_STOPPED_BY),
	EVENT_MSG(B7_M_CHARGES_AFTER),
	EVENT_MSG(B7_M_CHARGE_STOPPED_BY),
	EVENT_MSG(B7_M_CHARGE_STOPPED_AT_THE_EDGE),
	EVENT_MSG(B7_M_CHARGE_SHORT_AFTER_THE_DICE),
	EVENT_MSG(B7_M_CHARGE_SHORT_OF_A_MOVE),
	EVENT_MSG(B7_M_CHARGE_SHORT_OF_A_MOVE_IN_WOODS),
	EVENT_MSG(B7_M_WILL_NOT_CLOSE),
	EVENT_MSG(B7_M_CLOSES_DICE_CHARGES),
	EVENT_MSG(B7_R_KILL_DISRUPTION_POINT),
	EVENT_MSG(B7_R_MORALE_SUCCEEDS_LESS),
	EVENT_MSG(B7_R_HITS_LESS),
	EVENT_MSG(B7_R_MELEE_SUCCEEDS_LESS),
	EVENT_MSG(B7_R_CLOSING_SUCCEEDS_LESS),
	EVENT_MSGS_CORE,
	{ .id = NULL }
};

static const struct ruleset_words bb7_words = {
	.messages = b7_messages,
	.type_numbers = bb7_type_numbers,
	.unit_fields = bb7_unit_fields,
	.unit_marks = bb7_unit_marks,
	.marks_key = "(2 DP): a unit's disruption points",
	.cloud_key = "smoke",
	.situation = bb7_situation,
	.crib = bb7_crib,
	.strength_word = "figures",
	.stand_word = "base",
	.form_phrase = bb7_form_phrase,
	.yards_per_foot = 100,
	.column_word = "column",
	.limbered_word = "limbered",
	.scale_note = "A figure is ten men, a gun model two pieces; 12 inches "
	    "are 100 yards.",
};

/* A unit line's "quality N" and "density N" (bb7_unit_number_set); a
 * unit without them takes its troop type's. */
static const struct unit_number bb7_unit_numbers[] = {
	[B7_N_QUALITY] = { .word = "quality", .what = "quality", .lo = 1,
	    .hi = 5 },
	[B7_N_DENSITY] = { .word = "density", .what = "density", .lo = 3,
	    .hi = 7 },
};

/* Its own weapons, numbered from WEAPON_RULESET (bb7.h). */
static const char *const bb7_weapons[] = { "carbine", NULL };

const struct ruleset ruleset_bb7 = {
	.unit_numbers = bb7_unit_numbers,
	.nunit_numbers = (int)(sizeof(bb7_unit_numbers) /
	    sizeof(bb7_unit_numbers[0])),
	.unit_number_set = bb7_unit_number_set,
	.name = "bb7",
	.title = "Bloodybacks version 7 (AWI, 1 figure = 10 men)",
	.types = bb7_types,
	.ntypes = (int)(sizeof(bb7_types) / sizeof(bb7_types[0])),
	.params = bb7_params,
	.nparams = (int)(sizeof(bb7_params) / sizeof(bb7_params[0])),
	.campaign_params = bb7_campaign_params,
	.ncampaign_params = (int)(sizeof(bb7_campaign_params) /
	    sizeof(bb7_campaign_params[0])),
	.verbs = bb7_verbs,
	.nverbs = (int)(sizeof(bb7_verbs) / sizeof(bb7_verbs[0])),
	.turn_minutes = 5,
	.prepare = bb7_prepare,
	.adjudicate = bb7_adjudicate,
	.form_check = bb7_form_check,
	.step_check = bb7_step_check,
	.verb_aliases = bb7_aliases,
	.preview = bb7_preview,
	.preview_battle = bb7_preview_battle,
	.sees = bb7_sees,
	.road_spacer = 0,
	.form_words = "LINE, COLUMN, DISPERSED, LIMBERED or UNLIMBERED",
	.form_word = bb7_form_word,
	.words = &bb7_words,
	.weapons = bb7_weapons,
};
