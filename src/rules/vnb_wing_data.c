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
	{ .id = "grenadiers", .kind = KIND_INFANTRY, .speed = FI, .morale = 6, .weapon = WEAPON_MUSKET, .abil = ABIL_SH, .label = "British grenadiers" },
	{ .id = "light-company", .kind = KIND_DETACHMENT, .speed = FI, .morale = 6, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "British light company" },
	{ .id = "guards", .kind = KIND_INFANTRY, .speed = FI, .morale = 6, .weapon = WEAPON_MUSKET, .abil = ABIL_SH, .label = "Guards" },
	{ .id = "british-line", .kind = KIND_INFANTRY, .speed = FI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = 0, .label = "British line" },
	{ .id = "highlanders", .kind = KIND_INFANTRY, .speed = FI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = ABIL_SH, .label = "Highlanders" },
	{ .id = "light-dragoons", .kind = KIND_MOUNTED, .speed = LC, .morale = 6, .weapon = WEAPON_NONE, .abil = 0, .label = "British light dragoons" },
	{ .id = "loyalist-line", .kind = KIND_INFANTRY, .speed = SI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Loyalist line" },
	{ .id = "loyalist-trained-militia", .kind = KIND_INFANTRY, .speed = SI, .morale = 4, .weapon = WEAPON_MUSKET, .abil = ABIL_NE | ABIL_PT, .label = "Loyalist trained militia" },
	{ .id = "loyalist-raw-militia", .kind = KIND_INFANTRY, .speed = SI, .morale = 4, .weapon = WEAPON_MUSKET, .abil = ABIL_MIL | ABIL_PT, .label = "Loyalist raw militia" },
	{ .id = "legion-infantry", .kind = KIND_DETACHMENT, .speed = FI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "Loyalist legion infantry" },
	{ .id = "legion-cavalry", .kind = KIND_MOUNTED, .speed = LC, .morale = 5, .weapon = WEAPON_NONE, .abil = 0, .label = "Loyalist legion cavalry" },
	/* Not in the text's tables (its MI label only): morale 5 as legion
	 * infantry, a default. */
	{ .id = "mounted-infantry", .kind = KIND_MOUNTED, .speed = LC, .morale = 5, .weapon = WEAPON_MUSKET, .abil = ABIL_MI, .label = "Mounted infantry (dismounts as detachments; morale a default)" },
	{ .id = "german-grenadiers", .kind = KIND_INFANTRY, .speed = SI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = ABIL_SH, .label = "German grenadiers" },
	{ .id = "fusiliers", .kind = KIND_INFANTRY, .speed = SI, .morale = 6, .weapon = WEAPON_MUSKET, .abil = 0, .label = "German fusiliers" },
	{ .id = "musketeers", .kind = KIND_INFANTRY, .speed = SI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = 0, .label = "German musketeers" },
	{ .id = "jaegers", .kind = KIND_DETACHMENT, .speed = FI, .morale = 6, .weapon = WEAPON_RIFLE, .abil = ABIL_SK, .label = "German jaegers" },
	/* Americans and allies */
	{ .id = "light-infantry", .kind = KIND_DETACHMENT, .speed = FI, .morale = 6, .weapon = WEAPON_MUSKET, .abil = ABIL_SH | ABIL_SK, .label = "American light infantry (late war)" },
	{ .id = "continentals-pre-1778", .kind = KIND_INFANTRY, .speed = SI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = ABIL_PT, .label = "Continentals (pre-1778)" },
	{ .id = "continentals-post-1778", .kind = KIND_INFANTRY, .speed = FI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = 0, .label = "Continentals (post-1778)" },
	{ .id = "state-infantry", .kind = KIND_INFANTRY, .speed = FI, .morale = 6, .weapon = WEAPON_MUSKET, .abil = 0, .label = "State infantry" },
	{ .id = "experienced-militia", .kind = KIND_INFANTRY, .speed = SI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = ABIL_PT, .label = "Experienced militia" },
	{ .id = "trained-militia", .kind = KIND_INFANTRY, .speed = SI, .morale = 4, .weapon = WEAPON_MUSKET, .abil = ABIL_PT, .label = "Trained militia" },
	{ .id = "raw-militia", .kind = KIND_INFANTRY, .speed = SI, .morale = 4, .weapon = WEAPON_MUSKET, .abil = ABIL_MIL | ABIL_PT, .label = "Raw militia" },
	{ .id = "american-legion-infantry", .kind = KIND_DETACHMENT, .speed = FI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = ABIL_SK, .label = "American legion infantry" },
	{ .id = "continental-dragoons", .kind = KIND_MOUNTED, .speed = LC, .morale = 6, .weapon = WEAPON_NONE, .abil = 0, .label = "Dragoon or legion cavalry" },
	{ .id = "state-cavalry", .kind = KIND_MOUNTED, .speed = LC, .morale = 4, .weapon = WEAPON_NONE, .abil = 0, .label = "State cavalry" },
	{ .id = "french-grenadiers", .kind = KIND_INFANTRY, .speed = SI, .morale = 6, .weapon = WEAPON_MUSKET, .abil = ABIL_SH, .label = "French grenadiers" },
	{ .id = "chasseurs", .kind = KIND_INFANTRY, .speed = FI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = 0, .label = "French chasseurs" },
	{ .id = "french-line", .kind = KIND_INFANTRY, .speed = SI, .morale = 5, .weapon = WEAPON_MUSKET, .abil = 0, .label = "French line infantry" },
	{ .id = "french-light-cavalry", .kind = KIND_MOUNTED, .speed = LC, .morale = 6, .weapon = WEAPON_NONE, .abil = 0, .label = "French light cavalry" },
	{ .id = "lancers", .kind = KIND_MOUNTED, .speed = LC, .morale = 6, .weapon = WEAPON_NONE, .abil = ABIL_MC, .label = "French lancers" },
	/* Native Americans: bands of detachments of 1 SP; their morale is on
	 * the stand (6 here, a default: shock at 6 or 7), their weapon row the
	 * text's own. */
	{ .id = "native-americans", .kind = KIND_DETACHMENT, .speed = FI, .morale = 6, .weapon = WEAPON_NATIVE, .abil = ABIL_SK | ABIL_NA, .label = "Native American band (morale a default; set it per band)" },
	/* Artillery: the American table's morale 5 for both sides. */
	{ .id = "light-artillery", .kind = KIND_ARTILLERY, .speed = 12, .morale = 5, .weapon = WEAPON_LIGHT_GUN, .abil = 0, .label = "Light artillery (3-4 lb)" },
	{ .id = "field-artillery", .kind = KIND_ARTILLERY, .speed = 8, .morale = 5, .weapon = WEAPON_FIELD_GUN, .abil = 0, .label = "Field artillery (6-9 lb)" },
	{ .id = "howitzer", .kind = KIND_ARTILLERY, .speed = 8, .morale = 5, .weapon = WEAPON_HOWITZER, .abil = 0, .label = "Field howitzers (5.5-6 in)" },
	{ .id = "heavy-artillery", .kind = KIND_ARTILLERY, .speed = 4, .morale = 5, .weapon = WEAPON_HEAVY_GUN, .abil = 0, .label = "Heavy artillery (12 lb)" },
};
const int vnb_ntypes = (int)(sizeof(vnb_types) / sizeof(vnb_types[0]));

#define TEXT "text"
#define DEF  "default"
#define LOST "the text's table lost its numbers; the project's proposed default (docs/rules-vnb-wing.md)"

const struct rule_param vnb_params[] = {
	{ .name = "command.radius", .value = 600, .source = TEXT, .why = "in command within 6\" of a superior commander", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "command.unit-radius", .value = 300, .source = TEXT, .why = "in command within 3\" of its own unit commander", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "contact", .value = 10, .source = DEF, .why = "stands within 0.10\" count as touching (measuring tolerance)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "stop-short", .value = 25, .source = TEXT, .why = "a victorious stand stops a quarter inch from the enemy; used for every non-charge move", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "terrain.step", .value = 25, .source = DEF, .why = "terrain is judged every quarter inch along a move", .unit = PARAM_INCHES, .min = 5, .max = 10000 },
	{ .name = "arc", .value = 45, .source = DEF, .why = "front arc half-width for fire; the text gives no arc, 45 matches the oblique move", .unit = PARAM_COUNT, .min = 1, .max = 180 },
	{ .name = "flank.arc", .value = 45, .source = DEF, .why = "a stand is attacked in flank or rear from more than 45 degrees off its front (the text gives no angle; the same as the fire arc)", .unit = PARAM_COUNT, .min = 1, .max = 180 },
	{ .name = "road.half-width", .value = 75, .source = DEF, .why = "a stand is on a road when its centre is within 0.75\" of the road's line (the text gives no width; a road drawn 1.5\" wide)", .unit = PARAM_INCHES, .min = 1, .max = 10000 },
	{ .name = "los.end", .value = 100, .source = DEF, .why = "line of sight ignores the first and last inch of the line, the ground the two stands stand on (the text: on the edge of cover sees out)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "los.forest", .value = 400, .source = TEXT, .why = "stands inside the same forest or thicket see each other up to 4\" away", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "los.wood", .value = 1200, .source = TEXT, .why = "stands inside the same wood see each other up to 12\" away", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "los.far", .value = 800, .source = TEXT, .why = "a stand two contours above an obstacle sees past it when it is 8\" or more from the lower stand", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "los.cover-height", .value = 1, .source = DEF, .why = "woods, forest, thicket, towns and villages stand one contour above their ground for sight over them (the text treats woods as obstacles of a height it does not give)", .unit = PARAM_COUNT, .min = 0, .max = 10 },
	{ .name = "los.step", .value = 50, .source = DEF, .why = "line of sight is judged every half inch along the line (measuring grain)", .unit = PARAM_INCHES, .min = 5, .max = 10000 },
	{ .name = "rout.overshoot", .value = 600, .source = DEF, .why = "a routing or falling-back stand that would end on another stand goes on, up to 6\" more, until it stands clear (the text: it may pass through, not stop on, friends)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "abandoned.rate", .value = 1200, .source = DEF, .why = "the crews of guns abandoned in a rout move as infantry: 12\", slow infantry's rate (the text gives no rate)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "exhaust.morale-min", .value = 4, .source = DEF, .why = "morale below 4 uses the morale 4 exhaustion level (the text's table starts at 4)", .unit = PARAM_COUNT, .min = 4, .max = 7 },
	{ .name = "exhaust.morale-max", .value = 7, .source = DEF, .why = "morale above 7 uses the morale 7 exhaustion level (the text's table ends at 7)", .unit = PARAM_COUNT, .min = 4, .max = 7 },
	{ .name = "danger.width", .value = 200, .source = TEXT, .why = "artillery danger zone: 2\" either side of the barrel line", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "dice.infantry.fire", .value = 2, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.infantry.melee", .value = 2, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.infantry.fire-stationary", .value = 3, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.infantry.melee-stationary", .value = 3, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.pt.fire", .value = 1, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.pt.melee", .value = 2, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.pt.fire-stationary", .value = 2, .source = TEXT, .why = "the surviving \"2 2\" of the poorly trained row, read as the stationary columns", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.pt.melee-stationary", .value = 2, .source = TEXT, .why = "the surviving \"2 2\" of the poorly trained row, read as the stationary columns", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.detachment.fire", .value = 1, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.detachment.melee", .value = 1, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.artillery.fire", .value = 2, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.artillery.melee", .value = 1, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.artillery.fire-stationary", .value = 3, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.artillery.melee-stationary", .value = 1, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 0, .max = 12 },
	{ .name = "dice.mounted.melee", .value = 2, .source = TEXT, .why = "mounted infantry roll 2 melee dice; light dragoons taken the same", .unit = PARAM_COUNT, .min = 0, .max = 12 },
	/* The text's hit table: a row a weapon, a melee/short and a long
	 * column. */
	{ .name = "hit.musket.short", .value = 5, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.musket.long", .value = 6, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.rifle.short", .value = 5, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.rifle.long", .value = 6, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.native.short", .value = 5, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.native.long", .value = 6, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.light-gun.short", .value = 5, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.light-gun.long", .value = 6, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.field-gun.short", .value = 5, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.field-gun.long", .value = 6, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.howitzer.short", .value = 5, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.howitzer.long", .value = 6, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.heavy-gun.short", .value = 5, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.heavy-gun.long", .value = 6, .source = DEF, .why = LOST, .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "hit.melee", .value = 5, .source = DEF, .why = "the hit number in melee of stands with no weapon row (mounted); the text's table has rows only for weapons", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "save", .value = 5, .source = DEF, .why = "saves succeed on 5-6; no number survives in the text", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "range.musket.short", .value = 200, .source = DEF, .why = "about 50 yards at 25 yards an inch", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.musket.long", .value = 400, .source = DEF, .why = "about 100 yards, effective musket range", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.rifle.short", .value = 200, .source = DEF, .why = "as the musket", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.native.short", .value = 200, .source = DEF, .why = "as the musket (MISSING-NUMBERS.md)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.native.long", .value = 400, .source = DEF, .why = "as the musket (MISSING-NUMBERS.md)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.rifle.long", .value = 800, .source = DEF, .why = "about 200 yards", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.light-gun.short", .value = 600, .source = DEF, .why = "canister range of 3-4 lb guns", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.light-gun.long", .value = 1600, .source = DEF, .why = "about 400 yards", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.field-gun.short", .value = 800, .source = DEF, .why = "canister range of 6-9 lb guns", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.field-gun.long", .value = 2400, .source = DEF, .why = "about 600 yards", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.howitzer.short", .value = 600, .source = DEF, .why = "canister range", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.howitzer.long", .value = 2000, .source = DEF, .why = "about 500 yards", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.heavy-gun.short", .value = 800, .source = DEF, .why = "canister range of 12 lb guns", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "range.heavy-gun.long", .value = 3200, .source = DEF, .why = "about 800 yards", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "exhaust.morale4", .value = 40, .source = TEXT, .why = "exhaustion: 40% of SP for morale 4", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "exhaust.morale5", .value = 50, .source = TEXT, .why = "exhaustion: 50% of SP for morale 5", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "exhaust.morale6", .value = 60, .source = TEXT, .why = "exhaustion: 60% of SP for morale 6", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "exhaust.morale7", .value = 70, .source = DEF, .why = "the table stops at 6; 70% continues it for morale 7", .unit = PARAM_PERCENT, .min = 1, .max = 100 },
	{ .name = "rout.sp-loss", .value = 1, .source = TEXT, .why = "a routing stand loses 1 SP", .unit = PARAM_COUNT, .min = 0, .max = 20 },
	{ .name = "dismounted.rate", .value = 1600, .source = DEF, .why = "mounted infantry on foot move as fast infantry detachments, 16\" (the text: they serve on foot as detachments; it gives no rate)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "native.cavalry-move", .value = 1200, .source = TEXT, .why = "mounted troops breaking through disordered Native Americans may move up to 12\", then are disordered", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "retire.per-hit", .value = 600, .source = TEXT, .why = "mounted stands that elect to retire move 6\" a hit from fire, for a save", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "town.capacity", .value = 2, .source = TEXT, .why = "a town block (farmstead) holds up to two infantry stands", .unit = PARAM_COUNT, .min = 0, .max = 20 },
	{ .name = "village.capacity", .value = 1, .source = TEXT, .why = "a village block holds a single detachment", .unit = PARAM_COUNT, .min = 0, .max = 20 },
	{ .name = "detachment.sp", .value = 1, .source = DEF, .why = "an infantry stand able to skirmish breaks into detachments of 1 SP, one for each SP it has (the text gives no number; its Native bands and light battalions are detachments of 1 SP each)", .unit = PARAM_COUNT, .min = 1, .max = 20 },
	{ .name = "unsupported.radius", .value = 300, .source = DEF, .why = "artillery is unsupported with no friendly foot stand within 3\"", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	/* Fog of War cards (a scenario's `cards` line). */
	{ .name = "cards.hand", .value = 0, .source = DEF, .why = "cards a side holds; 0: by its players, as the three rows below (the text's table), the same for every side (the smallest)", .unit = PARAM_COUNT, .min = 0, .max = 40 },
	{ .name = "cards.hand.one", .value = 4, .source = TEXT, .why = "a side with one player holds 4 cards", .unit = PARAM_COUNT, .min = 0, .max = 40 },
	{ .name = "cards.hand.two", .value = 3, .source = TEXT, .why = "a side with two players holds 3 cards each", .unit = PARAM_COUNT, .min = 0, .max = 40 },
	{ .name = "cards.hand.more", .value = 2, .source = TEXT, .why = "a side with three or more players holds 2 cards each", .unit = PARAM_COUNT, .min = 0, .max = 40 },
	{ .name = "cards.sharpshooters", .value = 1200, .source = TEXT, .why = "Sharpshooters: a commander within 12\" of a sharpshooter unit", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "cards.regulars", .value = 1800, .source = TEXT, .why = "Regulars!!!: a rebel unit within 18\" of British infantry", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "cards.stream", .value = 1200, .source = TEXT, .why = "Local Knowledge!: a 12\" section of stream (6\" either side of the point named)", .unit = PARAM_INCHES, .min = 0, .max = 10000 },
	{ .name = "cards.officers.hit", .value = 4, .source = TEXT, .why = "Officer Casualties: the unit commander falls on 4-6", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "cards.pick-off.hit", .value = 2, .source = TEXT, .why = "Pick Off the Officers: the unit commander falls on 2-6", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "cards.sharpshooters.unhorse", .value = 3, .source = TEXT, .why = "Sharpshooters: 3-4 kills the commander's horse (no command for a turn)", .unit = PARAM_COUNT, .min = 1, .max = 7 },
	{ .name = "cards.sharpshooters.hit", .value = 5, .source = TEXT, .why = "Sharpshooters: 5-6 hits him (out of play for half a d6 turns, rounded up)", .unit = PARAM_COUNT, .min = 1, .max = 7 },
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
	[VC_OFFICER_CASUALTIES] = { .name = "Officer Casualties", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_ENEMY_UNIT, .help = "an enemy unit within the long range of one of your units with small arms: on 4-6 its unit commander is out for a turn and it tests morale one worse" },
	[VC_GOOD_GUNNERY] = { .name = "Good Gunnery!!", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_OWN_UNIT, .help = "one of your artillery units rerolls the dice that missed, in its next fire before your next phase" },
	[VC_BAD_GUNNERY] = { .name = "Bad Gunnery!!", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_ENEMY_UNIT, .help = "hits by an enemy artillery unit get a second save until your next phase" },
	[VC_DEVASTATING_VOLLEY] = { .name = "Devastating Volley", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_OWN_UNIT, .help = "one of your infantry units rerolls the dice that missed, in its next fire before your next phase" },
	[VC_DISAPPOINTING_VOLLEY] = { .name = "Disappointing Volley", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_ENEMY_UNIT, .help = "hits by an enemy infantry unit's fire get a second save until your next phase" },
	[VC_SHARPSHOOTERS] = { .name = "Sharpshooters", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_ENEMY_COMMANDER, .help = "an enemy commander within 12\" of your sharpshooters: 3-4 he cannot command for a turn, 5-6 he is out for half a d6 turns" },
	[VC_BAD_GOING] = { .name = "Bad Going", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_ENEMY_UNIT, .help = "an enemy unit moves a d6 inches less (mounted 2d6) until your next phase" },
	[VC_GOOD_GOING] = { .name = "Good Going", .allegiance = CARD_NEUTRAL, .count = 2, .target = CT_OWN_UNIT, .help = "one of your units moves a d6 inches more (mounted 2d6) this phase" },
	[VC_COLD_STEEL_CROWN] = { .name = "Cold Steel!!! (Crown)", .allegiance = CARD_CROWN, .count = 1, .target = CT_ENEMY_UNIT, .help = "a rebel unit meleed by any crown unit until your next phase tests morale one worse" },
	[VC_COLD_STEEL_BRITISH] = { .name = "Cold Steel!!! (British)", .allegiance = CARD_CROWN, .count = 1, .target = CT_ENEMY_UNIT, .help = "a rebel unit meleed by a British unit until your next phase tests morale one worse" },
	[VC_GOD_SAVE_REROLL] = { .name = "God Save the King!!!", .allegiance = CARD_CROWN, .count = 1, .target = CT_OWN_UNIT, .help = "one of your units rerolls its failed morale tests until your next phase" },
	[VC_GOD_SAVE_RALLY] = { .name = "God Save the King!!", .allegiance = CARD_CROWN, .count = 1, .target = CT_OWN_UNIT, .help = "one of your British units rallies from rout at once, no commander needed" },
	[VC_GOD_SAVE_STEADY] = { .name = "God Save the King!", .allegiance = CARD_CROWN, .count = 1, .target = CT_OWN_UNIT, .help = "one of your British units tests morale one better until your next phase" },
	[VC_GOTT_MIT_UNS] = { .name = "Gott mit uns!", .allegiance = CARD_CROWN, .count = 1, .target = CT_OWN_UNIT, .help = "one of your German units tests morale one better until your next phase" },
	[VC_PANIC] = { .name = "Panic!!!", .allegiance = CARD_CROWN, .count = 1, .target = CT_ENEMY_UNIT, .help = "a rebel militia unit that sees another rebel unit rout before your next phase tests morale one worse" },
	[VC_REGULARS_SHAKEN] = { .name = "Regulars!!!", .allegiance = CARD_CROWN, .count = 1, .target = CT_ENEMY_UNIT, .help = "a rebel unit within 18\" of British infantry that sees it tests morale one worse at once" },
	[VC_REGULARS_CROWN] = { .name = "Regulars!!", .allegiance = CARD_CROWN, .count = 1, .target = CT_OWN_UNIT, .help = "one of your units recovers from disorder at once, at no cost" },
	[VC_REGULARS_BRITISH] = { .name = "Regulars!", .allegiance = CARD_CROWN, .count = 1, .target = CT_OWN_UNIT, .help = "one of your British units recovers from disorder at once, at no cost" },
	[VC_LOYALIST_KNOWLEDGE] = { .name = "Loyalist Knowledge", .allegiance = CARD_CROWN, .count = 1, .target = CT_OWN_UNIT, .help = "a Loyalist foot unit crosses rough ground at no extra cost this phase" },
	[VC_HIGHLANDER_FURY] = { .name = "Highlander Fury", .allegiance = CARD_CROWN, .count = 1, .target = CT_ENEMY_UNIT, .help = "a rebel unit meleed by Highlanders until your next phase tests morale one worse" },
	[VC_PICK_OFF] = { .name = "Pick Off the Officers, Boys", .allegiance = CARD_REBEL, .count = 1, .target = CT_ENEMY_UNIT, .help = "an enemy unit within range of your riflemen: on 2-6 its unit commander is out for a turn and it tests morale one worse" },
	[VC_OLD_LINE_STATE] = { .name = "The Old Line State!!!", .allegiance = CARD_REBEL, .count = 1, .target = CT_ENEMY_UNIT, .help = "a crown unit meleed by a Maryland or Delaware unit until your next phase tests morale one worse" },
	[VC_LIBERTY_RALLY] = { .name = "Liberty or Death!", .allegiance = CARD_REBEL, .count = 1, .target = CT_OWN_UNIT, .help = "one of your American units rallies from rout at once, no commander needed" },
	[VC_LIBERTY_REROLL] = { .name = "Liberty or Death!!", .allegiance = CARD_REBEL, .count = 2, .target = CT_OWN_UNIT, .help = "one of your American units rerolls its failed morale tests until your next phase" },
	[VC_LIBERTY_STEADY] = { .name = "Liberty or Death!!!", .allegiance = CARD_REBEL, .count = 2, .target = CT_OWN_UNIT, .help = "one of your American units tests morale one better until your next phase" },
	[VC_LOCAL_STREAM] = { .name = "Local Knowledge!", .allegiance = CARD_REBEL, .count = 1, .target = CT_POINT, .help = "12\" of stream about the point named count as marshy banked for crown units until your next phase" },
	[VC_LOCAL_KNOWLEDGE] = { .name = "Local Knowledge", .allegiance = CARD_REBEL, .count = 2, .target = CT_OWN_UNIT, .help = "an American foot unit crosses rough ground at no extra cost this phase" },
	[VC_COLD_STEEL_LIGHT] = { .name = "Cold Steel!!! (Light Infantry)", .allegiance = CARD_REBEL, .count = 1, .target = CT_ENEMY_UNIT, .help = "a crown unit meleed by American light infantry until your next phase tests morale one worse" },
	[VC_TARLETONS_QUARTER] = { .name = "Tarleton's Quarter", .allegiance = CARD_REBEL, .count = 1, .target = CT_ENEMY_UNIT, .help = "a Loyalist unit meleed by a rebel unit until your next phase tests morale one worse" },
};

const struct verb_def vnb_verbs[] = {
	{ .word = "ADVANCE", .verb = V_ADVANCE, .arg = ARG_DIST, .for_units = 1, .for_commanders = 0, .help = "ADVANCE N: move N inches straight ahead" },
	{ .word = "MOVE TO", .verb = V_MOVE_TO, .arg = ARG_POINT, .for_units = 1, .for_commanders = 1, .help = "MOVE TO X,Y: move the centre to the point" },
	{ .word = "WHEEL", .verb = V_WHEEL, .arg = ARG_TURN, .for_units = 1, .for_commanders = 0, .help = "WHEEL LEFT|RIGHT N: turn N degrees about the centre" },
	{ .word = "FACE", .verb = V_FACE, .arg = ARG_BEARING, .for_units = 1, .for_commanders = 0, .help = "FACE N: face the bearing N (0 north, 90 east)" },
	{ .word = "FORM", .verb = V_FORM, .arg = ARG_FORMATION, .for_units = 1, .for_commanders = 0, .help = "FORM LINE|SKIRMISH|DETACHMENTS|ROAD|MOUNTED: change formation" },
	{ .word = "FIRE AT", .verb = V_FIRE_AT, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "FIRE AT UNIT: choose the target of the unit's fire" },
	{ .word = "CHARGE", .verb = V_CHARGE, .arg = ARG_ENEMY, .for_units = 1, .for_commanders = 0, .help = "CHARGE UNIT: move straight at the enemy unit and melee it" },
	{ .word = "HOLD", .verb = V_HOLD, .arg = ARG_NONE, .for_units = 1, .for_commanders = 1, .help = "HOLD: stay and go stationary where allowed" },
	{ .word = "REFORM", .verb = V_REFORM, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "REFORM: recover from disorder (half the move)" },
	{ .word = "RETIRE", .verb = V_RETIRE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "RETIRE: (mounted) until your next phase, when hit by fire, retire 6\" a hit and roll a save for each" },
	{ .word = "NO ADVANCE", .verb = V_NO_ADVANCE, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "NO ADVANCE: if the unit wins a melee this phase, it keeps its ground instead of advancing into the ground the enemy left" },
	{ .word = "HURRY", .verb = V_HURRY, .arg = ARG_NONE, .for_units = 1, .for_commanders = 0, .help = "HURRY: cross bridges this phase at the cost of disorder instead of half the move" },
	{ .word = "JOIN", .verb = V_JOIN, .arg = ARG_FRIEND, .for_units = 0, .for_commanders = 1, .help = "JOIN UNIT: (commanders) ride to the rear of a friendly unit and move with it until ordered elsewhere" },
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

/* What the reports and the map call things in this ruleset. */
static const struct ruleset_words vnb_words = {
	.crib = vnb_crib,
	.situation = vnb_situation,
	.unit_fields = vnb_unit_fields,
	.yards_per_foot = 300,
	.column_word = "road march",
	.stand_markers = 1,
	.scale_note = "SP are strength points (50 men or one gun each).",
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
	.sees = vnb_sees,
	.in_command = vnb_in_command,
	.preview_battle = vnb_preview_battle,
	.form_check = vnb_form_check,
	.road_spacer = 1,
	.form_words = "LINE, SKIRMISH, DETACHMENTS, ROAD, MOUNTED or DISMOUNTED",
	.words = &vnb_words,
};
