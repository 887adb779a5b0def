/*
 * vnb_wing_int.h - what the files of the vnb-wing adjudicator share: the
 * phase's working state (struct ctx), the stand predicates, and the few
 * functions one file calls in another (prefixed vw_).  Not for use
 * outside src/rules/ but by vnb_wing*.c and a ruleset built on
 * vnb-wing's phase (struct vw_rules: bpw*.c); vnb-wing's interface to the
 * rest of despatch is vnb_wing.h.
 *
 *   vnb_wing.c         the phase: command, orders, rally, exhaustion and
 *                      collapse, events and markers
 *   vnb_wing_move.c    movement: ground, costs, closing, facing
 *   vnb_wing_form.c    formations and detachments
 *   vnb_wing_sight.c   line of sight
 *   vnb_wing_combat.c  morale, fire and melee
 *   vnb_wing_cards.c   the Fog of War cards
 */
#ifndef DESPATCH_RULES_VNB_WING_INT_H
#define DESPATCH_RULES_VNB_WING_INT_H

#include <stdint.h>
#include <string.h>

#include "core/dice.h"
#include "core/events.h"
#include "core/geom.h"
#include "rules/vnb_wing_msgs.h"
#include "rules/vnb_wing.h"

/* Movement costs are counted in sixths of a hundredth of an inch so that
 * road march (a third or a half of the cost) stays whole. */
#define COST(fxlen) ((long)(fxlen) * 6)

enum move_mode { MOVE_NORMAL, MOVE_CHARGE, MOVE_ADVANCE_INTO };

/* Room for every hit one fire or melee can make: every stand on the
 * table rolling the most dice a scenario may set (12), for both sides.
 * Smaller, a legal scenario could pass it and fail its step for ever
 * (the dice are fixed, so every retry fails the same way). */
#define MAX_HITS (BATTLE_MAX_STANDS * 12 * 2)

struct hit {
	int target;   /* stand hit */
	int source;   /* stand that scored it */
	int melee;
	int long_range;
	enum weapon weapon;
	int saved;
};


struct hits {
	struct hit v[MAX_HITS];
	int n;
};


struct ctx;

/* What a ruleset built on vnb-wing's phase (bpw) plays in place of
 * vnb-wing's own: each member NULL (0) for vnb-wing's.  vw_adjudicate
 * plays the phase with them; vnb-wing's are vnb_rules. */
struct vw_rules {
	const struct ruleset *rs;   /* whose numbers P() reads (a ruleset
	                               built on vnb-wing's: its own, then
	                               vnb-wing's) */
	int cards;                  /* plays the Fog of War cards */
	/* A routing or falling back stand only disorders the friends it
	 * passes: one disordered already is not routed or pushed ahead. */
	int pass_disorders_only;
	/* After command is known, before any order is carried out. */
	void (*phase_begin)(struct ctx *c);
	/* A REFORM step of unit u's order, in place of vnb-wing's: returns
	 * 1 if the rest of the order is dropped. */
	int (*reform)(struct ctx *c, int u);
	/* Unit u's charge at unit t begins (before it turns or moves). */
	void (*charge_begins)(struct ctx *c, int u, int t);
	/* The phase's steps 3 (rally), 4 (morale) and 5 (combat). */
	void (*rally)(struct ctx *c);
	void (*morale)(struct ctx *c);
	void (*combat)(struct ctx *c);
	/* Unit u fired at unit t (return fire too): dice rolled, hits
	 * scored before saves. */
	void (*fired)(struct ctx *c, int u, int t, int dice, int hits);
	/* After the collapse step. */
	void (*phase_end)(struct ctx *c);
};

struct ctx {
	struct battle *b;
	const struct ruleset *rs;
	const struct vw_rules *w;
	void *ext;             /* the state of the ruleset built on it */
	struct dice *d;
	struct events *ev;
	int step, turn, side;
	unsigned char in_cmd[BATTLE_MAX_STANDS];
	int fchanges[BATTLE_MAX_UNITS];     /* facing changes this phase */
	int free_turn[BATTLE_MAX_UNITS];    /* a free change from leaving road march */
	int hurry[BATTLE_MAX_UNITS];        /* crosses bridges in disorder (HURRY) */
	int charge_wet[BATTLE_MAX_UNITS];   /* its charge crossed a stream */
	int stay[BATTLE_MAX_UNITS];         /* NO ADVANCE: keeps its ground */
	unsigned char was_routed[BATTLE_MAX_STANDS]; /* routed before a test */
	int bt[BATTLE_MAX_UNITS][ORDER_MAX_STEPS];   /* breakthrough charges */
	struct pt charge_from[BATTLE_MAX_UNITS];     /* where a charge began */
	unsigned char closed0[BATTLE_MAX_STANDS];    /* in closed ground before */
	unsigned char closed1[BATTLE_MAX_STANDS];    /* ... and after a step */
	int nbt[BATTLE_MAX_UNITS];
	int moved[BATTLE_MAX_UNITS];        /* moved or turned at a cost */
	int walked[BATTLE_MAX_UNITS];       /* its position changed */
	int fence_tested[BATTLE_MAX_UNITS]; /* mounted charger's fence test */
	int hold[BATTLE_MAX_UNITS];
	int fire_target[BATTLE_MAX_UNITS];
	int charge_target[BATTLE_MAX_UNITS];
	int contours[BATTLE_MAX_UNITS];     /* contours crossed this phase */
	int rank[BATTLE_MAX_UNITS];         /* unit order for this phase */
	int nrank;
	struct hits hits;      /* scratch for one fire or melee */
	unsigned char mark[BATTLE_MAX_STANDS];
	unsigned char firers[BATTLE_MAX_STANDS];   /* stands firing at one unit */
	int att[BATTLE_MAX_STANDS], def[BATTLE_MAX_STANDS];
	unsigned char routed_now[BATTLE_MAX_UNITS];  /* a stand of it routed
	                                                this phase */
	int overflow;          /* a scratch table was too small: fail the step */
	int collapsing;        /* brigade whose collapse is being applied, or -1 */
	int rides[BATTLE_MAX_COMMANDERS];   /* unit a commander moves with, or -1 */
	struct stand saved[2 * BATTLE_MAX_STANDS]; /* a unit's stands, to undo */
	char buf[4][32];
	/* Weapon ranges (short, long), looked up once a step. */
	fx range[WEAPON_COUNT][2];
	unsigned char range_known[WEAPON_COUNT][2];
};

static inline int
P(struct ctx *c, const char *name)
{
	return ruleset_param(c->rs, c->b, name);
}

static inline const char *
fmt_in(struct ctx *c, int slot, fx v)
{
	return geom_fmt_fx(v, c->buf[slot & 3], (int)sizeof(c->buf[0]));
}

/* --- stand predicates ------------------------------------------------ */

static inline int
alive(const struct battle *b, int s)
{
	return !(b->stands[s].flags & ST_GONE);
}

static inline int
disordered(const struct battle *b, int s)
{
	const struct unit *u = &b->units[b->stands[s].unit];

	/* Mounted infantry always count as disordered while mounted. */
	return (b->stands[s].flags & (ST_DISORDERED | ST_PERMANENT)) != 0 ||
	    ((u->abil & ABIL_MI) && u->kind == KIND_MOUNTED);
}

static inline int
routed(const struct battle *b, int s)
{
	return (b->stands[s].flags & ST_ROUTED) == ST_ROUTED;
}

static inline int
active(const struct battle *b, int s)
{
	return alive(b, s) && !routed(b, s);
}

#define FOR_STANDS(b, u, s) \
	for ((s) = (b)->units[u].first_stand; \
	    (s) < (b)->units[u].first_stand + (b)->units[u].nstands; (s)++)

static inline int
unit_active_centre(const struct battle *b, int u, struct pt *out)
{
	return battle_unit_centre_of(b, u, 0, out);
}

static inline int
unit_facing(const struct battle *b, int u)
{
	int s;

	FOR_STANDS(b, u, s)
		if (active(b, s))
			return b->stands[s].facing;
	return b->stands[b->units[u].first_stand].facing;
}

static inline int
unit_form(const struct battle *b, int u)
{
	return battle_unit_form(b, u);
}

static inline fx
stand_gap(const struct battle *b, int s1, int s2)
{
	struct pt r1[4], r2[4];

	battle_stand_rect(b, s1, r1);
	battle_stand_rect(b, s2, r2);
	return geom_rect_dist(r1, r2);
}

static inline int
in_contact(struct ctx *c, int s1, int s2)
{
	return stand_gap(c->b, s1, s2) <= P(c, "contact");
}

static inline int
area_at(const struct battle *b, struct pt p, enum terrain_kind k)
{
	return battle_area_at(b, p, k);
}

static inline int
in_woods(const struct battle *b, struct pt p)
{
	return area_at(b, p, T_WOOD) || area_at(b, p, T_FOREST) ||
	    area_at(b, p, T_THICKET);
}

/* 1 if p is on a line of kind k (within road.half-width of it). */
static inline int
on_line(const struct battle *b, struct pt p, enum terrain_kind k)
{
	return battle_near_line(b, p, k, ruleset_param(&ruleset_vnb_wing, b,
	    "road.half-width"));
}

static inline int
on_road(const struct battle *b, struct pt p)
{
	return on_line(b, p, T_ROAD);
}

/* Works, or a sunken road, which the text treats as works. */
static inline int
in_works(const struct battle *b, struct pt p)
{
	return area_at(b, p, T_WORKS) || on_line(b, p, T_SUNKEN_ROAD);
}

/* The town or village block p is in, or -1. */
static inline int
block_at(const struct battle *b, struct pt p)
{
	int i;

	for (i = 0; i < b->nterrain; i++) {
		const struct terrain *t = &b->terrain[i];

		if ((t->kind == T_TOWN || t->kind == T_VILLAGE) &&
		    geom_in_poly(p, &b->points[t->first_pt], t->npts))
			return i;
	}
	return -1;
}

static inline int
foot(const struct unit *u)
{
	return u->kind == KIND_INFANTRY || u->kind == KIND_DETACHMENT;
}

/* A unit's morale now: a Native American band's drops by one for each
 * stand it has lost. */
static inline int
unit_morale(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];
	int s, lost = 0;

	if (!(un->abil & ABIL_NA))
		return un->morale;
	FOR_STANDS(b, u, s)
		if ((b->stands[s].flags & ST_GONE) &&
		    !(b->stands[s].flags & ST_SPARE))
			lost++;
	return un->morale - lost;
}

static inline fx
unit_rate(const struct battle *b, int u)
{
	const struct unit *un = &b->units[u];
	int s;

	/* Guns abandoned in a rout move as infantry. */
	FOR_STANDS(b, u, s)
		if (alive(b, s) && (b->stands[s].flags & ST_GUNS_LOST))
			return ruleset_param(&ruleset_vnb_wing, b, "abandoned.rate");
	/* Mounted infantry on foot. */
	if (un->base_kind == KIND_MOUNTED && un->kind == KIND_DETACHMENT)
		return ruleset_param(&ruleset_vnb_wing, b, "dismounted.rate");
	return un->speed;
}

static inline int
enemy(const struct battle *b, int u1, int u2)
{
	return b->units[u1].side != b->units[u2].side;
}

static inline int
unit_exhausted(const struct battle *b, int u)
{
	return (b->brigades[b->units[u].brigade].flags & BR_EXHAUSTED) != 0;
}

struct move_result {
	fx moved;
	long spent;
	const char *stop;   /* why it stopped short, or NULL */
	int contact;        /* a charge reached its target */
};

/* Unit u's stands copied to save, and put back from it (with the unit's
 * kind, which follows its stands): the undo of a change that turns out
 * not to fit. */
static inline void
unit_save(const struct battle *b, int u, struct stand *save)
{
	memcpy(save, &b->stands[b->units[u].first_stand],
	    (size_t)b->units[u].nstands * sizeof(*save));
}

static inline void
unit_restore(struct battle *b, int u, const struct stand *save)
{
	memcpy(&b->stands[b->units[u].first_stand], save,
	    (size_t)b->units[u].nstands * sizeof(*save));
	battle_sync_kinds(b);
	battle_unit_moved(b, u);
}

/* --- shared between the files ------------------------------------------ */

/* Events and dice (vnb_wing.c): a message of the catalogue
 * (vnb_wing_msgs.h: each VW_M_ and VW_R_ macro gives the id, the letters
 * and the sentence), for unit's side; a d6 for unit's side. */
void vw_ev(struct ctx *c, enum event_kind k, int unit, int target, int value,
    const char *msg, const char *types, const char *fmt, ...)
    __attribute__((format(printf, 8, 9)));
int vw_roll(struct ctx *c, int unit, const char *msg, const char *types,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void vw_disorder(struct ctx *c, int s, const char *why);
void vw_lose_sp(struct ctx *c, int s, int n, const char *why);
/* Why a stand is removed from play (each its own message). */
enum vw_gone {
	VW_GONE_DESTROYED,	/* is destroyed */
	VW_GONE_ROUTS_OFF,	/* routs off the table */
	VW_GONE_ROUTS_AGAIN,	/* routs again */
	VW_GONE_COLLAPSE,	/* was routed when its brigade collapsed */
	VW_GONE_MORALE_ROUTED,	/* fails morale while routed */
	VW_GONE_RIDDEN_DOWN,	/* is ridden down, disordered, by horse */
	VW_GONE_MELEE_ROUTED,	/* loses a melee while routed */
};
void vw_remove_stand(struct ctx *c, int s, enum vw_gone why);
void vw_rout_stand(struct ctx *c, int s, struct pt from, const char *why);
/* The same, running on the bearing dir (a unit that routs as a block). */
void vw_rout_stand_dir(struct ctx *c, int s, int dir, const char *why);
void vw_push_stand(struct ctx *c, int s, int dir, fx len, int is_rout,
    int depth);

/* The first superior commander (not a unit commander) of unit u's chain
 * whose base touches stand s, or -1 (vnb_wing.c). */
int vw_superior_touching(struct ctx *c, int u, int s);

/* Movement (vnb_wing_move.c). */
struct move_result vw_move_unit(struct ctx *c, int u, struct pt dest,
    long budget, enum move_mode mode, int target);
void vw_translate_unit(struct battle *b, int u, fx dx, fx dy);
/* The point `at` along the way from a to dest, `total` long. */
struct pt vw_along(struct pt a, struct pt dest, fx total, fx at);
/* How far from a towards z the first edge of a terrain area lies (the
 * whole way if none). */
fx vw_area_edge_ahead(const struct battle *b, struct pt a, struct pt z);
/* A ford or a bridge at p: where a river or marshy stream is crossed. */
int vw_crossing_allowed_at(const struct battle *b, struct pt p);
/* Turns unit u to face bearing `to` within `room` (COST units); what it
 * cost, or -1 if it could not. */
long vw_face_unit(struct ctx *c, int u, int to, int charging, long room);
/* The move's event, from its result, asked `asked` inches. */
void vw_report_move(struct ctx *c, int u, struct move_result *r, fx asked);
/* How deep unit u stands, front to back. */
fx vw_unit_depth(const struct battle *b, int u);
/* 1 if a stand of unit u touches an enemy stand. */
int vw_unit_in_enemy_contact(struct ctx *c, int u);

/* Command (vnb_wing.c): 1 if every stand of u able to move is in command. */
int vw_unit_in_command(struct ctx *c, int u);
/* Laying a unit out side by side, and whether it has room (vnb_wing_form.c). */
void vw_lay_out_line(struct battle *b, int u, struct pt c, int facing);
int vw_unit_has_room(const struct battle *b, int u);
int vw_step_crosses(const struct battle *b, const struct terrain *t,
    struct pt a, struct pt z);

/* Stands overlapping (vnb_wing.c). */
int vw_stands_overlap(const struct battle *b, int s, int k);

/* Formations and detachments (vnb_wing_form.c). */
long vw_change_formation(struct ctx *c, int u, enum formation want,
    long room);
int vw_can_detach(const struct unit *un);
int vw_detachments_of(const struct battle *b, int sp);
int vw_first_detachment(const struct battle *b, int u, int p);
int vw_break_unit(struct battle *b, int u, enum formation form,
    struct stand *save, const char **why);
int vw_reform_unit(struct battle *b, int u, fx contact, struct stand *save,
    const char **why);
int vw_prepare_detachments(struct battle *b, struct err *e);

/* Line of sight (vnb_wing_sight.c). */
int vw_can_see(const struct battle *b, struct pt a, struct pt z);

/* Morale and combat (vnb_wing_combat.c). */
int vw_across_water(const struct battle *b, struct pt a, struct pt z);
void vw_phase_morale(struct ctx *c);
void vw_unit_fires(struct ctx *c, int u);
void vw_melee(struct ctx *c, int a, int t);
/* A melee's parts, for a ruleset that plays them in its own order: the
 * stands of a and of t in contact (into att[], *na and def[], *nd; 0
 * if none); the melee dice of from[0..nfrom) each at the nearest of
 * to[0..nto), their saves and SP, returning the hits that took SP
 * (*dice, *hits: dice rolled and hits scored before saves, added to);
 * and the winner w's advance into the ground l left (lc), or only its
 * turn to face (stay). */
int vw_melee_stands(struct ctx *c, int a, int t, int *att, int *na,
    int *def, int *nd);
int vw_melee_strike(struct ctx *c, const int *from, int nfrom,
    const int *to, int nto, int offensive, int *dice, int *hits);
void vw_winner_advances(struct ctx *c, int w, int l, struct pt lc, int stay);
/* Every brigade's loss, and those it exhausts (vnb_wing.c). */
void vw_check_exhaustion(struct ctx *c);
/* Plays step `step` with w's rules in place of vnb-wing's
 * (vnb_adjudicate is vw_adjudicate(&vnb_rules, ...)), ext the state of
 * the ruleset built on it. */
int vw_adjudicate(const struct vw_rules *w, void *ext, struct battle *b,
    int step, const struct order_set *orders, int nsets, struct dice *d,
    struct events *ev, struct err *e);
/* Every stand of unit u on the table tests morale, `worse` worse than
 * its plain test (a card's), for `why`. */
void vw_unit_morale_test(struct ctx *c, int u, int worse, struct pt cause,
    const char *why);

/* A routed stand rallies, to a commander or a card named by `to`
 * (vnb_wing.c). */
void vw_rally_stand(struct ctx *c, int s, int commander, const char *card);
/* A rallied stand's free turn to face the nearest enemy unit it sees. */
void vw_rally_face(struct ctx *c, int s);

/* Fog of War cards (vnb_wing_cards.c).  begin: at the start of a phase,
 * effects run out, commanders come back, the first deal, the side's card
 * orders played; end: after the last phase of a turn, the hands refilled;
 * panic: Panic!!! for routs seen this phase. */
void vw_cards_begin(struct ctx *c, const struct order_set *mine);
void vw_cards_end(struct ctx *c);
void vw_cards_panic(struct ctx *c);
/* What cards in play do to unit u now: inches more (less) it moves; 1 if
 * its foot cross rough ground at no extra cost; 1 if the stream at `at`
 * is marshy banked for it.  The card's name when its morale tests are
 * one better, when it rerolls failed ones, when it tests one worse in a
 * melee with unit foe, when its fire rerolls misses (fire_done: that
 * fire is over), and when hits it scores get a second save; else NULL. */
fx vw_card_move(struct ctx *c, int u);
int vw_card_free_ground(struct ctx *c, int u);
int vw_card_marshy(struct ctx *c, int u, struct pt at);
const char *vw_card_steadier(struct ctx *c, int u);
const char *vw_card_morale_reroll(struct ctx *c, int u);
const char *vw_card_melee_worse(struct ctx *c, int u, int foe);
const char *vw_card_fire_reroll(struct ctx *c, int u);
void vw_card_fire_done(struct ctx *c, int u);
const char *vw_card_extra_save(struct ctx *c, int u, int melee);

/* A commander a card has put out: commands nobody meanwhile. */
static inline int
commander_out(const struct commander *k)
{
	return k->out_until != 0;
}

#endif
