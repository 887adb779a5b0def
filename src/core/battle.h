/*
 * battle.h - the state of one battle, as the rules core sees it.
 *
 * A struct battle is plain data: the table, the terrain, the sides and
 * their forces, where every stand is and what markers it carries.  The
 * scenario loader builds one, the store saves and loads one, the rules
 * core changes one.  Indexes, not pointers, link the parts (a unit names
 * its brigade by index), so a battle can be copied with memcpy and
 * compared byte for byte.  Every array is kept in scenario order, which is
 * the stable order every loop in the rules uses.
 *
 * Capacities are fixed and generous: room for 1,600 stands, two armies
 * of forty brigades (issue 24's largest benchmark battle), with their
 * units and commanders.  Going over one is an error at load time, never
 * a silent truncation.  None of them enters a hash, a record or the
 * store: those count what a battle holds (nstands, ...), never what it
 * could, and the store keeps rows, not this struct, so raising one
 * changes no result and no archive.  A bigger struct costs memory only
 * (206,944 bytes before issue 24, 322,912 with its larger capacities and
 * the terrain boxes, 355,728 with the unit index, b->near; battles are
 * copied whole by verify and preview, and one is held per game being
 * played).
 */
#ifndef DESPATCH_CORE_BATTLE_H
#define DESPATCH_CORE_BATTLE_H

#include "core/geom.h"
#include "core/grid.h"

#define BATTLE_MAX_SIDES      4
#define BATTLE_MAX_BRIGADES   128
#define BATTLE_MAX_COMMANDERS 160
#define BATTLE_MAX_UNITS      512
#define BATTLE_UNIT_RULES     4     /* a unit's ruleset numbers fixed ... */
#define BATTLE_UNIT_STATE     3     /* ... and changed by a step: the state
                                       layout of engines 3 to 5 takes three */
#define BATTLE_MAX_STANDS     2048
#define BATTLE_MAX_TERRAIN    256
#define BATTLE_MAX_POINTS     4096
#define BATTLE_MAX_SETTINGS   64
#define BATTLE_MAX_OBJECTIVES 16
#define BATTLE_MAX_ALIASES    128
#define BATTLE_MAX_ZONES      16
#define BATTLE_RULES_BLOCK    12288 /* bytes of a ruleset's own state */
#define BATTLE_NAME_MAX       96
#define BATTLE_ID_MAX         32

enum stand_kind {
	KIND_INFANTRY = 0,
	KIND_DETACHMENT,
	KIND_ARTILLERY,
	KIND_MOUNTED,
	KIND_COMMAND
};

enum formation {
	FORM_LINE = 0,   /* formed (mounted, for cavalry) */
	FORM_SKIRMISH,
	FORM_ROAD,       /* road march; limbered for guns */
	FORM_DISMOUNTED,
	/* Only as an order or a scenario's word, never a stand's form: an
	 * infantry unit able to skirmish broken into detachments (formed). */
	FORM_DETACHMENTS
};

enum weapon {
	WEAPON_NONE = 0,
	WEAPON_MUSKET,
	WEAPON_RIFLE,
	WEAPON_LIGHT_GUN,
	WEAPON_FIELD_GUN,
	WEAPON_HOWITZER,
	WEAPON_HEAVY_GUN,
	WEAPON_NATIVE,   /* the text's Native Americans row */
	/* Weapons a ruleset defines for itself (its header names them),
	 * from here. */
	WEAPON_RULESET,
	WEAPON_COUNT = WEAPON_RULESET + 4
};

/* Special abilities (the text's stand labels). */
#define ABIL_SS  0x01u  /* sharpshooters */
#define ABIL_R   0x02u  /* rifles */
#define ABIL_SK  0x04u  /* skirmish: may form detachments / skirmish order */
#define ABIL_SH  0x08u  /* shock */
#define ABIL_NE  0x10u  /* no elites */
#define ABIL_MC  0x20u  /* medium cavalry */
#define ABIL_PT  0x40u  /* poorly trained */
#define ABIL_MIL 0x80u  /* militia: poorly trained, permanently disordered */
#define ABIL_MI  0x100u /* mounted infantry: dismounts as detachments; always
                           counts as disordered while mounted */
#define ABIL_NA  0x200u /* Native Americans: their own morale and melee rules */

/* Stand markers every ruleset shares.  The other bits of a stand's
 * flags are its ruleset's, which names them in its own header (their
 * values are in the state hash, so they keep them). */
#define ST_DISORDERED 0x01u  /* yellow marker */
#define ST_PERMANENT  0x02u  /* red marker: never removed */
#define ST_STATIONARY 0x04u
#define ST_GONE       0x08u  /* removed from play */
#define ST_SPARE     0x100u  /* a form its unit is not in now: off the table,
                                but not lost (always with ST_GONE) */
#define ST_DETACH    0x200u  /* a detachment an infantry stand able to
                                skirmish breaks into (its slot, for good) */
#define ST_AWAY     0x8000u  /* a reinforcement not yet come onto the table
                                (always with ST_GONE): not lost, its SP
                                still its unit's (core/deploy.h) */
#define ST_SHARED     (ST_DISORDERED | ST_PERMANENT | ST_STATIONARY | \
                       ST_GONE | ST_SPARE | ST_DETACH | ST_AWAY)
#define ST_ROUTED     (ST_DISORDERED | ST_PERMANENT)

/* Brigade markers. */
#define BR_EXHAUSTED 0x01u
#define BR_COLLAPSED 0x02u

enum terrain_kind {
	T_WOOD = 0, T_FOREST, T_THICKET, T_SWAMP, T_MARSH, T_HILL, T_CROPS,
	T_BROKEN, T_CAMP, T_TOWN, T_VILLAGE, T_WORKS, T_FORD, T_BRIDGE,
	/* line kinds from here */
	T_TREELINE, T_FENCE, T_HEDGE, T_ROAD, T_STREAM, T_RIVER, T_SUNKEN_ROAD,
	T_KIND_COUNT
};
#define T_FIRST_LINE T_TREELINE

struct terrain {
	enum terrain_kind kind;
	char name[BATTLE_NAME_MAX];
	int level;       /* hill contour level */
	int marshy;      /* marshy-banked stream */
	int first_pt;    /* into battle.points */
	int npts;
	int trodden;     /* a marsh crossed, crops knocked down */
};

/* Where a side last saw an enemy unit, in a fog game: the centre of the
 * stands it saw, their facing and number, after which step (0: at the
 * start) of which turn. */
struct sighting {
	int unit;
	fx x, y;
	int facing, stands, step, turn;
};

/* Whose army a troop type (or a side) is: it gives a side its colour on
 * the map when the scenario names none (map.c).  Presentation only: no
 * rule reads it. */
enum nation {
	NATION_NONE = 0,     /* not said: a type both sides fielded */
	NATION_BRITISH,      /* British and Crown forces: red */
	NATION_CONTINENTAL,  /* Continentals and rebels: blue */
	NATION_HESSIAN,      /* Hessians and other Germans: dark blue */
	NATION_FRENCH,       /* white */
	NATION_LOYALIST,     /* green */
	NATION_NATIVE,       /* Native Americans: brown */
	NATION_COUNT
};

struct side {
	char id[BATTLE_ID_MAX];
	char name[BATTLE_NAME_MAX];
	/* From the side line's 'nation N' and 'colour C' (NATION_NONE and
	 * has_colour 0 when it names neither): how the map draws it. */
	enum nation nation;
	int has_colour;
	unsigned char colour[3];   /* RGB */
};

/* The nation named by word ("british", "crown", "continental",
 * "rebel", "american", "hessian", "german", "french", "loyalist",
 * "native"), or NATION_NONE. */
enum nation battle_nation_find(const char *word);
/* A colour by name (red, blue, dark-blue, white, green, brown, ...) or
 * as #rrggbb, into rgb: 0, or -1 when it is neither. */
int battle_colour_find(const char *word, unsigned char rgb[3]);

/* A commander's place in the chain of command. */
enum command_rank {
	RANK_ARMY = 0,
	RANK_WING,
	RANK_BRIGADE,
	RANK_UNIT
};

struct commander {
	char name[BATTLE_NAME_MAX];
	int side;
	int brigade;     /* his brigade (a unit commander's unit's); -1 for
	                    the army and wing commanders */
	enum command_rank rank;
	int unit;        /* a unit commander's unit, else -1 */
	struct pt pos;
	int facing;
	int gone;
	int attached;    /* the unit he has joined and moves with, or -1 */
	int out_until;   /* a casualty: commands nobody up to and
	                    including this step (0: never out) */
	int out_removed; /* ... and is off the table meanwhile (not only
	                    unhorsed) */
	int quality;     /* his command quality, where the ruleset rates it,
	                    else 0 */
	int arrives;     /* a reinforcement's: the game turn from which he
	                    comes on, out of the fight (out_until
	                    BATTLE_STEP_AWAY, out_removed) until then; 0:
	                    on the table from the start */
};

/* out_until of a commander still to come on (core/deploy.h): past any
 * step. */
#define BATTLE_STEP_AWAY (1 << 20)

struct brigade {
	char name[BATTLE_NAME_MAX];
	int side;
	int commander;   /* index into commanders */
	int wing;        /* its wing commander (index into commanders), or -1 */
	int level10;     /* exhaustion level in tenths of an SP */
	int sp0;         /* SP at the start of the battle */
	int lost;        /* SP lost so far */
	unsigned flags;
	int hits;        /* hits taken in the current combat step */
};

struct unit {
	char name[BATTLE_NAME_MAX];
	char type[BATTLE_ID_MAX];
	int side;
	int brigade;
	enum stand_kind kind;       /* now: detachment while broken into them */
	enum stand_kind base_kind;  /* as the scenario gave it */
	fx speed;        /* movement rate */
	int morale;
	enum weapon weapon;
	unsigned abil;
	char origin[BATTLE_ID_MAX];  /* the scenario's `origin` (british,
	                                maryland, ...), "" for the type's */
	/* Numbers only the unit's ruleset gives a meaning to (its header
	 * names each slot), 0 where it keeps none: those the scenario and
	 * the ruleset set at the start and no step changes (rules), and
	 * those a step may change (state), which the store keeps and the
	 * state hash signs. */
	int rules[BATTLE_UNIT_RULES];
	int state[BATTLE_UNIT_STATE];
	fx base_w;       /* its bases' frontage (0: its kind's) */
	int arrives;     /* a reinforcement: the game turn from which it comes
	                    on, its stands ST_AWAY until then (0: on the
	                    table from the start) */
	int first_stand; /* into battle.stands */
	int nstands;
};

struct stand {
	int unit;
	int sp;
	int sp0;
	struct pt pos;   /* centre */
	int facing;
	enum formation form;
	unsigned flags;
};

struct setting {
	char name[48];
	int value;
};

/* A place the scenario scores: whoever alone has a stand in good enough
 * order (not routed) within radius of it at the end holds it. */
struct objective {
	char name[BATTLE_NAME_MAX];
	struct pt at;
	fx radius;
	int points;
};

/* Where a side may deploy (the scenario's `deploy SIDE x0,y0 x1,y1`):
 * a battle with any opens with a deployment step (core/deploy.h). */
struct deploy_zone {
	int side;
	fx x0, y0, x1, y1;
};

/* How the scenario scores the end (core/result.h). */
struct victory {
	int exhausted;       /* points for each enemy brigade exhausted */
	int collapsed;       /* ... or collapsed (instead) */
	int margin;          /* a lead of at least this wins; less is a draw */
	int army_break;      /* 1: a side with every brigade exhausted or
	                        collapsed has broken, and the battle ends */
};

/* Another name a scenario gives a unit, commander or brigade (its
 * `alias` line), which orders may use as they use its own.  What the
 * battle shows (reports, canonical orders) is always the name itself. */
enum alias_of { ALIAS_UNIT = 0, ALIAS_COMMANDER, ALIAS_BRIGADE };

struct alias {
	char name[BATTLE_NAME_MAX];
	enum alias_of of;
	int idx;             /* into units, commanders or brigades */
};

enum sequence { SEQ_ALTERNATE = 0, SEQ_SIMULTANEOUS };

struct battle {
	char title[BATTLE_NAME_MAX * 2];
	char ruleset[BATTLE_ID_MAX];
	fx width, depth;
	int turns;           /* game turns */
	int first_minute;    /* clock of turn 1, minutes after midnight */
	int minutes;         /* per game turn */
	enum sequence sequence;
	int side_order[BATTLE_MAX_SIDES];  /* phase order (alternate) */

	int nsides, nbrigades, ncommanders, nunits, nstands, nterrain, npoints;
	int nsettings;
	struct side sides[BATTLE_MAX_SIDES];
	struct brigade brigades[BATTLE_MAX_BRIGADES];
	struct commander commanders[BATTLE_MAX_COMMANDERS];
	struct unit units[BATTLE_MAX_UNITS];
	struct stand stands[BATTLE_MAX_STANDS];
	struct terrain terrain[BATTLE_MAX_TERRAIN];
	struct pt points[BATTLE_MAX_POINTS];
	struct setting settings[BATTLE_MAX_SETTINGS];
	int nobjectives;
	struct objective objectives[BATTLE_MAX_OBJECTIVES];
	int naliases;
	struct alias aliases[BATTLE_MAX_ALIASES];
	int nzones;
	struct deploy_zone zones[BATTLE_MAX_ZONES];
	struct victory victory;
	int road_spacer;     /* the ruleset's: a road-march stand has a spacer
	                        behind it (battle_stand_rect) */
	/* Players seated on each side, set by whoever plays a step (the
	 * referee from the roster, verify from the genesis record); 0 when
	 * not known (a rules case), read as one.  A ruleset may weigh it
	 * (how much a side holds of an optional rule's pieces). */
	int seats[BATTLE_MAX_SIDES];
	/* Not state: the box of each terrain's points, for the ground
	 * lookups to pass over what is far away (issue 24), as
	 * battle_ground_index last built it.  Used only while it was built
	 * for as many terrains and points as the battle has; nothing
	 * signs, stores or compares it. */
	struct {
		int built, nterrain, npoints;
		fx box[BATTLE_MAX_TERRAIN][4];   /* x0, y0, x1, y1 */
	} ground;
	/* Not state either: the box of each unit's stands on the table
	 * (their positions) and the largest reach of them, filed in a grid,
	 * for the unit gap tests and the searches of what is near a unit to
	 * pass over far units (issue 24).  battle_units_index builds it at
	 * the start of a step, battle_unit_moved keeps it true through the
	 * step, battle_units_unindex ends it; it is used only while built
	 * for as many units as the battle has, and never with
	 * geom_reference.  Nothing signs, stores or compares it. */
	struct {
		int built, nunits;
		fx reach_max;    /* no less than any unit's reach since built */
		fx reach[BATTLE_MAX_UNITS];
		struct grid grid;              /* each unit's box, by unit */
	} near;
	/* The ruleset's own state for the whole battle, laid out as it
	 * pleases (an optional rule's pieces): all zero until its
	 * scenario lines or prepare set it.  What a step changes of it is
	 * what struct ruleset.tables shows the store, the ledger and the
	 * archive.  Only its ruleset reads it. */
	_Alignas(16) unsigned char rules[BATTLE_RULES_BLOCK];
};

/* Allocates a zeroed battle, or NULL.  battle_free(NULL) is a no-op. */
struct battle *battle_new(void);
void battle_free(struct battle *b);

/* Copies into dst, a battle fresh from the same scenario, what the store
 * keeps of src between steps (store_battle_save): each terrain piece's
 * trodden state, each brigade's SP lost and exhausted/collapsed markers,
 * each commander's position, facing, attachment, whether gone and when a
 * casualty returns, each unit's state numbers (struct unit),
 * each stand's SP, position, facing, formation and markers, and the
 * ruleset's own block (battle.rules), whole.  Replaying an archive
 * carries the battle from step to step with it, as the server does
 * through its database. */
void battle_carry(struct battle *dst, const struct battle *src);

/* Index of the side with id, or -1. */
int battle_side(const struct battle *b, const char *id);

/* 1 if commander k is in unit u's chain of command: its side's army
 * commander, its brigade's wing commander, its brigade commander, or its
 * own unit commander. */
int battle_in_chain(const struct battle *b, int k, int u);
/* "army", "wing", "brigade" or "unit". */
const char *battle_rank_name(enum command_rank r);

/* Steps in the battle: one per side phase (alternate) or one per turn,
 * after the deployment step when the scenario gives deployment zones. */
int battle_steps(const struct battle *b);
/* Game turn (1-based; 0 for the deployment step) and phasing side (-1
 * for simultaneous and for the deployment, which every side sends at
 * once) of step s (1-based). */
int battle_step_turn(const struct battle *b, int step);
int battle_step_side(const struct battle *b, int step);
/* 1 if step s is the battle's deployment (its first, when the scenario
 * gives zones), else 0. */
int battle_step_deploys(const struct battle *b, int step);
/* The steps before turn 1: 1 with zones, else 0. */
int battle_deploy_steps(const struct battle *b);

/* Centre of a unit's stands still on the table (average, rounded); 0 if
 * none is left, else 1. */
int battle_unit_centre(const struct battle *b, int unit, struct pt *out);
/* The centre of unit's stands still on the table that seen marks (a flag
 * a stand; NULL: all), the mean truncated to the hundredth, into *out;
 * how many stands that is (0: none, *out untouched).  What a side that
 * sees only those stands takes for the unit's place. */
int battle_unit_centre_seen(const struct battle *b, int unit,
    const unsigned char *seen, struct pt *out);
/* The same, leaving routed stands out when with_routed is 0. */
int battle_unit_centre_of(const struct battle *b, int unit, int with_routed,
    struct pt *out);
/* The formation of the unit's first stand still on the table (line if
 * none is). */
int battle_unit_form(const struct battle *b, int unit);
/* Stands of the unit still on the table. */
int battle_unit_alive(const struct battle *b, int unit);
/* Total SP of the unit: on the table, and (a reinforcement) still to
 * come on, which is not lost. */
int battle_unit_sp(const struct battle *b, int unit);
/* 1 if unit is a reinforcement with a stand still to come on. */
int battle_unit_away(const struct battle *b, int unit);

/* Stand footprint (width, depth) by kind and formation. */
void battle_kind_size(enum stand_kind kind, enum formation form, fx *w, fx *d);
void battle_stand_size(const struct battle *b, int stand, fx *w, fx *d);
/* The ground a stand covers: its base, and behind it in road march its
 * 1.5" x 3" spacer (the text's road march spacer); the _inset form shrunk
 * by inset on every side. */
void battle_stand_rect(const struct battle *b, int stand, struct pt out[4]);
void battle_stand_rect_inset(const struct battle *b, int stand, fx inset,
    struct pt out[4]);

/* Builds b->ground, the boxes of the terrain, which battle_area_at,
 * battle_near_line, battle_level_at and battle_ground_meets then use to
 * pass over far terrain (the answers are the same).  The rulesets call it
 * at the start of a step; code that changes terrain points without
 * changing how many there are must call it again. */
void battle_ground_index(struct battle *b);
/* 1 if b->ground is built for the battle's terrain as it is (and
 * geom_reference is off). */
int battle_ground_indexed(const struct battle *b);
/* 0 if terrain i certainly has no point in the box lo..hi (b->ground
 * built and not geom_reference); 1 if it may. */
int battle_ground_meets(const struct battle *b, int i, struct pt lo,
    struct pt hi);

/* Builds b->near, each unit's box in a grid, which battle_unit_gap_below
 * (and so the other unit gaps) and battle_units_near then use to pass
 * over far units (the answers are the same).  A ruleset calls it at the
 * start of a step, and then battle_unit_moved(b, u) after every change
 * to unit u's stands until battle_units_unindex(b), which it must call
 * before it returns: the index is never carried to code that does not
 * keep it.  Debug builds check every box they use against the stands. */
void battle_units_index(struct battle *b);
/* After a change to unit u's stands: where they are, which are on the
 * table, their formation or size.  A no-op when b->near is not built. */
void battle_unit_moved(struct battle *b, int u);
void battle_units_unindex(struct battle *b);
/* The units other than u that may have a stand within limit (edge to
 * edge, as battle_unit_gap) of a stand of u, any side, in ascending
 * order, into out (room for BATTLE_MAX_UNITS); how many.  Every unit
 * whose gap to u is limit or less is listed, so a search for those
 * walks the list instead of every unit, in the same order.  -1 when
 * b->near is not built (or geom_reference is on): the caller must walk
 * every unit. */
int battle_units_near(const struct battle *b, int u, fx limit, int *out);

/* How far the corners of stand's ground (battle_stand_rect) may lie
 * from its position, rounding included. */
fx battle_stand_reach(const struct battle *b, int stand);
/* 1 if the gap between stands s and t (geom_rect_dist of their ground)
 * is certainly more than limit, judged by their positions and reaches
 * alone; 0 if it may not be. */
int battle_stands_apart(const struct battle *b, int s, int t, fx limit);

/* The gap from stand s's ground to the nearest ground of a stand of unit
 * v still on the table; -1 if v has none. */
fx battle_gap_to_unit(const struct battle *b, int s, int v);
/* The same, to v's stands that seen (a flag a stand; NULL for all)
 * marks; -1 if none. */
fx battle_gap_to_unit_seen(const struct battle *b, int s, int v,
    const unsigned char *seen);
/* The same when the gap is bound or less; when it is more, some number
 * more than bound, or -1 (bound -1: the gap).  For a search of the
 * nearest, which need not measure what is further than the nearest so
 * far. */
fx battle_gap_to_unit_below(const struct battle *b, int s, int v,
    const unsigned char *seen, fx bound);
/* The gap between the nearest stands of units u and v still on the
 * table, edge to edge (of v, only those seen marks; NULL for all); -1 if
 * either has none. */
fx battle_unit_gap(const struct battle *b, int u, int v);
fx battle_unit_gap_seen(const struct battle *b, int u, int v,
    const unsigned char *seen);
/* The same when the gap is bound or less; when it is more, some number
 * more than bound, or -1 (bound -1: the gap).  For a search of the
 * nearest unit, which need not measure what is further than the nearest
 * so far. */
fx battle_unit_gap_below(const struct battle *b, int u, int v,
    const unsigned char *seen, fx bound);
/* 1 if battle_unit_gap(b, u, v) is 0 or more and at most limit. */
int battle_unit_gap_within(const struct battle *b, int u, int v, fx limit);

/* 1 if p is inside an area of kind k (an edge counts as inside). */
int battle_area_at(const struct battle *b, struct pt p, enum terrain_kind k);
/* 1 if p is within `reach` of a line of kind k (a road, a stream). */
int battle_near_line(const struct battle *b, struct pt p, enum terrain_kind k,
    fx reach);

/* Elevation (hill contour level) at a point. */
int battle_level_at(const struct battle *b, struct pt p);

/* Case-insensitive find by exact name; -1 if none. */
int battle_find_unit(const struct battle *b, const char *name);
int battle_find_commander(const struct battle *b, const char *name);
int battle_find_brigade(const struct battle *b, const char *name);

const char *battle_kind_name(enum stand_kind k);
/* Sets each unit's kind from its stands on the table: a detachment while
 * its detachment slots (ST_DETACH) are in play, else its base kind. */
void battle_sync_kinds(struct battle *b);
const char *battle_form_name(enum formation f);
const char *battle_weapon_name(enum weapon w);
const char *battle_terrain_name(enum terrain_kind k);
int battle_terrain_kind(const char *name, enum terrain_kind *out);
int battle_weapon_parse(const char *name, enum weapon *out);
int battle_form_parse(const char *name, enum formation *out);

#endif
