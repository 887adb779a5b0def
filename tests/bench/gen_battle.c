/*
 * gen_battle.c - generated battles and their orders (see gen_battle.h).
 *
 * Workload: a battle of up to 1,600 stands made once a run (text of some
 * 60 KB, read by the scenario parser), and a mail of orders a phase.
 * Nothing here is timed by the benchmark; it only has to be exact and
 * the same on every machine, so it keeps to integers (fx) and its own
 * small random stream.
 */
#include "gen_battle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/geom.h"
#include "core/ruleset.h"
#include "core/text.h"
#include "orders/orders.h"
#include "scenario/scenario.h"

/* --- the random stream (splitmix64) -------------------------------------- */

struct rng {
	uint64_t s;
};

static uint64_t
rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 0 .. n-1 */
static int
rng_int(struct rng *r, int n)
{
	return (int)(rng_next(r) % (uint64_t)n);
}

/* lo .. hi hundredths, inclusive */
static fx
rng_fx(struct rng *r, fx lo, fx hi)
{
	return lo + (fx)rng_int(r, hi - lo + 1);
}

static void
rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed ^ (stream * 0xd1342543de82ef95ull);
	(void)rng_next(r);
}

/* --- the brigade --------------------------------------------------------- */

enum role { ROLE_FOOT = 0, ROLE_GUNS, ROLE_HORSE };

/* A unit of the brigade: its arm, its bases, its centre across the
 * brigade's front (dx, from the brigade's middle) and behind its front
 * line (back). */
struct slot {
	enum role role;
	int stands;
	fx dx, back;
};

struct army_kind {
	const char *ruleset;
	const struct slot *slots;
	int nslots;
	int stands;            /* a whole brigade's */
	fx pitch;              /* brigade to brigade across the row */
	fx cmd_back;           /* the commander behind the front line */
	/* The troop types each side draws from, by role (NULL-ended). */
	const char *const *types[2][3];
	const char *frontage[3];   /* bb7: each role's base width, else NULL */
	const char *sp[3];         /* each role's base strength */
};

/* vnb-wing: infantry 3" x 1.5", guns 1.5" x 3", horse 3" x 1.5".  Two
 * lines 4" apart; the commander 2" behind the first, within 6" of a
 * stand of every unit (the text's command radius), so that the whole
 * brigade starts in command. */
static const struct slot vnb_slots[] = {
	{ ROLE_FOOT, 4, -850, 0 },
	{ ROLE_GUNS, 2, 0, 0 },
	{ ROLE_FOOT, 4, 850, 0 },
	{ ROLE_FOOT, 4, -1000, 400 },
	{ ROLE_HORSE, 2, 0, 400 },
	{ ROLE_FOOT, 4, 1000, 400 },
};
static const char *const vnb_crown_foot[] = { "british-line", "highlanders",
	"grenadiers", "loyalist-line", "fusiliers", "musketeers", NULL };
static const char *const vnb_rebel_foot[] = { "continentals-post-1778",
	"continentals-pre-1778", "state-infantry", "experienced-militia",
	"trained-militia", NULL };
static const char *const vnb_guns[] = { "light-artillery", "field-artillery",
	NULL };
static const char *const vnb_crown_horse[] = { "light-dragoons",
	"legion-cavalry", NULL };
static const char *const vnb_rebel_horse[] = { "continental-dragoons",
	"state-cavalry", NULL };

/* bb7: bases of 2.4" (guns 1.6"), a unit a row of them; its command
 * radius is 18", so the brigade is laid out for room rather than reach. */
static const struct slot bb7_slots[] = {
	{ ROLE_FOOT, 6, -980, 0 },
	{ ROLE_GUNS, 2, 0, 0 },
	{ ROLE_FOOT, 6, 980, 0 },
	{ ROLE_FOOT, 6, -620, 500 },
	{ ROLE_HORSE, 4, 700, 500 },
};
static const char *const bb7_crown_foot[] = { "british-regulars",
	"german-regulars", "light-infantry", NULL };
static const char *const bb7_rebel_foot[] = { "regulars", "second-line",
	"experienced-militia", "militia", NULL };
static const char *const bb7_guns[] = { "light-gun", "field-gun", NULL };
static const char *const bb7_horse[] = { "dragoons", NULL };

static const struct army_kind kinds[] = {
	{ "vnb-wing", vnb_slots, 6, 20, 3800, 200,
	  { { vnb_crown_foot, vnb_guns, vnb_crown_horse },
	    { vnb_rebel_foot, vnb_guns, vnb_rebel_horse } },
	  { NULL, NULL, NULL }, { "2", "1", "1" } },
	{ "bb7", bb7_slots, 5, 24, 4000, 250,
	  { { bb7_crown_foot, bb7_guns, bb7_horse },
	    { bb7_rebel_foot, bb7_guns, bb7_horse } },
	  { "2.4", "1.6", "2.4" }, { "5", "4", "5" } },
};

static const char *const side_id[2] = { "crown", "continental" };
static const char *const side_word[2] = { "Crown", "Rebel" };
static const char *const role_word[3] = { "Foot", "Guns", "Horse" };

#define MARGIN_X  800    /* the table beyond the outer brigades */
#define MARGIN_Y  1000   /* ... and behind the last rows */
#define FRONT_GAP 1000   /* front line to front line */
#define ROW_GAP   1000   /* a row of brigades to the next behind it */
#define BRIGADE_D 600    /* a brigade's depth, front line to rear bases */

static const struct army_kind *
kind_of(const char *ruleset)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].ruleset, ruleset) == 0)
			return &kinds[i];
	return NULL;
}

/* The shape of the armies: brigades a side, rows, brigades a row, and
 * where the crown's front line is. */
struct layout {
	const struct army_kind *k;
	int per_side, brigades, rows, cols;
	fx width, depth, front;
};

static int
layout_of(const struct gen_spec *g, struct layout *l, struct err *e)
{
	memset(l, 0, sizeof(*l));
	l->k = kind_of(g->ruleset);
	if (l->k == NULL)
		return err_set(e, ERR_USER, "gen_battle: no generator for ruleset "
		    "'%s' (vnb-wing or bb7)", g->ruleset);
	if (g->stands < 20 || g->stands > BATTLE_MAX_STANDS || g->stands % 2)
		return err_set(e, ERR_USER, "gen_battle: %d stands: an even number "
		    "from 20 to %d", g->stands, BATTLE_MAX_STANDS);
	l->per_side = g->stands / 2;
	l->brigades = (l->per_side + l->k->stands - 1) / l->k->stands;
	/* Rows: the nearest whole number to sqrt(brigades) / 2, so that a
	 * row grows as fast as the number of rows. */
	l->rows = 1;
	while ((2 * l->rows + 1) * (2 * l->rows + 1) < l->brigades)
		l->rows++;
	l->cols = (l->brigades + l->rows - 1) / l->rows;
	l->width = 2 * MARGIN_X + l->cols * l->k->pitch;
	l->front = MARGIN_Y + (l->rows - 1) * ROW_GAP + BRIGADE_D;
	l->depth = l->front + FRONT_GAP + (l->rows - 1) * ROW_GAP + BRIGADE_D +
	    MARGIN_Y;
	return 0;
}

/* v in inches ("12.5"), in the next of buf's eight slots: enough for the
 * values one text_add writes. */
static const char *
inch(fx v, char buf[][24], int *slot)
{
	char *b = buf[(*slot)++ & 7];

	return geom_fmt_fx(v, b, 24);
}

/* A ragged hexagon about c, rx by ry at most, kept on the table. */
static void
add_poly(struct text *t, struct rng *r, const struct layout *l, struct pt c,
    fx rx, fx ry)
{
	static const int cs[6] = { 10000, 5000, -5000, -10000, -5000, 5000 };
	static const int sn[6] = { 0, 8660, 8660, 0, -8660, -8660 };
	char buf[8][24];
	int i, slot = 0;

	text_add(t, " poly");
	for (i = 0; i < 6; i++) {
		int k = 70 + rng_int(r, 31);   /* 70 % to 100 % of the radius */
		int64_t x = c.x + (int64_t)rx * cs[i] / 10000 * k / 100;
		int64_t y = c.y + (int64_t)ry * sn[i] / 10000 * k / 100;

		x = x < 0 ? 0 : x > l->width ? l->width : x;
		y = y < 0 ? 0 : y > l->depth ? l->depth : y;
		text_add(t, " %s,%s", inch((fx)x, buf, &slot),
		    inch((fx)y, buf, &slot));
	}
	text_add(t, "\n");
}

static void
add_terrain(struct text *t, struct rng *r, const struct layout *l, int bb7)
{
	int64_t area = (int64_t)(l->width / FX_ONE) * (l->depth / FX_ONE);
	int woods = (int)(area / 2500) + 1, hills = (int)(area / 3000) + 1;
	int villages = (int)(area / 12000) + 1, i;
	char buf[8][24];
	int slot = 0;
	fx x;

	for (i = 0; i < woods; i++) {
		struct pt c = { rng_fx(r, 0, l->width), rng_fx(r, 0, l->depth) };

		text_add(t, "terrain %s \"Wood %d\"", bb7 && i % 4 == 3 ? "forest" :
		    "wood", i + 1);
		add_poly(t, r, l, c, rng_fx(r, 300, 800), rng_fx(r, 200, 500));
	}
	if (bb7) {
		for (i = 0; i < villages; i++) {
			struct pt c = { rng_fx(r, 0, l->width), rng_fx(r, 0, l->depth) };

			text_add(t, "terrain village \"Village %d\"", i + 1);
			add_poly(t, r, l, c, rng_fx(r, 200, 400), rng_fx(r, 200, 300));
		}
	} else {
		for (i = 0; i < hills; i++) {
			struct pt c = { rng_fx(r, 0, l->width), rng_fx(r, 0, l->depth) };

			text_add(t, "terrain hill \"Hill %d\" level 1", i + 1);
			add_poly(t, r, l, c, rng_fx(r, 500, 1000), rng_fx(r, 300, 700));
		}
		/* A stream across no man's land, wandering 2" either way. */
		text_add(t, "terrain stream \"The brook\" line");
		for (x = 0; x < l->width + 4000; x += 4000) {
			fx px = x > l->width ? l->width : x;
			fx py = l->front + FRONT_GAP / 2 + rng_fx(r, -200, 200);

			text_add(t, " %s,%s", inch(px, buf, &slot), inch(py, buf, &slot));
		}
		text_add(t, "\n");
	}
	/* A road from edge to edge through the middle. */
	x = l->width / 2 + rng_fx(r, -500, 500);
	text_add(t, "terrain road \"The high road\" line %s,0 %s,%s %s,%s\n",
	    inch(x, buf, &slot), inch(x + rng_fx(r, -300, 300), buf, &slot),
	    inch(l->depth / 2, buf, &slot), inch(x, buf, &slot),
	    inch(l->depth, buf, &slot));
}

static void
add_side(struct text *t, struct rng *r, const struct layout *l, int sd)
{
	const struct army_kind *k = l->k;
	int fwd = sd == 0 ? 1 : -1;        /* north for the crown */
	fx front = sd == 0 ? l->front : l->front + FRONT_GAP;
	int left = l->per_side, bi, n[3] = { 0, 0, 0 };
	char buf[8][24];
	int slot = 0;

	text_add(t, "\nside %s \"%s army\"\n", side_id[sd], side_word[sd]);
	text_add(t, "  commander \"%s General\" army at %s,%s\n", side_word[sd],
	    inch(l->width / 2, buf, &slot), inch(sd == 0 ? 400 : l->depth - 400,
	    buf, &slot));
	for (bi = 0; bi < l->brigades && left > 0; bi++) {
		int row = bi / l->cols, col = bi % l->cols, i;
		fx cx = MARGIN_X + col * k->pitch + k->pitch / 2;
		fx fy = front - fwd * row * ROW_GAP;

		text_add(t, "  brigade \"%s Brigade %d\" commander \"Brig. %s %d\" "
		    "at %s,%s%s\n", side_word[sd], bi + 1, side_word[sd], bi + 1,
		    inch(cx, buf, &slot), inch(fy - fwd * k->cmd_back, buf, &slot),
		    strcmp(k->ruleset, "bb7") == 0 ? " quality 3" : "");
		for (i = 0; i < k->nslots && left > 0; i++) {
			const struct slot *s = &k->slots[i];
			const char *const *types = k->types[sd][s->role];
			int ntypes = 0, stands = s->stands < left ? s->stands : left;

			while (types[ntypes] != NULL)
				ntypes++;
			left -= stands;
			text_add(t, "    unit \"%s %s %d\" type %s stands %d sp %s",
			    side_word[sd], role_word[s->role], ++n[s->role],
			    types[rng_int(r, ntypes)], stands, k->sp[s->role]);
			if (k->frontage[s->role] != NULL)
				text_add(t, " frontage %s", k->frontage[s->role]);
			/* Facing the enemy across the table; the mirror image
			 * for the other side, so brigade faces brigade. */
			text_add(t, " at %s,%s facing %d\n",
			    inch(cx + fwd * s->dx, buf, &slot),
			    inch(fy - fwd * s->back, buf, &slot), sd == 0 ? 0 : 180);
		}
	}
}

int
gen_battle_scenario(const struct gen_spec *g, char **text, size_t *len,
    struct err *e)
{
	struct layout l;
	struct text t;
	struct rng r;
	char buf[8][24];
	int slot = 0, bb7;

	*text = NULL;
	*len = 0;
	if (layout_of(g, &l, e) != 0)
		return -1;
	bb7 = strcmp(l.k->ruleset, "bb7") == 0;
	rng_seed(&r, g->seed, 1);
	text_init(&t, SCENARIO_MAX_BYTES);
	text_add(&t, "# Generated by tests/bench/gen_battle.c: %d stands, seed "
	    "%llu.\n", g->stands, (unsigned long long)g->seed);
	text_add(&t, "scenario \"Generated battle, %d stands (%s)\"\n",
	    g->stands, l.k->ruleset);
	text_add(&t, "ruleset %s\ntable %s x %s\n", l.k->ruleset,
	    inch(l.width, buf, &slot), inch(l.depth, buf, &slot));
	text_add(&t, "turns %d first 09:00\nsequence alternate crown "
	    "continental\n", g->turns > 0 ? g->turns : 12);
	/* Played to the last phase asked for: no side breaks early. */
	text_add(&t, "victory exhausted 1 collapsed 2 margin 1 army-break off\n");
	add_terrain(&t, &r, &l, bb7);
	add_side(&t, &r, &l, 0);
	add_side(&t, &r, &l, 1);
	if (t.over) {
		text_free(&t);
		return err_set(e, ERR_INTERNAL, "gen_battle: the scenario is over "
		    "%u bytes", SCENARIO_MAX_BYTES);
	}
	*text = t.s;
	*len = t.len;
	return 0;
}

int
gen_battle_new(const struct gen_spec *g, struct battle **out,
    struct err *e)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	if (gen_battle_scenario(g, &text, &len, e) != 0)
		return -1;
	rc = scenario_parse(text, len, "generated.scenario", 0, out, e);
	free(text);
	return rc;
}

/* --- orders -------------------------------------------------------------- */

/* The enemy unit whose centre is nearest u's (by centres: the orders are
 * the generator's, not the rules', and must cost nothing to make), and
 * that distance; -1 if none is on the table. */
static int
nearest_enemy(const struct battle *b, int u, struct pt at, fx *dist)
{
	int v, best = -1;
	fx bd = 0;

	for (v = 0; v < b->nunits; v++) {
		struct pt c;
		fx d;

		if (b->units[v].side == b->units[u].side ||
		    !battle_unit_centre(b, v, &c))
			continue;
		d = geom_dist(at, c);
		if (best < 0 || d < bd) {
			best = v;
			bd = d;
		}
	}
	*dist = bd;
	return best;
}

static struct pt
toward(const struct battle *b, struct pt from, struct pt to, fx d)
{
	fx all = geom_dist(from, to);
	struct pt p = from;

	if (all > 0) {
		p.x = from.x + (fx)geom_div_round((int64_t)(to.x - from.x) * d, all);
		p.y = from.y + (fx)geom_div_round((int64_t)(to.y - from.y) * d, all);
	}
	p.x = p.x < 100 ? 100 : p.x > b->width - 100 ? b->width - 100 : p.x;
	p.y = p.y < 100 ? 100 : p.y > b->depth - 100 ? b->depth - 100 : p.y;
	return p;
}

int
gen_battle_orders(const struct gen_spec *g, const struct battle *b,
    int side, int step, char **text, struct err *e)
{
	int bb7 = strcmp(b->ruleset, "bb7") == 0, u, k;
	const char *fire = bb7 ? "SHOOT AT" : "FIRE AT";
	struct text t;
	struct rng r;
	char buf[8][24];
	int slot = 0;

	*text = NULL;
	rng_seed(&r, g->seed, 1000 + (uint64_t)step);
	text_init(&t, 1 << 20);
	for (u = 0; u < b->nunits; u++) {
		const struct unit *un = &b->units[u];
		struct pt c, vc;
		fx d;
		int v, roll = rng_int(&r, 8);

		if (un->side != side || !battle_unit_centre(b, u, &c))
			continue;
		v = nearest_enemy(b, u, c, &d);
		if (v < 0)
			break;
		(void)battle_unit_centre(b, v, &vc);
		if (un->kind == KIND_ARTILLERY) {
			text_add(&t, "%s: %s %s\n", un->name, fire, b->units[v].name);
		} else if (un->kind == KIND_MOUNTED) {
			if (d <= FX(14))
				text_add(&t, "%s: CHARGE %s\n", un->name, b->units[v].name);
			else if (bb7) {
				struct pt p = toward(b, c, vc, d - FX(6) < FX(10) ?
				    d - FX(6) : FX(10));

				text_add(&t, "%s: MOVE TO %s,%s\n", un->name,
				    inch(p.x, buf, &slot), inch(p.y, buf, &slot));
			} else
				text_add(&t, "%s: ADVANCE 8\n", un->name);
		} else if (d <= FX(8) && roll < 2) {
			text_add(&t, "%s: CHARGE %s\n", un->name, b->units[v].name);
		} else {
			/* Close to 4" of it, at most 4" a phase, and fire. */
			fx go = d - FX(4) < FX(4) ? d - FX(4) : FX(4);

			if (go < FX(0.5))
				text_add(&t, "%s: %s %s%s%s\n", un->name, fire,
				    b->units[v].name, bb7 ? " THEN SHOOT AT " : "",
				    bb7 ? b->units[v].name : "");
			else if (!bb7 && roll % 2 == 0)
				text_add(&t, "%s: ADVANCE %s THEN %s %s\n", un->name,
				    inch(go, buf, &slot), fire, b->units[v].name);
			else {
				struct pt p = toward(b, c, vc, go);

				text_add(&t, "%s: MOVE TO %s,%s THEN %s %s\n", un->name,
				    inch(p.x, buf, &slot), inch(p.y, buf, &slot), fire,
				    b->units[v].name);
			}
		}
	}
	/* Brigade commanders follow their brigades: 2" behind the centre of
	 * what is left of it. */
	for (k = 0; k < b->ncommanders; k++) {
		const struct commander *cm = &b->commanders[k];
		int64_t sx = 0, sy = 0, n = 0;
		int s;

		if (cm->side != side || cm->gone || cm->rank != RANK_BRIGADE)
			continue;
		for (s = 0; s < b->nstands; s++) {
			const struct unit *un = &b->units[b->stands[s].unit];

			if (un->brigade != cm->brigade ||
			    (b->stands[s].flags & ST_GONE))
				continue;
			sx += b->stands[s].pos.x;
			sy += b->stands[s].pos.y;
			n++;
		}
		if (n == 0)
			continue;
		{
			struct pt p = { (fx)(sx / n), (fx)(sy / n - (side == 0 ?
			    200 : -200)) };

			p = toward(b, p, p, 0);
			text_add(&t, "%s: MOVE TO %s,%s\n", cm->name,
			    inch(p.x, buf, &slot), inch(p.y, buf, &slot));
		}
	}
	if (t.over) {
		text_free(&t);
		return err_set(e, ERR_INTERNAL, "gen_battle: the orders of step %d "
		    "are over 1 MB", step);
	}
	*text = t.s != NULL ? t.s : calloc(1, 1);
	if (*text == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	return 0;
}

int
gen_battle_order_sets(const struct gen_spec *g, struct orders_parser *op,
    const struct battle *b, int step, struct order_set *sets, int *nsets,
    int *bad, struct err *e)
{
	struct orders_result *res = malloc(sizeof(*res));
	int phasing = battle_step_side(b, step), s, rc = -1;

	*nsets = 0;
	*bad = 0;
	if (res == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	for (s = 0; s < b->nsides; s++) {
		char *text = NULL;

		if (phasing >= 0 && s != phasing)
			continue;
		if (gen_battle_orders(g, b, s, step, &text, e) != 0)
			goto out;
		orders_parse(op, b, s, text, 0, res);
		free(text);
		*bad += res->nerrors + res->too_many;
		sets[(*nsets)++] = res->set;
	}
	rc = 0;
out:
	free(res);
	return rc;
}

void
gen_battle_dice(const struct gen_spec *g, int step, struct ledger_dice *ld)
{
	unsigned char seed[LEDGER_SEED_BYTES];
	struct rng r;
	int i;

	rng_seed(&r, g->seed, 1u << 20 | (uint64_t)step);
	for (i = 0; i < LEDGER_SEED_BYTES; i++)
		seed[i] = (unsigned char)(rng_next(&r) >> 56);
	ledger_dice_init(ld, seed);
}
