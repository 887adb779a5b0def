/*
 * bb3_data.c - every number the bb3 ruleset uses, with where it comes
 * from, its troop types, its orders and its words.
 *
 * Source: Bloodybacks 3 (December 2002), shared/seeds/002.  Most of its
 * tables lost their numbers in transcription; where the project's note
 * on the missing numbers (shared/seeds/MISSING-NUMBERS.md) proposes one,
 * that is the default here, and where it gives none (the move rates, which
 * the text never had) the reason is given.  A scenario may override any
 * number with `set NAME VALUE`.  Distances are in hundredths of an inch.
 * docs/rules-bb3.md says how the text is read.
 */
#include "core/deploy.h"
#include "core/text.h"
#include "rules/bb3_int.h"

#include <stdio.h>
#include <strings.h>

#define N(morale, cl, e) { [0] = (morale), [1] = (cl), [2] = (e) }

/* Troop types: numbers[] are the morale value, the classes (B3C_) and the
 * figures to one stand removed. */
const struct troop_type bb3_types[] = {
	{ .id = "guards", .kind = KIND_INFANTRY, .speed = 6, .morale = 9, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Guards and grenadiers", .nation = NATION_BRITISH, .numbers = N(9, B3C_ELITE, 6) },
	{ .id = "british-regulars", .kind = KIND_INFANTRY, .speed = 6, .morale = 8, .weapon = WEAPON_MUSKET, .abil = 0, .label = "British line regulars", .nation = NATION_BRITISH, .numbers = N(8, 0, 6) },
	{ .id = "german-regulars", .kind = KIND_INFANTRY, .speed = 6, .morale = 8, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Hessian and other German regulars", .nation = NATION_HESSIAN, .numbers = N(8, 0, 6) },
	{ .id = "continentals", .kind = KIND_INFANTRY, .speed = 6, .morale = 7, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Continental line", .nation = NATION_CONTINENTAL, .numbers = N(7, 0, 6) },
	{ .id = "provincials", .kind = KIND_INFANTRY, .speed = 6, .morale = 7, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Loyalist provincial regulars", .nation = NATION_LOYALIST, .numbers = N(7, 0, 6) },
	{ .id = "militia", .kind = KIND_INFANTRY, .speed = 6, .morale = 6, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Militia", .numbers = N(6, B3C_MILITIA, 6) },
	{ .id = "light-infantry", .kind = KIND_INFANTRY, .speed = 8, .morale = 8, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Regular light infantry (4-figure stands)", .nation = NATION_BRITISH, .numbers = N(8, B3C_LIGHT, 4) },
	{ .id = "flank-companies", .kind = KIND_INFANTRY, .speed = 8, .morale = 8, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Converged flank companies (4-figure stands)", .nation = NATION_BRITISH, .numbers = N(8, B3C_LIGHT | B3C_CONVERGED, 4) },
	{ .id = "riflemen", .kind = KIND_INFANTRY, .speed = 8, .morale = 7, .weapon = WEAPON_RIFLE, .abil = ABIL_SK | ABIL_R, .label = "American riflemen (skirmish half-stands)", .nation = NATION_CONTINENTAL, .numbers = N(7, B3C_SKIRMISH | B3C_AMERICAN, 6) },
	{ .id = "light-skirmishers", .kind = KIND_INFANTRY, .speed = 8, .morale = 7, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "American light troops skirmishing with muskets", .nation = NATION_CONTINENTAL, .numbers = N(7, B3C_SKIRMISH | B3C_AMERICAN, 6) },
	{ .id = "jaegers", .kind = KIND_INFANTRY, .speed = 8, .morale = 8, .weapon = WEAPON_RIFLE, .abil = ABIL_SK | ABIL_R, .label = "German jaegers (skirmish half-stands)", .nation = NATION_HESSIAN, .numbers = N(8, B3C_SKIRMISH, 6) },
	{ .id = "indians", .kind = KIND_INFANTRY, .speed = 8, .morale = 7, .weapon = WEAPON_MUSKET, .abil = ABIL_SK | ABIL_NA, .label = "Native Americans (skirmish half-stands)", .nation = NATION_NATIVE, .numbers = N(7, B3C_SKIRMISH | B3C_NATIVE, 6) },
	{ .id = "dragoons", .kind = KIND_MOUNTED, .speed = 12, .morale = 8, .weapon = WEAPON_CARBINE, .abil = 0, .label = "Dragoons and light horse (3-figure stands)", .numbers = N(8, 0, 3) },
	{ .id = "light-gun", .kind = KIND_ARTILLERY, .speed = 8, .morale = 7, .weapon = WEAPON_LIGHT_GUN, .abil = 0, .label = "Light gun and crew", .numbers = N(7, B3C_CREW, 3) },
	{ .id = "field-gun", .kind = KIND_ARTILLERY, .speed = 8, .morale = 7, .weapon = WEAPON_FIELD_GUN, .abil = 0, .label = "Field gun and crew", .numbers = N(7, B3C_CREW, 3) },
	{ .id = "heavy-gun", .kind = KIND_ARTILLERY, .speed = 8, .morale = 7, .weapon = WEAPON_HEAVY_GUN, .abil = 0, .label = "Heavy gun and crew", .numbers = N(7, B3C_CREW, 3) },
	{ .id = "howitzer", .kind = KIND_ARTILLERY, .speed = 8, .morale = 7, .weapon = WEAPON_HOWITZER, .abil = 0, .label = "Howitzer and crew", .numbers = N(7, B3C_CREW, 3) },
};

#define TEXT "text"
#define DEF  "default"
#define SRC  "source"
#define IN(nm, v, src, wy) { .name = (nm), .value = (v), .source = (src), .why = (wy), .unit = PARAM_INCHES, .min = 0, .max = 20000 }
#define CT(nm, v, src, wy, lo, hi) { .name = (nm), .value = (v), .source = (src), .why = (wy), .unit = PARAM_COUNT, .min = (lo), .max = (hi) }
#define PC(nm, v, src, wy) { .name = (nm), .value = (v), .source = (src), .why = (wy), .unit = PARAM_PERCENT, .min = 0, .max = 100 }

const struct rule_param bb3_params[] = {
	/* The turn */
	CT("initiative.die", 6, DEF, "each side rolls a d6 for the initiative (the text's \"appropriate die\" lost its table; a scenario may name another)", 2, 20),
	IN("panic.radius", 400, TEXT, "a unit with fleeing friends within 4\" tests for panic"),
	/* Charges and responses */
	IN("charge.infantry", 800, TEXT, "infantry charge up to 8\""),
	CT("charge.cavalry.times", 4, TEXT, "cavalry charge four times a d6", 1, 12),
	CT("charge.wheel", 45, TEXT, "a charger may wheel up to 45 degrees, once, at the start", 0, 180),
	PC("charger.test", 25, TEXT, "a charger that loses a quarter of its figures to the response tests before contact"),
	CT("evade.dice", 4, TEXT, "evading skirmishers fall back 4d3\"", 0, 12),
	CT("flee.infantry", 2, TEXT, "fleeing or broken infantry run 2d6\"", 0, 12),
	CT("flee.cavalry", 3, TEXT, "fleeing or broken cavalry run 3d6\"", 0, 12),
	CT("fire-flee.dice", 2, TEXT, "after firing, fire and flee falls back 2d3\"", 0, 12),
	/* Command and movement */
	CT("command.base", 3, DEF, "a commander's rating is his quality (1 to 5) plus 3: poor 4, average 6, good 7, excellent 8, the ratings the note on missing numbers proposes", 0, 10),
	CT("command.quality", 3, DEF, "an average commander (rating 6) where the scenario rates none", 1, 5),
	CT("command.per-12", 1, DEF, "-1 to the rating for each full 12\" between the commander and the unit", 0, 10),
	{ .name = "command.distance", .value = 1200, .source = DEF, .why = "the span the distance modifier counts", .unit = PARAM_INCHES, .min = 1, .max = 20000 },
	CT("command.militia", 1, DEF, "-1 to the rating for militia", 0, 10),
	PC("command.losses", 25, DEF, "-1 to the rating for a unit that has lost this much of its figures"),
	CT("command.elite", 1, DEF, "+1 to the rating for elite troops and regular light infantry", 0, 10),
	CT("native.remove", 9, TEXT, "Native Americans leave the field on a d10 plus stands lost of 9 or more", 2, 30),
	IN("officer.move", 1200, TEXT, "officers not with a unit ride up to 12\" at the end of the turn"),
	IN("double.radius", 1200, TEXT, "a unit starting more than 12\" from the enemy and never coming within 12\" moves double"),
	IN("move.line", 600, DEF, "formed infantry in line move 6\" (the text gives no rates; the usual figure of the period's rules at this scale, so that a line crosses musket range in about two turns with its command score)"),
	IN("move.column", 800, DEF, "formed infantry in column move 8\" (a column marches faster than a line)"),
	IN("move.light", 800, DEF, "light infantry, skirmishers and Native Americans move 8\""),
	IN("move.cavalry", 1200, DEF, "cavalry move 12\" (twice formed infantry)"),
	IN("move.limbered", 800, DEF, "limbered guns move 8\"; unlimbered guns do not move"),
	CT("terrain.cost", 2, DEF, "an inch of woods, marsh, thicket, broken ground or crops counts 2 for formed troops", 1, 10),
	IN("obstacle.cost", 200, DEF, "crossing a fence, hedge or stream costs 2\" of the move"),
	IN("move.stop", 50, DEF, "a move other than a charge stops half an inch short of an enemy"),
	IN("sight.woods", 200, DEF, "troops see and fire 2\" into woods or buildings, no further"),
	/* Firing */
	IN("range.musket", 1200, DEF, "musket range 12\""),
	IN("range.musket.short", 600, DEF, "musket short range, 6\""),
	IN("range.rifle", 2400, DEF, "rifle range 24\""),
	IN("range.rifle.short", 1200, DEF, "rifle short range, 12\""),
	IN("range.carbine", 600, DEF, "carbine range 6\", all of it short"),
	IN("range.light-gun", 3600, DEF, "light gun range 36\""),
	IN("range.light-gun.canister", 800, DEF, "light gun canister, to 8\""),
	IN("range.field-gun", 4800, DEF, "field gun range 48\""),
	IN("range.field-gun.canister", 1200, DEF, "field gun canister, to 12\""),
	IN("range.heavy-gun", 6000, DEF, "heavy gun range 60\""),
	IN("range.heavy-gun.canister", 1500, DEF, "heavy gun canister, to 15\""),
	CT("arc", 45, DEF, "a unit fires at what lies within 45 degrees of its front", 1, 180),
	CT("points.formed", 1, DEF, "a formed stand (6 figures, or a light infantry stand) has one fire point", 0, 10),
	CT("points.skirmish", 1, TEXT, "a skirmish half-stand has one fire point (the text's 12-figure skirmish unit has 4)", 0, 10),
	CT("points.cavalry", 2, DEF, "cavalry have a fire point for every two stands (at least one)", 1, 10),
	CT("points.light-gun", 2, DEF, "a light gun has 2 fire points", 0, 10),
	CT("points.field-gun", 3, DEF, "a field gun has 3", 0, 10),
	CT("points.heavy-gun", 4, DEF, "a heavy gun has 4", 0, 10),
	CT("points.canister", 1, DEF, "a gun has 1 more at canister range", 0, 10),
	CT("fire.skirmish", 1, DEF, "-1 firing at skirmishers or gun crews", 0, 10),
	CT("fire.soft", 1, DEF, "-1 at a target in soft cover (woods, behind a fence or hedge)", 0, 10),
	CT("fire.hard", 2, DEF, "-2 at a target in hard cover (town, village, works)", 0, 10),
	CT("fire.elite", 1, DEF, "+1 for elite firers", 0, 10),
	CT("fire.militia", 1, DEF, "-1 for militia firers", 0, 10),
	CT("fire.first", 1, DEF, "+1 for a unit's first volley of the battle", 0, 10),
	PC("fire.test", 25, TEXT, "a unit that loses a quarter of its figures in a firing phase tests at once"),
	CT("officer.fire", 10, TEXT, "an attached officer is killed by fire on a d10 of 10", 1, 11),
	CT("officer.rifle", 9, TEXT, "... of 9 or 10 when the firers have rifles", 1, 11),
	CT("officer.melee", 10, TEXT, "... in melee on a d10 of 10", 1, 11),
	CT("officer.fall-back", 2, TEXT, "a unit failing its test for its officer's loss falls back 2d6\"", 0, 12),
	IN("howitzer.min", 800, TEXT, "a howitzer's target is at least 8\" away"),
	IN("howitzer.max", 3600, TEXT, "... and at most 36\""),
	IN("howitzer.burst", 200, TEXT, "the shell burst marker is 2\" across"),
	CT("howitzer.hit", 2, SRC, "the scatter die's hit faces: 1 and 2 of a d6 (Warhammer's scatter die, which the text names, has two hit faces of six)", 0, 6),
	CT("howitzer.direction", 12, DEF, "the direction die: a die of 12 faces read as a clock, 30 degrees a face (Warhammer's arrowed direction die points any way; twelve directions stand in for it)", 4, 36),
	IN("howitzer.step", 200, SRC, "a scattered shell goes 2\" a pip of the distance d6: 2, 4, 6, 8 or 10\" (Warhammer's artillery die)"),
	CT("howitzer.misfire", 6, SRC, "the distance d6's 6 is the misfire face: no shell (Warhammer's artillery die; 0 for none)", 0, 6),
	CT("howitzer.dice", 2, TEXT, "units under the marker take 2d3 fire points", 0, 6),
	/* Melee */
	CT("melee.foot", 3, DEF, "a melee d6 for every 3 foot figures in contact or overlapping", 1, 30),
	CT("melee.horse", 2, DEF, "... or every 2 mounted figures", 1, 30),
	CT("melee.hit", 4, DEF, "a melee die of 4 or more is a casualty", 1, 7),
	CT("melee.officer", 6, DEF, "a melee die of 6 also calls the officer's d10", 1, 7),
	IN("melee.contact", 25, DEF, "stands within a quarter inch are in contact"),
	CT("melee.charging", 1, DEF, "+1 to the melee score charging", 0, 10),
	CT("melee.uphill", 1, DEF, "+1 uphill of the enemy or defending an obstacle", 0, 10),
	CT("melee.support", 1, DEF, "+1 for each supporting stand within 3\" behind", 0, 10),
	CT("melee.support.max", 2, DEF, "... at most 2", 0, 10),
	IN("melee.support.range", 300, DEF, "a supporting stand is one within 3\" behind (the note on missing numbers gives the +1 a stand, not how near)"),
	CT("melee.flank", 2, DEF, "+2 charging the enemy's flank or rear", 0, 10),
	CT("melee.elite", 1, DEF, "+1 elite", 0, 10),
	CT("melee.militia", 1, DEF, "-1 militia", 0, 10),
	CT("melee.disordered", 1, DEF, "-1 disordered", 0, 10),
	CT("pursuit.dice", 3, TEXT, "victorious cavalry pursue 3d6\"", 0, 12),
	IN("militia.radius", 1200, TEXT, "militia within 12\" of a friend that breaks in melee test"),
	/* Morale and the reform */
	CT("morale.dice", 2, TEXT, "a morale test is 2d6 at or under the morale value", 1, 6),
	CT("morale.native", 3, TEXT, "Native Americans outside woods, and any unit losing its officer, roll 3d6", 1, 6),
	CT("morale.officer", 1, DEF, "+1 with an officer attached", 0, 10),
	CT("morale.cover", 1, DEF, "+1 in cover", 0, 10),
	CT("morale.fleeing", 1, DEF, "-1 with fleeing friends within 4\"", 0, 10),
	CT("morale.half", 2, DEF, "-2 at half its figures or fewer", 0, 10),
	CT("reform.odd", 6, TEXT, "an odd casualty's d6 removes a stand on a 6", 1, 7),
};
const int bb3_nparams = (int)(sizeof(bb3_params) / sizeof(bb3_params[0]));

/* What a battle's losses carry back in a campaign: the text is of one
 * battle; figures, as bb7's, are men down or scattered. */
static const struct rule_param bb3_campaign_params[] = {
	PC("carry.return.winner", 50, DEF, "half of a winner's lost figures are men scattered, not hit, and are back the next morning"),
	PC("carry.return.loser", 30, DEF, "a beaten army gathers fewer of its scattered men"),
	PC("carry.return.draw", 40, DEF, "between a winner's and a loser's"),
	PC("carry.lost.winner", 10, DEF, "a tenth of the losses never return"),
	PC("carry.lost.loser", 20, DEF, "a beaten army leaves its badly wounded and stragglers as prisoners"),
	PC("carry.lost.draw", 15, DEF, "between a winner's and a loser's"),
	PC("carry.routed", 25, DEF, "a beaten side's unit still fleeing at the end loses a quarter of what it kept"),
	CT("carry.guns", 1, DEF, "a beaten side's guns fleeing or lost at the end are taken (1) or dragged off (0)", 0, 1),
};

const struct verb_def bb3_verbs[] = {
	{ .word = "MOVE TO", .verb = V_MOVE_TO, .arg = ARG_POINT, .for_units = 1, .for_commanders = 1, .help = "MOVE TO X,Y: move towards the point (a command roll; officers ride at the end of the turn)" },
	{ .word = "ADVANCE", .verb = V_ADVANCE, .arg = ARG_DIST, .for_units = 1, .for_commanders = 0, .help = "ADVANCE N: move N inches straight ahead (a command roll)" },
	{ .word = "FALL BACK", .verb = B3_V_FALL_BACK, .arg = ARG_DIST, .for_units = 1, .for_commanders = 0, .help = "FALL BACK N: move back N inches facing the enemy, at half speed" },
	{ .word = "WHEEL", .verb = V_WHEEL, .arg = ARG_TURN, .for_units = 1, .for_commanders = 0, .help = "WHEEL LEFT|RIGHT N: turn N degrees (half the move)" },
	{ .word = "FACE", .verb = V_FACE, .arg = ARG_BEARING, .for_units = 1, .for_commanders = 0, .help = "FACE N: face the bearing N (half the move; free for a unit that rallies)" },
	{ .word = "FORM", .verb = V_FORM, .arg = ARG_FORMATION, .for_units = 1, .for_commanders = 0, .help = "FORM LINE|COLUMN|LIMBERED|UNLIMBERED: change formation (half the move)" },
	{ .word = "CHARGE", .verb = V_CHARGE, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "CHARGE UNIT: charge it (no command roll; infantry 8\", cavalry 4 x d6)" },
	{ .word = "FIRE AT", .verb = V_FIRE_AT, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "FIRE AT UNIT: fire at it in the firing phase" },
	{ .word = "PICK OFF", .verb = B3_V_PICK_OFF, .arg = ARG_COUNT, .for_units = 1, .for_commanders = 0, .help = "PICK OFF N: (American skirmishers) N fire points rolled as d10s at the target's officer" },
	{ .word = "IF CHARGED STAND", .verb = B3_V_IF_STAND, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "IF CHARGED STAND: when charged, stand and shoot (the default)" },
	{ .word = "IF CHARGED EVADE", .verb = B3_V_IF_EVADE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "IF CHARGED EVADE: (skirmishers) when charged, fall back 4d3\" in good order" },
	{ .word = "IF CHARGED FLEE", .verb = B3_V_IF_FLEE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "IF CHARGED FLEE: when charged, run 2d6\" (cavalry 3d6\")" },
	{ .word = "IF CHARGED FIRE AND FLEE", .verb = B3_V_IF_FIRE_FLEE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "IF CHARGED FIRE AND FLEE: when charged, fire, then fall back 2d3\"" },
	{ .word = "IF CHARGED ABOUT FACE", .verb = B3_V_IF_ABOUT_FACE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "IF CHARGED ABOUT FACE: when charged in flank or rear, turn and fire at half effect" },
	{ .word = "JOIN", .verb = V_JOIN, .arg = ARG_FRIEND, .for_units = 0, .for_commanders = 1, .help = "JOIN UNIT: (an officer) ride to the unit, up to 12\", and go with it" },
	{ .word = "HOLD", .verb = V_HOLD, .arg = ARG_NONE, .for_units = 1, .for_commanders = 1, .help = "HOLD: do nothing this turn" },
};
const int bb3_nverbs = (int)(sizeof(bb3_verbs) / sizeof(bb3_verbs[0]));

static const char *const bb3_aliases[][2] = {
	{ "SHOOT AT", "FIRE AT" },
	{ "VOLLEY", "FIRE AT" },
	{ "RETIRE", "FALL BACK" },
	{ "ATTACK", "CHARGE" },
	{ "SNIPE", "PICK OFF" },
	{ NULL, NULL },
};

/* --- the battle's own state as tables ---------------------------------- */

static int
init_rows(const struct battle *b)
{
	const struct bb3_state *st = bb3_cstate(b);
	int t, n = 0;

	for (t = 1; t < B3_MAX_TURNS; t++)
		if (st->first[t] != 0)
			n = t;
	return n;
}

static void
init_get(const struct battle *b, int row, int *v)
{
	const struct bb3_state *st = bb3_cstate(b);

	v[0] = st->first[row + 1] - 1;
	v[1] = st->roll[row + 1][0];
	v[2] = st->roll[row + 1][1];
}

static int
init_set(struct battle *b, int nrows, int row, const int *v)
{
	struct bb3_state *st = bb3_state(b);

	if (row < 0)
		return nrows >= 0 && nrows < B3_MAX_TURNS ? 0 : -1;
	if (v[0] < -1 || v[0] >= b->nsides || v[1] < 0 || v[1] > 255 ||
	    v[2] < 0 || v[2] > 255)
		return -1;
	st->first[row + 1] = (unsigned char)(v[0] + 1);
	st->roll[row + 1][0] = (unsigned char)v[1];
	st->roll[row + 1][1] = (unsigned char)v[2];
	return 0;
}

static int
sides_rows(const struct battle *b)
{
	return b->nsides;
}

static void
sides_get(const struct battle *b, int row, int *v)
{
	v[0] = bb3_cstate(b)->second[row];
	v[1] = bb3_cstate(b)->side_response[row];
}

static int
sides_set(struct battle *b, int nrows, int row, const int *v)
{
	if (row < 0)
		return nrows == b->nsides ? 0 : -1;
	if (v[0] < 0 || v[0] > 1 || v[1] < 0 || v[1] >= B3R_COUNT)
		return -1;
	bb3_state(b)->second[row] = (unsigned char)v[0];
	bb3_state(b)->side_response[row] = (unsigned char)v[1];
	return 0;
}

static int
resp_rows(const struct battle *b)
{
	return b->nunits;
}

static void
resp_get(const struct battle *b, int row, int *v)
{
	v[0] = bb3_cstate(b)->response[row];
}

static int
resp_set(struct battle *b, int nrows, int row, const int *v)
{
	if (row < 0)
		return nrows == b->nunits ? 0 : -1;
	if (v[0] < 0 || v[0] >= B3R_COUNT)
		return -1;
	bb3_state(b)->response[row] = (unsigned char)v[0];
	return 0;
}

static const char *const init_keys[] = { "first", "roll0", "roll1", NULL };
static const char *const sides_keys[] = { "second", "response", NULL };
static const char *const resp_keys[] = { "response", NULL };

static const struct rules_table bb3_tables[] = {
	{ .name = "initiative", .keys = init_keys, .rows = init_rows,
	  .get = init_get, .set = init_set },
	{ .name = "sides", .keys = sides_keys, .rows = sides_rows,
	  .get = sides_get, .set = sides_set },
	{ .name = "responses", .keys = resp_keys, .rows = resp_rows,
	  .get = resp_get, .set = resp_set },
};

/* --- order lines of its own -------------------------------------------- */

static const char *const resp_names[B3R_COUNT] = {
	NULL, "STAND", "EVADE", "FLEE", "FIRE AND FLEE", "ABOUT FACE"
};

/* s after the words w (case and runs of spaces ignored), or NULL. */
static const char *
after(const char *s, const char *w)
{
	while (*w) {
		if (*w == ' ') {
			if (*s != ' ' && *s != '\t')
				return NULL;
			while (*s == ' ' || *s == '\t')
				s++;
			w++;
			continue;
		}
		if ((*s | 0x20) != (*w | 0x20))
			return NULL;
		s++;
		w++;
	}
	while (*s == ' ' || *s == '\t' || *s == ':')
		s++;
	return s;
}

/* The response named at r, or -1 with msg listing them (what: how the
 * line begins, for the example). */
static int
response_word(const char *r, const char *what, const char *example,
    char *msg, size_t msize)
{
	int k;

	for (k = B3R_STAND; k < B3R_COUNT; k++)
		if (strcasecmp(r, resp_names[k]) == 0)
			return k;
	snprintf(msg, msize, "%s takes STAND, EVADE, FLEE, FIRE AND FLEE or "
	    "ABOUT FACE, for example \"%s\"", what, example);
	return -1;
}

int
bb3_order_line(const struct order_line_ctx *c, const char *line,
    struct order *o, char *msg, size_t msize)
{
	const char *r, *colon = strchr(line, ':');
	int k;

	if ((r = after(line, "INITIATIVE")) != NULL && colon != NULL) {
		o->special = B3_SPECIAL_INITIATIVE;
		o->who = -1;
		if (strncasecmp(r, "FIRST", 5) == 0 && r[5] == '\0')
			o->special_arg = 0;
		else if (strncasecmp(r, "SECOND", 6) == 0 && r[6] == '\0')
			o->special_arg = 1;
		else {
			snprintf(msg, msize, "INITIATIVE takes FIRST or SECOND (which "
			    "you choose when you win the roll), for example "
			    "\"INITIATIVE: SECOND\"");
			return -1;
		}
		return 1;
	}
	if ((r = after(line, "IF CHARGED")) != NULL && colon != NULL &&
	    colon < r) {
		if ((k = response_word(r, "IF CHARGED:", "IF CHARGED: FIRE AND "
		    "FLEE", msg, msize)) < 0)
			return -1;
		o->special = B3_SPECIAL_RESPONSE;
		o->special_arg = k;
		o->who = -1;
		return 1;
	}
	/* "Unit: IF CHARGED X" on a line of its own: the unit's response,
	 * kept apart from its moves, so that a later line for its moves
	 * leaves it standing (and a later response replaces it). */
	if (colon != NULL && colon > line &&
	    (r = after(colon + 1 + strspn(colon + 1, " \t"), "IF CHARGED")) !=
	    NULL && r > colon + 1) {
		char name[256];
		size_t n = (size_t)(colon - line);
		int who, is_cmd;

		if (n >= sizeof(name))
			n = sizeof(name) - 1;
		memcpy(name, line, n);
		name[n] = '\0';
		while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'))
			name[--n] = '\0';
		/* Anything else after IF CHARGED (a chain: "IF CHARGED
		 * ABOUT FACE THEN FIRE AT ...", or a word misspelt) is the
		 * unit's line of verbs, for the shared reader. */
		for (k = B3R_STAND; k < B3R_COUNT; k++)
			if (strcasecmp(r, resp_names[k]) == 0)
				break;
		if (k == B3R_COUNT) {
			/* a response misspelt, alone on its line: say which
			 * was meant (a chain is the shared reader's) */
			int best = B3R_COUNT, bd = 3;

			for (k = B3R_STAND; k < B3R_COUNT; k++)
				if (c->apart(r, resp_names[k]) < bd) {
					bd = c->apart(r, resp_names[k]);
					best = k;
				}
			if (best == B3R_COUNT)
				return 0;
			snprintf(msg, msize, "IF CHARGED takes STAND, EVADE, FLEE, FIRE "
			    "AND FLEE or ABOUT FACE: did you mean \"IF CHARGED %s\"?",
			    resp_names[best]);
			return -1;
		}
		if (c->resolve(c, ORDER_LINE_OWN_UNIT, name, "unit", &who, &is_cmd,
		    msg, msize) != 1)
			return -1;
		if (k == B3R_EVADE &&
		    !(c->b->units[who].rules[B3_CLASS] & B3C_SKIRMISH)) {
			snprintf(msg, msize, "%s cannot EVADE: only skirmishers evade "
			    "(it may IF CHARGED STAND, FLEE, FIRE AND FLEE or ABOUT "
			    "FACE)", c->b->units[who].name);
			return -1;
		}
		o->special = B3_SPECIAL_UNIT + who;
		o->special_arg = k;
		o->who = who;
		o->is_commander = 0;
		return 1;
	}
	return 0;
}

void
bb3_order_text(const struct battle *b, const struct order *o, char *out,
    size_t size)
{
	if (o->special == B3_SPECIAL_INITIATIVE)
		snprintf(out, size, "INITIATIVE: %s", o->special_arg ? "SECOND" :
		    "FIRST");
	else if (o->special == B3_SPECIAL_RESPONSE && o->special_arg > 0 &&
	    o->special_arg < B3R_COUNT)
		snprintf(out, size, "IF CHARGED: %s", resp_names[o->special_arg]);
	else if (o->special >= B3_SPECIAL_UNIT && o->who >= 0 &&
	    o->who < b->nunits && o->special_arg > 0 &&
	    o->special_arg < B3R_COUNT)
		snprintf(out, size, "%s: IF CHARGED %s", b->units[o->who].name,
		    resp_names[o->special_arg]);
	else
		snprintf(out, size, "?");
}

int
bb3_step_check(const struct battle *b, int who, int is_cmd,
    const struct order_step *st, char *msg, size_t msize)
{
	const struct unit *u;

	if (is_cmd)
		return 0;
	u = &b->units[who];
	if (st->verb == V_CHARGE && u->kind == KIND_ARTILLERY) {
		snprintf(msg, msize, "%s cannot CHARGE: artillery cannot charge "
		    "(it may FIRE AT, or MOVE TO when limbered)", u->name);
		return -1;
	}
	if (st->verb == B3_V_IF_EVADE && !(u->rules[B3_CLASS] & B3C_SKIRMISH)) {
		snprintf(msg, msize, "%s cannot EVADE: only skirmishers evade (it "
		    "may IF CHARGED STAND, FLEE, FIRE AND FLEE or ABOUT FACE)",
		    u->name);
		return -1;
	}
	if (st->verb == B3_V_PICK_OFF && !(u->rules[B3_CLASS] & B3C_AMERICAN)) {
		snprintf(msg, msize, "%s cannot PICK OFF officers: only American "
		    "skirmishers may", u->name);
		return -1;
	}
	return 0;
}

int
bb3_form_check(const struct battle *b, int who, enum formation f,
    const char *word, char *msg, size_t msize)
{
	const struct unit *u = &b->units[who];
	int guns = u->kind == KIND_ARTILLERY;

	(void)f;
	if (guns ? strcasecmp(word, "LIMBERED") == 0 ||
	    strcasecmp(word, "UNLIMBERED") == 0 :
	    (strcasecmp(word, "LINE") == 0 || strcasecmp(word, "COLUMN") == 0) &&
	    !(u->rules[B3_CLASS] & B3C_SKIRMISH))
		return 0;
	snprintf(msg, msize, "%s cannot form %s: %s", u->name, word, guns ?
	    "guns are LIMBERED or UNLIMBERED" : u->rules[B3_CLASS] &
	    B3C_SKIRMISH ? "skirmishers keep their open order" :
	    "troops form LINE or COLUMN");
	return -1;
}

const char *
bb3_form_word(const struct battle *b, int u, enum formation f)
{
	if (b->units[u].kind == KIND_ARTILLERY)
		return f == FORM_ROAD ? "LIMBERED" : "UNLIMBERED";
	return f == FORM_ROAD ? "COLUMN" : "LINE";
}

const char *
bb3_form_phrase(const struct battle *b, int u)
{
	int f = battle_unit_form(b, u);

	if (b->units[u].kind == KIND_ARTILLERY)
		return f == FORM_ROAD ? "limbered" : "";
	if (cls(b, u) & B3C_SKIRMISH)
		return "in skirmish order";
	return f == FORM_ROAD ? "in column" : "";
}

/* --- words ------------------------------------------------------------- */

int
bb3_unit_fields(const struct battle *b, int u, const unsigned char *seen,
    struct unit_field *f)
{
	const struct unit *un = &b->units[u];
	int n = 0, s, fig = 0;

	FOR_STANDS(b, u, s)
		if (alive(b, s) && (seen == NULL || seen[s]))
			fig += b->stands[s].sp;
	f[n++] = (struct unit_field){ "figures", FIELD_INT, fig };
	f[n++] = (struct unit_field){ "fleeing", FIELD_BOOL, fleeing(b, u) };
	f[n++] = (struct unit_field){ "pinned", FIELD_BOOL,
	    (un->state[B3_MARKS] & B3M_PINNED) != 0 };
	if (seen != NULL)
		return n;
	f[n++] = (struct unit_field){ "morale", FIELD_INT, un->rules[B3_MORALE] };
	f[n++] = (struct unit_field){ "response", FIELD_INT,
	    bb3_cstate(b)->response[u] };
	f[n++] = (struct unit_field){ "stand_equivalent", FIELD_INT,
	    un->rules[B3_EQUIV] };
	f[n++] = (struct unit_field){ "volleyed", FIELD_BOOL,
	    (un->state[B3_MARKS] & B3M_VOLLEYED) != 0 };
	f[n++] = (struct unit_field){ "frontage", FIELD_INCHES, un->base_w };
	return n;
}

void
bb3_unit_marks(const struct battle *b, int u, struct ruleset_marks *m)
{
	const struct unit *un = &b->units[u];

	/* (fleeing is the core's routed markers, told by routed_word) */
	if (!fleeing(b, u) && (un->state[B3_MARKS] & B3M_PINNED)) {
		snprintf(m->label, sizeof(m->label), "pinned");
		snprintf(m->state, sizeof(m->state), "pinned this turn");
	}
	if (un->rules[B3_MORALE] > 0)
		snprintf(m->rated, sizeof(m->rated), "morale %d",
		    un->rules[B3_MORALE]);
}

void
bb3_crib(const struct battle *b, int side, char *out, size_t size)
{
	char a[16], c[16], d[16];

	(void)side;
	snprintf(out, size,
	    "Command: a d10 at or under your commander's quality + %d (-1 a full "
	    "12\" away, -1 militia, -1 a quarter lost, +1 elite or light); the "
	    "score is added to the move.\n"
	    "Moves: line %s\", column %s\", light and skirmishers %s\", cavalry "
	    "12\"; double beyond 12\" of the enemy.\n"
	    "Fire: points + d3, a figure a point; musket 12\" (6\" short), rifle "
	    "24\"; half at long range.\n"
	    "Morale: 2d6 at or under the morale value.\n",
	    ruleset_param(&ruleset_bb3, b, "command.base"),
	    geom_fmt_fx(ruleset_param(&ruleset_bb3, b, "move.line"), a, 16),
	    geom_fmt_fx(ruleset_param(&ruleset_bb3, b, "move.column"), c, 16),
	    geom_fmt_fx(ruleset_param(&ruleset_bb3, b, "move.light"), d, 16));
}

void
bb3_situation(const struct battle *b, int u, const unsigned char *seen,
    char *out, size_t size)
{
	fx gap;
	int v = b3_nearest_enemy(b, u, &gap), s, any = 0, r, who;
	char g[16], order[64] = "";

	out[0] = '\0';
	r = bb3_order_rating(b, u, &who);
	if (cls(b, u) & B3C_NATIVE)
		snprintf(order, sizeof(order), "moves unless a d10 + %d stands lost "
		    "makes %d", b3_stands_lost(b, u),
		    ruleset_param(&ruleset_bb3, b, "native.remove"));
	else if (who < 0)
		snprintf(order, sizeof(order), "has no commander to order it on");
	else if (r > 0)
		snprintf(order, sizeof(order), "moves on a d10 of %d or less", r);
	else
		snprintf(order, sizeof(order), "cannot be ordered on (its rating "
		    "here is %d)", r);
	if (v >= 0)
		FOR_STANDS(b, v, s)
			any |= alive(b, s) && (seen == NULL || seen[s]);
	if (!any)
		snprintf(out, size, "      %s\n", order);
	else
		snprintf(out, size, "      %s; nearest enemy: %s, %s\" away\n",
		    order, b->units[v].name, geom_fmt_fx(gap, g, 16));
}

/* The side's own lines, for HELP and the welcome: what they do, and
 * what the side has given so far. */
static void
bb3_welcome(const struct battle *b, int side, int step, struct text *t)
{
	const struct bb3_state *st = bb3_cstate(b);
	int r = st->side_response[side];

	(void)step;
	text_add(t, "\nLines for your whole side (each stands until you send "
	    "another):\n"
	    "  INITIATIVE: FIRST|SECOND: when you win the initiative roll at a "
	    "turn's end,\n    move first or second in the next turn (now: %s)\n"
	    "  IF CHARGED: STAND|EVADE|FLEE|FIRE AND FLEE|ABOUT FACE: how your "
	    "units with\n    no IF CHARGED order of their own answer a charge "
	    "(now: %s)\n", st->second[side] ? "SECOND" : "FIRST",
	    r > 0 && r < B3R_COUNT ? resp_names[r] : "STAND");
}

static void
bb3_rules_note(struct text *t)
{
	text_add(t, "Each side's standing choices are lines of their own: "
	    "INITIATIVE: FIRST|SECOND\n(what it does when it wins the "
	    "initiative roll at a turn's end) and IF CHARGED:\nRESPONSE (how "
	    "its units answer a charge, where a unit has no IF CHARGED\norder "
	    "of its own).  docs/rules-bb3.md says how the text is read.\n");
}

static void
bb3_type_numbers(const struct troop_type *t, char *out, size_t size)
{
	/* The morale values are the note on missing numbers' (the text's
	 * table lost them); the figures to a stand are the text's. */
	snprintf(out, size, "morale %d (default)  stand %d figures (text)",
	    t->numbers[0], t->numbers[2]);
}

static const struct event_msg b3_messages[] = {
	EVENT_MSG(B3_M_INITIATIVE),
	EVENT_MSG(B3_M_INITIATIVE_TIE),
	EVENT_MSG(B3_R_INITIATIVE),
	EVENT_MSG(B3_M_PANIC_ROUTS),
	EVENT_MSG(B3_M_PINNED),
	EVENT_MSG(B3_M_RALLIES),
	EVENT_MSG(B3_M_FAILS_TO_RALLY),
	EVENT_MSG(B3_M_CANNOT_CHARGE),
	EVENT_MSG(B3_M_CHARGES),
	EVENT_MSG(B3_M_RESPONDS),
	EVENT_MSG(B3_M_CONTACT),
	EVENT_MSG(B3_M_CONTACT_CROWDED),
	EVENT_MSG(B3_M_CHARGE_SHORT),
	EVENT_MSG(B3_M_CHARGE_STOPS),
	EVENT_MSG(B3_M_WINS_DRAW),
	EVENT_MSG(B3_M_CAUGHT),
	EVENT_MSG(B3_M_FALLS_BACK),
	EVENT_MSG(B3_R_CHARGE),
	EVENT_MSG(B3_R_EVADE),
	EVENT_MSG(B3_R_FALL_BACK),
	EVENT_MSG(B3_M_ORDERED),
	EVENT_MSG(B3_M_NO_ORDER),
	EVENT_MSG(B3_M_NATIVE_STAY),
	EVENT_MSG(B3_M_NATIVE_LEAVE),
	EVENT_MSG(B3_M_IN_CONTACT),
	EVENT_MSG(B3_M_MOVES),
	EVENT_MSG(B3_M_MOVES_RIVER),
	EVENT_MSG(B3_M_RIDES),
	EVENT_MSG(B3_M_JOINS),
	EVENT_MSG(B3_R_COMMAND),
	EVENT_MSG(B3_R_NATIVE),
	EVENT_MSG(B3_M_CANNOT_FIRE),
	EVENT_MSG(B3_M_FIRES),
	EVENT_MSG(B3_M_LOSES),
	EVENT_MSG(B3_M_OFFICER_KILLED),
	EVENT_MSG(B3_M_MISFIRE),
	EVENT_MSG(B3_M_SCATTERS),
	EVENT_MSG(B3_M_SHELL_ON),
	EVENT_MSG(B3_M_SHELL_EMPTY),
	EVENT_MSG(B3_M_SHELL_HITS),
	EVENT_MSG(B3_R_FIRE),
	EVENT_MSG(B3_R_OFFICER),
	EVENT_MSG(B3_R_PICK_OFF),
	EVENT_MSG(B3_R_SCATTER),
	EVENT_MSG(B3_R_DIRECTION),
	EVENT_MSG(B3_R_DISTANCE),
	EVENT_MSG(B3_R_WHICH),
	EVENT_MSG(B3_R_SHELL),
	EVENT_MSG(B3_M_MELEE),
	EVENT_MSG(B3_M_WINS),
	EVENT_MSG(B3_M_LOSES_MELEE),
	EVENT_MSG(B3_M_PURSUES),
	EVENT_MSG(B3_M_WHEELS),
	EVENT_MSG(B3_R_MELEE),
	EVENT_MSG(B3_R_DRAW),
	EVENT_MSG(B3_R_PURSUIT),
	EVENT_MSG(B3_M_MORALE_PASSES),
	EVENT_MSG(B3_M_MORALE_FAILS),
	EVENT_MSG(B3_M_BREAKS),
	EVENT_MSG(B3_M_RUNS),
	EVENT_MSG(B3_M_RUNS_OFF),
	EVENT_MSG(B3_M_REFORMS),
	EVENT_MSG(B3_M_REFORMS_WHOLE),
	EVENT_MSG(B3_M_REMOVED),
	EVENT_MSG(B3_M_OFFICER_LOST),
	EVENT_MSG(B3_R_MORALE),
	EVENT_MSG(B3_R_RUN),
	EVENT_MSG(B3_R_WAY),
	EVENT_MSG(B3_R_ODD),
	EVENT_MSGS_CORE,
	{ .id = NULL }
};

static const struct ruleset_words bb3_words = {
	.messages = b3_messages,
	.type_numbers = bb3_type_numbers,
	.unit_fields = bb3_unit_fields,
	.unit_marks = bb3_unit_marks,
	.marks_key = "(pinned): may fire, but not charge or move this turn",
	.situation = bb3_situation,
	.crib = bb3_crib,
	.strength_word = "figures",
	.stand_word = "stand",
	.routed_word = "fleeing",
	.form_phrase = bb3_form_phrase,
	.yards_per_foot = 100,
	.column_word = "column",
	.limbered_word = "limbered",
	.stand_markers = 1,
	/* (fleeing is the one stand marker of bb3's; pinned is a unit's) */
	.key_omits = KEY_OMIT_DISORDER | KEY_OMIT_PERMANENT |
	    KEY_OMIT_STATIONARY | KEY_OMIT_COMMAND,
	.welcome = bb3_welcome,
	.rules_note = bb3_rules_note,
	.scale_note = "A stand is six figures of formed foot (four of light "
	    "infantry, three of horse, two half-stands of three skirmishers); "
	    "12 inches are about 100 yards.",
};

static const char *const bb3_weapons[] = { "carbine", NULL };

const struct ruleset ruleset_bb3 = {
	.name = "bb3",
	.title = "Bloodybacks 3 (AWI, December 2002)",
	.types = bb3_types,
	.ntypes = (int)(sizeof(bb3_types) / sizeof(bb3_types[0])),
	.params = bb3_params,
	.nparams = (int)(sizeof(bb3_params) / sizeof(bb3_params[0])),
	.campaign_params = bb3_campaign_params,
	.ncampaign_params = (int)(sizeof(bb3_campaign_params) /
	    sizeof(bb3_campaign_params[0])),
	.verbs = bb3_verbs,
	.nverbs = (int)(sizeof(bb3_verbs) / sizeof(bb3_verbs[0])),
	.turn_minutes = 10,
	.tables = bb3_tables,
	.ntables = (int)(sizeof(bb3_tables) / sizeof(bb3_tables[0])),
	.order_line = bb3_order_line,
	.order_text = bb3_order_text,
	.prepare = bb3_prepare,
	.turn_order = bb3_turn_order,
	.adjudicate = bb3_adjudicate,
	.preview = bb3_preview,
	.sees = bb3_sees,
	.form_check = bb3_form_check,
	.step_check = bb3_step_check,
	.verb_aliases = bb3_aliases,
	.form_words = "LINE, COLUMN, LIMBERED or UNLIMBERED",
	.form_word = bb3_form_word,
	/* A stand is 1.6" wide (a 40 mm base: the text names figures on
	 * stands but no base sizes), unless the unit's line gives its
	 * frontage. */
	.stand_width = 160,
	.road_spacer = 0,
	.weapons = bb3_weapons,
	.words = &bb3_words,
};

/* --- the scenario ------------------------------------------------------ */

int
bb3_prepare(struct battle *b, struct err *e)
{
	int u, k, s;

	if (b->sequence != SEQ_ALTERNATE || b->nsides != 2)
		return err_set(e, ERR_USER, "bb3 is played by two sides in alternate "
		    "player turns: write 'sequence alternate SIDE SIDE'");
	if (b->turns >= B3_MAX_TURNS)
		return err_set(e, ERR_USER, "bb3 plays at most %d turns",
		    B3_MAX_TURNS - 1);
	for (u = 0; u < b->nunits; u++) {
		struct unit *un = &b->units[u];
		const struct troop_type *t = ruleset_type(&ruleset_bb3, un->type);
		struct pt cen;

		if (t == NULL)
			continue;
		/* Its morale value: the scenario's `morale N`, else its
		 * type's (the loader keeps either in the unit's morale). */
		un->rules[B3_MORALE] = un->morale;
		un->rules[B3_CLASS] = t->numbers[1];
		un->rules[B3_EQUIV] = t->numbers[2];
		if (un->weapon != WEAPON_MUSKET && un->weapon != WEAPON_RIFLE &&
		    un->weapon != WEAPON_CARBINE && un->weapon != WEAPON_NONE &&
		    un->weapon != WEAPON_LIGHT_GUN && un->weapon != WEAPON_FIELD_GUN &&
		    un->weapon != WEAPON_HEAVY_GUN && un->weapon != WEAPON_HOWITZER)
			return err_set(e, ERR_USER, "unit \"%s\": bb3 has no %s (its "
			    "weapons: musket, rifle, carbine, light-gun, field-gun, "
			    "heavy-gun, howitzer)", un->name,
			    ruleset_weapon_name(&ruleset_bb3, un->weapon));
		if (battle_unit_form(b, u) == FORM_ROAD && un->kind != KIND_ARTILLERY &&
		    battle_unit_centre(b, u, &cen))
			b3_lay_out(b, u, cen, 1, b->stands[un->first_stand].facing);
	}
	for (u = 0; u < b->nunits; u++) {
		int v;

		b->units[u].rules[B3_FIGURES0] = 0;
		FOR_STANDS(b, u, s)
			b->units[u].rules[B3_FIGURES0] += b->stands[s].sp0 > 0 ?
			    b->stands[s].sp0 : b->stands[s].sp;
		for (v = u + 1; v < b->nunits; v++)
			if (on_table(b, u) && on_table(b, v) &&
			    b->units[u].side == b->units[v].side &&
			    b3_overlaps(b, u, v))
				return err_set(e, ERR_USER, "unit \"%s\" stands on \"%s\"",
				    b->units[u].name, b->units[v].name);
	}
	for (k = 0; k < b->ncommanders; k++)
		if (b->commanders[k].quality == 0)
			b->commanders[k].quality = ruleset_param(&ruleset_bb3, b,
			    "command.quality");
	for (k = 0; k < b->nbrigades; k++) {
		b->brigades[k].sp0 = 0;
		for (u = 0; u < b->nunits; u++)
			if (b->units[u].brigade == k)
				b->brigades[k].sp0 += figures(b, u);
	}
	return 0;
}
