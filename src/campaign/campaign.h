/*
 * campaign.h - a campaign: an operational map of places and roads,
 * columns of brigades marching on it, and the battles they fight.
 *
 * The file format is documented in docs/campaign.md; the parser is
 * src/scenario/campaign.c (it reads a column's brigade and unit lines as
 * a scenario's, so a column is a battle's order of battle).  What is
 * here is plain data and pure functions: no clock, no I/O, no hidden
 * randomness, integer arithmetic and stable orders, like the rules core.
 *
 *   march.c   routes, a day's march and contact between hostile columns
 *   field.c   the scenario of a battle a contact opens (its ground, the
 *             forces present, deployed in the zone they came from)
 *   carry.c   what a battle's final state carries back to the columns
 *   rules.c   the campaign's numbers (march rates, recovery), each
 *             marked as a default with its reason
 *
 * Distances on the operational map are hundredths of a mile; dates are days
 * since 1 January 1 (proleptic Gregorian), so that date arithmetic is
 * integer arithmetic.
 */
#ifndef DESPATCH_CAMPAIGN_H
#define DESPATCH_CAMPAIGN_H

#include <stddef.h>

#include "core/battle.h"
#include "core/err.h"
#include "core/dice.h"
#include "core/ruleset.h"
#include "core/text.h"

#define CAMPAIGN_MAX_PLACES   96
#define CAMPAIGN_MAX_ROADS    192
#define CAMPAIGN_MAX_COLUMNS  48
#define CAMPAIGN_MAX_BRIGADES BATTLE_MAX_BRIGADES
#define CAMPAIGN_MAX_UNITS    BATTLE_MAX_UNITS
#define CAMPAIGN_MAX_STANDS   64      /* a unit's */
#define CAMPAIGN_MAX_DEPOTS   32
#define CAMPAIGN_MAX_GOALS    32
#define CAMPAIGN_MAX_SETTINGS 64
#define CAMPAIGN_OPTS_MAX     256     /* a unit line's other words */
#define CAMPAIGN_PATH_MAX     256

/* The eight directions a column may come from, clockwise from north. */
enum cp_dir {
	DIR_N = 0, DIR_NE, DIR_E, DIR_SE, DIR_S, DIR_SW, DIR_W, DIR_NW,
	DIR_COUNT
};

enum cp_place_kind {
	PLACE_TOWN = 0, PLACE_CROSSROADS, PLACE_FORD, PLACE_FERRY,
	PLACE_BRIDGE, PLACE_PLANTATION, PLACE_HILL, PLACE_KIND_COUNT
};

/* The ground a generated battlefield is made from. */
enum cp_ground {
	GROUND_OPEN = 0, GROUND_WOODED, GROUND_HILLY, GROUND_RIVERBANK,
	GROUND_TOWN, GROUND_COUNT
};

/* A rectangle of a battlefield, in inches (fx). */
struct cp_zone {
	int set;
	fx x0, y0, x1, y1;
};

struct cp_place {
	char name[BATTLE_NAME_MAX];
	enum cp_place_kind kind;
	int x100, y100;               /* hundredths of a mile */
	enum cp_ground ground;
	/* The battlefield: a scenario file (path as written, relative to the
	 * campaign file; its text read when the campaign was), or none. */
	char field_path[CAMPAIGN_PATH_MAX];
	char *field_text;
	size_t field_len;
	struct cp_zone zone[DIR_COUNT];
	int line;
};

enum cp_road_kind { ROAD_ROAD = 0, ROAD_TRACK };

struct cp_road {
	char name[BATTLE_NAME_MAX];   /* "" when the file gives none */
	int a, b;                     /* places */
	int miles100;
	enum cp_road_kind kind;
	char river[BATTLE_NAME_MAX];  /* a river crossed on the way, or "" */
	int nrivers;                  /* the rivers it crosses (names told
	                                 apart); campaign engine 1 pays one
	                                 crossing for any */
	int line;
};

struct cp_side {
	char id[BATTLE_ID_MAX];
	char name[BATTLE_NAME_MAX];
	char tail[CAMPAIGN_OPTS_MAX]; /* the side line's other words */
	int line;
};

struct cp_unit {
	char name[BATTLE_NAME_MAX];
	int brigade;
	char opts[CAMPAIGN_OPTS_MAX]; /* type and options, as a scenario line
	                                 writes them */
	char form[16];                /* its formation word, or "" */
	enum stand_kind kind;         /* its troop type's */
	int nstands;
	int sp[CAMPAIGN_MAX_STANDS];  /* now */
	int full[CAMPAIGN_MAX_STANDS];/* at full strength */
	int gone;                     /* lost for good (destroyed, captured) */
	int start;                    /* its strength when the campaign began */
	int line;
};

struct cp_brigade {
	char name[BATTLE_NAME_MAX];
	char commander[BATTLE_NAME_MAX];
	int column;
	/* Exhausted (where the campaign keeps exhaustion: campaign_exhaustion):
	 * the days of rest in supply it still needs, 0 when fresh.  It goes
	 * into its next battle exhausted while above 0. */
	int spent;
	int line;
};

struct cp_column {
	char name[BATTLE_NAME_MAX];
	char commander[BATTLE_NAME_MAX];
	int side;
	/* Where it is: at place (road -1), or on road `road`, along100
	 * hundredths of a mile from its end `from`. */
	int place;
	int road, from, along100;
	int came_by;                  /* the road it came into place by, -1 */
	int gone;                     /* joined another column, or destroyed */
	/* What it goes on doing when no new order comes: a march, until it
	 * gets there (kind CO_HOLD: nothing). */
	int standing_kind, standing_dest, standing_by;
	int forced;                   /* forced-march days running */
	int line;                     /* 0 for a column made by DETACH */
};

struct cp_depot {
	int place, side;
	/* The days it supplies (days since 1 January 1): from the first to
	 * the last, 0 where the file sets none (the whole campaign). */
	int from_day, to_day;
	int line;
};

enum cp_goal_kind { GOAL_HOLD = 0, GOAL_BREAK };

/* A campaign victory condition: a side scores points for holding a
 * place on a date (hold), or for every enemy column broken (break). */
struct cp_goal {
	enum cp_goal_kind kind;
	int side;
	int place;                    /* hold */
	int day;                      /* hold: the date it counts on */
	int points;
	int line;
};

struct cp_setting {
	char name[48];
	int value;
	int line;
};

/* A campaign turn's weather (campaign engine 2 on): what the file fixes
 * for its date, or a die of the turn's dice. */
enum cp_weather { WEATHER_FAIR = 0, WEATHER_RAIN, WEATHER_STORM,
	WEATHER_COUNT };

#define CAMPAIGN_MAX_WEATHER 64

/* weather FROM [to TO] KIND: the weather of those days, fixed. */
struct cp_weather_fix {
	int from, to;                 /* days since 1 January 1 */
	enum cp_weather kind;
	int line;
};

/* The campaign layer's rules engine (its march, contact and carry-over),
 * as a campaign's genesis names it; a campaign is played to its end by
 * the engine it began under.  1: strength only; 2: brigades' exhaustion
 * carried and recovered too; 3: its battles open with a deployment step
 * in the zones the columns came to (DEPLOY by mail, core/deploy.h). */
#define CAMPAIGN_ENGINE 3

struct campaign {
	char title[BATTLE_NAME_MAX * 2];
	int engine;                   /* the one it is played by */
	char ruleset[BATTLE_ID_MAX];
	const struct ruleset *rs;
	int start_day, end_day;       /* days since 1 January 1 */
	int halves;                   /* 1: a turn is a day; 2: half a day */
	int nplaces, nroads, nsides, ncolumns, nbrigades, nunits, ndepots;
	int ngoals, nsettings;
	struct cp_place places[CAMPAIGN_MAX_PLACES];
	struct cp_road roads[CAMPAIGN_MAX_ROADS];
	struct cp_side sides[BATTLE_MAX_SIDES];
	struct cp_column columns[CAMPAIGN_MAX_COLUMNS];
	struct cp_brigade brigades[CAMPAIGN_MAX_BRIGADES];
	struct cp_unit units[CAMPAIGN_MAX_UNITS];
	struct cp_depot depots[CAMPAIGN_MAX_DEPOTS];
	struct cp_goal goals[CAMPAIGN_MAX_GOALS];
	struct cp_setting settings[CAMPAIGN_MAX_SETTINGS];
	int goal_margin;              /* points a side must lead by */
	int turn;                     /* campaign turns played */
	int over, winner;             /* ended, and by whom (-1: a draw) */
	/* Each hold goal: 1 once its side held the place on its day. */
	unsigned char held[CAMPAIGN_MAX_GOALS];
	int nweather;
	struct cp_weather_fix weather_fix[CAMPAIGN_MAX_WEATHER];
	enum cp_weather weather;      /* the last turn marched's */
	/* Where each side last saw each enemy column (campaign engine 2
	 * on): the turn (0: never) and the column's place or road then. */
	struct cp_sighting {
		int turn;
		int place, road, from, along100;
	} last_seen[BATTLE_MAX_SIDES][CAMPAIGN_MAX_COLUMNS];
};

/* ---- the file (src/scenario/campaign.c) ------------------------------ */

#define CAMPAIGN_MAX_BYTES (1024u * 1024u)

/* Parses a campaign file's text.  fname names it in messages; dir is
 * the folder battlefield paths are read from (NULL: none are read, and
 * a place naming one is refused).  0 with *out set (campaign_free), or
 * -1 with e holding "fname:line: message". */
int campaign_parse(const char *text, size_t len, const char *fname,
    const char *dir, struct campaign **out, struct err *e);
/* Where a campaign's battlefield files come from: read gives a malloc'd
 * copy of the file the campaign names (path as the file writes it), 0,
 * or -1 with e set. */
struct cp_fields {
	int (*read)(void *ctx, const char *path, char **text, size_t *len,
	    struct err *e);
	void *ctx;
};
/* As campaign_parse, the battlefields read through fields (NULL: none
 * may be named). */
int campaign_parse_with(const char *text, size_t len, const char *fname,
    const struct cp_fields *fields, struct campaign **out, struct err *e);
/* Reads and parses a file; battlefields relative to its folder. */
int campaign_load_file(const char *path, struct campaign **out,
    struct err *e);
void campaign_free(struct campaign *c);

/* ---- names ----------------------------------------------------------- */

const char *campaign_place_kind_name(enum cp_place_kind k);
const char *campaign_ground_name(enum cp_ground g);
const char *campaign_dir_name(enum cp_dir d);   /* "north", ... */
const char *campaign_weather_name(enum cp_weather w);   /* "rain", ... */
int campaign_find_place(const struct campaign *c, const char *name);
int campaign_find_column(const struct campaign *c, const char *name);
int campaign_find_side(const struct campaign *c, const char *id);

/* ---- dates ----------------------------------------------------------- */

/* "1781-01-17" into a day number: 0, or -1 if it is no date. */
int campaign_date_parse(const char *s, int *day);
/* A day number as "1781-01-17" (out: at least 11 bytes). */
void campaign_date_fmt(int day, char *out, size_t size);
/* A day number as "Wednesday 17 January 1781". */
void campaign_date_long(int day, char *out, size_t size);

/* ---- numbers (rules.c) ----------------------------------------------- */

/* The campaign's value of a number: the file's `set`, else the
 * ruleset's own campaign table, else the campaign default. */
int campaign_param(const struct campaign *c, const char *name);
/* The row for name (ruleset's first, then the defaults), or NULL. */
const struct rule_param *campaign_param_row(const struct campaign *c,
    const char *name);
/* Does the campaign carry brigades' exhaustion: its engine does (2 on),
 * and its ruleset has exhaustion (its campaign table has
 * carry.exhausted; bb7's has not). */
int campaign_exhaustion(const struct campaign *c);
/* The campaign engine a campaign begun now is played by: CAMPAIGN_ENGINE,
 * or the older one campaign_engine_test named. */
int campaign_engine_now(void);
/* For the upgrade tests only (the fronts pass
 * $DESPATCH_TEST_CAMPAIGN_ENGINE): begin campaigns under the older engine
 * numbered n (1 .. CAMPAIGN_ENGINE); anything else leaves CAMPAIGN_ENGINE. */
void campaign_engine_test(const char *n);
/* The campaign's weather in a line: the days its file fixes, and what
 * any other day is ("every day fair"). */
void campaign_weather_summary(const struct campaign *c, char *out,
    size_t size);
/* The defaults every ruleset starts from. */
extern const struct rule_param campaign_defaults[];
extern const int campaign_ndefaults;

/* ---- marching (march.c) ---------------------------------------------- */

#define CAMPAIGN_TICKS 100            /* a day's march, in steps */

enum cp_order_kind {
	CO_HOLD = 0, CO_REST, CO_MARCH, CO_FORCED, CO_RETREAT, CO_SCOUT,
	CO_DETACH, CO_JOIN
};

/* A column's order for a campaign turn (the order language is
 * src/orders/campaign.c's). */
struct cp_order {
	int column;
	enum cp_order_kind kind;
	int dest;                     /* MARCH, FORCED, RETREAT: the place */
	int by;                       /* ... the road to take first, or -1 */
	int target;                   /* JOIN: the column joined, else -1 */
	/* DETACH: the brigades that leave (a bit each, by brigade index)
	 * and the new column's name. */
	unsigned char brigades[(CAMPAIGN_MAX_BRIGADES + 7) / 8];
	char name[BATTLE_NAME_MAX];
};

/* ---- the order language (src/orders/campaign.c) ---------------------- */

/* Reads one line of side's campaign orders ("Morgan's column: MARCH TO
 * Cowpens BY Green River Road").  Returns 1 with *o set, 0 for a line
 * that holds no order (blank, a comment), -1 with msg saying what is
 * wrong and what would be right (the nearest names where a name is not
 * known).  On 1, msg is "" or a note of a name read as another, a
 * letter or two off ("read \"Cowpnes\" as \"Cowpens\""), for the
 * answer.  Pure. */
int campaign_order_line(const struct campaign *c, int side,
    const char *line, struct cp_order *o, char *msg, size_t msize);
/* Is the line a remark around the orders, to pass over in a mail
 * without complaint: a greeting, a heading or a sign-off ("Sir,",
 * "Orders:", "Yr obedient servant")?  Not when it reads as an order: it
 * starts with an order's word, or before its colon stands a column's
 * name, of either side, or one near it.  Pure. */
int campaign_line_prose(const struct campaign *c, int side,
    const char *line);
/* The order as the line that reads it back, canonical (the names as
 * the file writes them, the verb in capitals). */
void campaign_order_text(const struct campaign *c, const struct cp_order *o,
    char *out, size_t size);

/* A column at a battle: when it got there (a tick of the day's march;
 * 0: it was there, or met there at dawn) and the road it came by (-1:
 * it was there before the day began). */
struct cp_arrival {
	int column;
	int tick;
	int road;
};

/* Hostile columns met at a place: a battle to fight. */
struct cp_contact {
	int place;
	int tick;                     /* when the first two met */
	int narrivals;
	struct cp_arrival arrivals[CAMPAIGN_MAX_COLUMNS];
};

/* The length in hundredths of a mile of the shortest way by road from
 * place a to place b whose first road is `first` (-1: any), and that
 * first road (-1 when a is b) into *next; -1 if there is no such way.
 * Ties go to the road declared first. */
int campaign_route(const struct campaign *c, int a, int b, int first,
    int *next);

/* A column's march rate on a kind of road, miles a day: its slowest
 * arm's. */
int campaign_rate(const struct campaign *c, int column,
    enum cp_road_kind kind);

/* The direction from place `at` along road r toward its other end. */
enum cp_dir campaign_road_dir(const struct campaign *c, int at, int r);

/* Plays one campaign turn's marches: every column's order (a column
 * without one holds), moved tick by tick along its route; two hostile
 * columns at one place, or passing on a road, meet and stop, and so does
 * every column that comes to a place where a battle is met that day.
 * Changes where c's columns are; fills out[] (at most max) with the
 * contacts, in the order they were made; returns how many.  Pure. */
int campaign_march(struct campaign *c, const struct cp_order *orders,
    int norders, struct cp_contact *out, int max);

/* ---- battles (field.c) ------------------------------------------------ */

/* The die of a campaign turn's weather, on a date. */
#define CP_R_WEATHER \
	"roll-campaign-weather", "w", \
	"the weather on %s"

/* A die of a generated battlefield: where its feature n lies. */
#define CP_R_FIELD \
	"roll-campaign-field", "nw", \
	"where feature %d of the field at %s lies"

/* The scenario text of the battle contact k opens on campaign turn
 * `day` (days since the start, in turns): *out malloc'd and NUL-ended,
 * its length in *outlen.  d gives the dice of a generated field (NULL
 * for a place with a battlefield file).  0, or -1 with e set.  Pure. */
int campaign_battle_scenario(const struct campaign *c,
    const struct cp_contact *k, int day, struct dice *d, char **out,
    size_t *outlen, struct err *e);
/* The direction arrival i of contact k deploys from. */
enum cp_dir campaign_arrival_dir(const struct campaign *c,
    const struct cp_contact *k, int i);

/* ---- after a battle, and the day's upkeep (carry.c) ------------------ */

struct cp_carry_unit {
	int unit;
	int before;                   /* strength going in */
	int after;                    /* ... at the battle's end */
	int returned;                 /* back the next morning */
	int lost;                     /* gone for good (of its full strength) */
	int routed;                   /* more lost, routed at the end */
	int captured, destroyed;      /* the unit is gone */
	int now, full;                /* its strength and full strength after */
};

struct cp_fell {
	char was[BATTLE_NAME_MAX];
	char now[BATTLE_NAME_MAX];
	int column, brigade;          /* whose commander (-1: not that) */
};

struct cp_retreat {
	int column, road, to;
};

struct cp_carry {
	int winner;                   /* campaign side, -1 for a draw */
	int place;
	int nunits, nfell, nretreats;
	struct cp_carry_unit units[CAMPAIGN_MAX_UNITS];
	struct cp_fell fell[CAMPAIGN_MAX_COLUMNS + CAMPAIGN_MAX_BRIGADES];
	struct cp_retreat retreats[CAMPAIGN_MAX_COLUMNS];
	/* Brigades that ended the battle exhausted and carry it on
	 * (campaign brigade indexes). */
	int nexhausted;
	int exhausted[CAMPAIGN_MAX_BRIGADES];
};

/* "Acting CO of NAME", the name of who takes a command nobody is named
 * to (out may be one of c's fields: of is copied first). */
void campaign_acting_name(char *out, size_t size, const char *of);
/* The unit named name, or -1. */
int campaign_find_unit(const struct campaign *c, const char *name);

/* Carries battle b's final state (after `played` steps, as its archive
 * verified) back into the columns of contact k: each unit's strength
 * lost, part back the next morning and part lost for good, by winner
 * and loser (carry.*); a beaten side's units routed at the end lose
 * more, its guns routed or abandoned are taken, its units destroyed are
 * gone; commanders who fell are replaced by the next in the chain; the
 * beaten side falls back along a road away from the winner (after a
 * draw, the side that came on).  ended: CARRY_BY_RESULT for the
 * battle's own result (core/result.h), or how it ended early: the
 * battle's side that won by the other's concession, -1 for a draw
 * agreed.  What was done goes into *out.  0, or
 * -1 with e set when the battle is not one of this contact's.  Pure. */
#define CARRY_BY_RESULT (-2)
int campaign_carry(struct campaign *c, const struct cp_contact *k,
    const struct battle *b, int played, int ended, struct cp_carry *out,
    struct err *e);

struct cp_column_day {
	int column;
	int supplied;
	int straggled;                /* lost to a forced march (comes back) */
	int starved;                  /* lost for good out of supply */
	int recovered;                /* back with rest */
	int replaced;                 /* from a depot */
	int spent;                    /* brigades exhausted by forced marching */
	int refreshed;                /* brigades back in order after rest */
};

struct cp_upkeep {
	int ncolumns;
	struct cp_column_day columns[CAMPAIGN_MAX_COLUMNS];
};

/* 1 if depot supplies on day (days since 1 January 1): within its
 * file's dates, if it has any. */
int campaign_depot_open(const struct campaign *c, int depot, int day);
/* 1 if column col is within supply.range road miles of a depot of its
 * side, open that day (the turn being played), that no enemy column
 * stands at. */
int campaign_in_supply(const struct campaign *c, int col);

/* The day besides the march, after it: stragglers of a forced march,
 * attrition out of supply, recovery with rest in supply, replacements
 * at a depot; where the campaign keeps exhaustion, brigades exhausted
 * by forced marching (march.forced.exhaust days running) and back in
 * order after rest in supply (not a column that fought that day:
 * fought[column] 1, fought NULL for none).  Pure; 0. */
int campaign_day_end(struct campaign *c, const struct cp_order *orders,
    int norders, const unsigned char *fought, struct cp_upkeep *out);

/* Which columns side knows of this turn (seen[column] 1 or 0): its own;
 * enemies within sight.radius miles of one of its columns, or
 * scout.radius of one scouting with horse; and those it fights. */
void campaign_sees(const struct campaign *c, int side,
    const struct cp_order *orders, int norders, const struct cp_contact *k,
    int nk, unsigned char *seen);

/* 1 if column col is broken: gone, or below half its strength at the
 * start of the campaign. */
int campaign_column_broken(const struct campaign *c, int col);
/* The side whose columns alone stand at place, or -1. */
int campaign_holder(const struct campaign *c, int place);
/* Notes, on campaign day `day` (days since 1 January 1), the hold goals
 * of that day met. */
void campaign_mark_goals(struct campaign *c, int day);
/* Each side's points now (points: one a side). */
void campaign_score(const struct campaign *c, int *points);

/* ---- the state (state.c) ----------------------------------------------- */

/* What a campaign turn changes, as canonical text: the turn, every
 * column (where it is, who commands, its standing order), every
 * brigade's column and commander, every unit's strength, the goals met.
 * Written the same for the same state, byte for byte: what the store
 * keeps and the campaign ledger hashes.  into t. */
void campaign_state_write(const struct campaign *c, struct text *t);
/* Reads such text onto c, parsed from the campaign's file: 0, or -1
 * with e set (the text is not one of this campaign's). */
int campaign_state_read(struct campaign *c, const char *text, size_t len,
    struct err *e);

/* ---- a campaign turn (turn.c): the one path the referee and verify
 * both play ---------------------------------------------------------------- */

struct cp_battle_open {
	int contact;
	char *scenario;               /* the battle's scenario text */
	size_t len;
};

struct cp_turn {
	int turn;                     /* the turn played (1-based) */
	int day;                      /* its date, days since 1 January 1 */
	int norders;
	struct cp_order orders[CAMPAIGN_MAX_COLUMNS];   /* as played */
	int ncontacts;
	struct cp_contact contacts[CAMPAIGN_MAX_COLUMNS];
	struct cp_battle_open battles[CAMPAIGN_MAX_COLUMNS];
};

void campaign_turn_free(struct cp_turn *t);
/* A turn marched (its orders and contacts, not its scenarios) as text,
 * for the store while its battles are fought, and read back (state.c). */
void campaign_turn_write(const struct cp_turn *t, struct text *out);
int campaign_turn_read(const char *text, size_t len, struct cp_turn *t,
    struct err *e);

/* The orders a turn plays: those given (checked again: a column of the
 * wrong side, gone, or an order no longer possible is refused with e),
 * and for every column without one its standing order.  Into t. */
int campaign_turn_orders(const struct campaign *c, const struct cp_order *given,
    int ngiven, struct cp_turn *t, struct err *e);

/* Plays the first half of turn c->turn + 1: the day's weather (campaign
 * engine 2 on: the file's for the date, else the first die of d; fair
 * with no d), DETACH and JOIN at dawn, then the march; for each
 * contact, its battle's scenario (dice d for generated fields).  t holds
 * the orders (campaign_turn_orders).  0, or -1 with e set.  Pure. */
int campaign_turn_march(struct campaign *c, struct cp_turn *t, struct dice *d,
    struct err *e);

struct cp_settle {
	int ncarries;
	struct cp_carry *carries;     /* one a battle, malloc'd */
	struct cp_upkeep upkeep;
	int points[BATTLE_MAX_SIDES];
};

void campaign_settle_free(struct cp_settle *s);

/* Ends turn t once its battles are over: battles[i] is the final state
 * of t->battles[i]'s game after played[i] steps, ended[i] as
 * campaign_carry takes it (ended NULL: every one by its result);
 * carries each back, the
 * day's upkeep, the goals of the day, and whether the campaign is over
 * (its last day played, or a side with no column left).  0, or -1 with
 * e set.  Pure. */
int campaign_turn_settle(struct campaign *c, const struct cp_turn *t,
    struct battle *const *battles, const int *played, const int *ended,
    struct cp_settle *s, struct err *e);

/* ---- the daily report (report.c) ------------------------------------- */

/* Where column is, in words ("at Cowpens", "on the road from A to B,
 * 4.50 miles out"). */
void campaign_where(const struct campaign *c, int column, char *out,
    size_t size);
/* The same of a place (road -1) or a point along a road. */
void campaign_where_at(const struct campaign *c, int place, int road,
    int from, int along100, char *out, size_t size);
/* Notes, for every side, where it sees each enemy column at the end of
 * turn t (campaign engine 2 on: last_seen).  Pure. */
void campaign_mark_seen(struct campaign *c, const struct cp_turn *t);
/* The report of turn t, settled as s (c as it stands after), for side of
 * the campaign called name: its columns (where, what each did, supply,
 * the day's losses and returns, strength by brigade), the battles and
 * what they carried back, the enemy columns it sees, the points, and
 * what to send next or how the campaign ended.  Into o.  Pure. */
struct text;
void campaign_day_report(const struct campaign *c, const char *name,
    int side, const struct cp_turn *t, const struct cp_settle *s,
    struct text *o);

/* What battle carry cr carried back, for side (campaign side index): who
 * won, the side's losses for good and back the next morning (each unit's
 * too, with units), commanders who fell, brigades left exhausted, who
 * falls back where.  The daily report's, and a battle's last report's
 * (what it will carry back).  Into o.  Pure. */
void campaign_carry_report(const struct campaign *c, const struct cp_carry *cr,
    int side, int units, struct text *o);

/* ---- strength -------------------------------------------------------- */

/* A unit's strength now and at full strength (the ruleset's measure:
 * SP, figures), and a column's. */
int campaign_unit_sp(const struct cp_unit *u);
int campaign_unit_full(const struct cp_unit *u);
int campaign_column_sp(const struct campaign *c, int column);
int campaign_brigade_sp(const struct campaign *c, int brigade);

#endif
