/*
 * bench_orders.c - how fast orders are checked and mail is taken in.
 *
 * A benchmark run by hand, not a test: it prints figures and says whether
 * each target is met, and always exits 0 unless it could not run.
 *
 *   bench_orders [N] [--lines L] [--resubmit R] [--only check|intake]
 *                [--scenario FILE] [--sample K] [--dump] [--pool M]
 *
 * (--sample K prints K generated mails with what the parser made of each
 * line, and stops.  --dump prints everything the parser made of each
 * mail of the check's pool, every field of every result, and stops:
 * `bench_orders --dump | sha256sum` before and after a change to the
 * parser shows whether it changed any result.  --pool M makes the check's
 * pool at most M distinct mails (default 40000), read again as often as
 * the lines need: a small pool under callgrind shows the passes after
 * the first, where every name typed has been seen.)
 *
 * 1. order checking: orders_parse over generated Cowpens order mails
 *    (every verb; names in full, by prefix or word, lower case, with
 *    curly quotes; THEN chains; about 8% of lines with a mistake), at
 *    least L order lines in all (default 3,000,000), against
 * 2. the bare PCRE2 rate: one anchored match of the same lines with the
 *    parser's line pattern and compile flags, reusing one match_data;
 * 3. their ratio;
 * 4. intake: N order mails (default 2000) through referee_submit into a
 *    fresh database, then R resubmissions (default 5000) of one side's
 *    orders for one phase, against
 * 5. a raw SQLite commit (one INSERT of a 2 KB blob per transaction, WAL,
 *    synchronous=NORMAL) in a fresh file in the same directory.
 *
 * The mails are generated from a fixed seed, so runs are comparable.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <sqlite3.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/battle.h"
#include "core/ruleset.h"
#include "orders/orders.h"
#include "referee/referee.h"
#include "referee/internal.h"
#include "scenario/scenario.h"
#include "store/store.h"

#include "bench_util.h"

#define die(...) bench_die("bench_orders", __VA_ARGS__)
/* The thread's CPU time, beside the wall clock: what a run on a machine
 * shared with other work can still be compared by. */
#define cpu_s() bench_clock_s(CLOCK_THREAD_CPUTIME_ID)
#define now_s() bench_clock_s(CLOCK_MONOTONIC)

#ifndef DESPATCH_SOURCE_DIR
#define DESPATCH_SOURCE_DIR "."
#endif
#ifdef NDEBUG
#define BENCH_ASSERTS "off"
#else
#define BENCH_ASSERTS "on (not an optimised build?)"
#endif

#define TARGET_LINES_PER_S 2500000.0
#define TARGET_RATIO       0.25
#define LINE_PATTERN       "^\\s*(.+?)\\s*:\\s*(.*?)\\s*$"
#define LINE_FLAGS         (PCRE2_CASELESS | PCRE2_UTF)

static int maxpool = 40000;   /* distinct mails of the check (--pool) */

/* --- a reproducible generator ------------------------------------------ */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

static int
rn(int n)
{
	return n <= 1 ? 0 : (int)(rnd() % (uint32_t)n);
}

static int
chance(int pct)
{
	return rn(100) < pct;
}

static void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (p == NULL)
		die("out of memory");
	return p;
}

static char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

struct sbuf {
	char *s;
	size_t len, cap;
};

static void
sb_add(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			die("vsnprintf failed");
		if (b->s != NULL && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		b->cap = (b->cap + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (b->s == NULL)
			die("out of memory");
	}
}

/* --- names as players write them --------------------------------------- */

#define MAXFORMS 40

struct forms {
	int n;
	char *f[MAXFORMS];
};

struct who {
	int is_cmd, idx, kind;
	const char *name;
	struct forms own;      /* resolves to it among its side's own */
	struct forms enemy;    /* (units) resolves to it as an enemy target */
	struct forms friend;   /* (units) resolves to it as a JOIN target */
};

struct sidegen {
	int side, gi;         /* battle side; index in gen.s */
	const char *id, *pw, *from, *email;
	struct who w[BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS];
	int n, nunits;
	const char *ambiguous[4];
};

struct gen {
	const struct battle *b;
	struct orders_parser *p;
	struct orders_result *res;
	struct sidegen s[2];
};

static void
forms_add(struct forms *fs, const char *f)
{
	int i;

	if (fs->n == MAXFORMS || f[0] == '\0')
		return;
	for (i = 0; i < fs->n; i++)
		if (strcmp(fs->f[i], f) == 0)
			return;
	fs->f[fs->n++] = xstrdup(f);
}

/* Names a player might write for name: the whole of it, one to three of
 * its words from any word on, the last word cut short, in various cases. */
static int
candidates(const char *name, char out[][BATTLE_NAME_MAX * 2], int max)
{
	char words[16][BATTLE_NAME_MAX];
	char tmp[BATTLE_NAME_MAX * 2];
	int nw = 0, n = 0, s, k, i;
	const char *p = name;

	snprintf(out[n++], BATTLE_NAME_MAX * 2, "%s", name);
	for (i = 0; name[i] && i + 1 < (int)sizeof(tmp); i++)
		tmp[i] = (char)tolower((unsigned char)name[i]);
	tmp[i] = '\0';
	snprintf(out[n++], BATTLE_NAME_MAX * 2, "%s", tmp);
	for (i = 0; name[i] && i + 1 < (int)sizeof(tmp); i++)
		tmp[i] = (char)toupper((unsigned char)name[i]);
	tmp[i] = '\0';
	snprintf(out[n++], BATTLE_NAME_MAX * 2, "%s", tmp);
	while (*p && nw < 16) {
		size_t l;

		while (*p == ' ' || *p == '(' || *p == ')')
			p++;
		l = strcspn(p, " ()");
		if (l == 0)
			break;
		memcpy(words[nw], p, l);
		words[nw][l] = '\0';
		nw++;
		p += l;
	}
	for (s = 0; s < nw; s++) {
		/* Nobody writes "and Tate" or "Col. Banastre" for a name. */
		if (s > 0 && (strcmp(words[s], "and") == 0 ||
		    strcmp(words[s], "of") == 0 ||
		    words[s][strlen(words[s]) - 1] == '.'))
			continue;
		if (s == 0 && words[0][strlen(words[0]) - 1] == '.')
			continue;
		for (k = 1; k <= 3 && s + k <= nw && n + 2 < max; k++) {
			size_t len = 0, last;

			tmp[0] = '\0';
			for (i = s; i < s + k; i++)
				len += (size_t)snprintf(tmp + len, sizeof(tmp) - len, "%s%s",
				    i > s ? " " : "", words[i]);
			snprintf(out[n++], BATTLE_NAME_MAX * 2, "%s", tmp);
			last = strlen(words[s + k - 1]);
			if (last >= 6) {
				tmp[len - last + 4 + (size_t)rn((int)last - 4)] = '\0';
				snprintf(out[n++], BATTLE_NAME_MAX * 2, "%s", tmp);
			}
		}
	}
	return n;
}

/* Parses one line for side; returns its order if it was understood. */
static const struct order *
parse_one(struct gen *g, int side, const char *line)
{
	orders_parse(g->p, g->b, side, line, 0, g->res);
	if (g->res->nlines != 1 || g->res->lines[0].status != ORDERS_OK ||
	    g->res->set.n != 1)
		return NULL;
	return &g->res->set.orders[0];
}

static void
gen_forms(struct gen *g)
{
	static char cand[64][BATTLE_NAME_MAX * 2];
	int si, i, k;

	for (si = 0; si < 2; si++) {
		struct sidegen *sg = &g->s[si];
		struct sidegen *other = &g->s[1 - si];
		const char *cmdr = NULL, *enemy_ref = other->w[0].name;

		for (i = 0; i < sg->n; i++)
			if (sg->w[i].is_cmd && cmdr == NULL)
				cmdr = sg->w[i].name;
		for (i = 0; i < sg->n; i++) {
			struct who *w = &sg->w[i];
			int nc = candidates(w->name, cand, 64);

			for (k = 0; k < nc; k++) {
				char line[512];
				const struct order *o;

				snprintf(line, sizeof(line), "%.190s: HOLD", cand[k]);
				o = parse_one(g, sg->side, line);
				if (o != NULL && o->who == w->idx &&
				    o->is_commander == w->is_cmd)
					forms_add(&w->own, cand[k]);
				if (w->is_cmd)
					continue;
				snprintf(line, sizeof(line), "%.100s: FIRE AT %.190s", enemy_ref,
				    cand[k]);
				o = parse_one(g, other->side, line);
				if (o != NULL && o->steps[0].target == w->idx)
					forms_add(&w->enemy, cand[k]);
				snprintf(line, sizeof(line), "%.100s: JOIN %.190s", cmdr, cand[k]);
				o = parse_one(g, sg->side, line);
				if (o != NULL && o->steps[0].target == w->idx)
					forms_add(&w->friend, cand[k]);
			}
			if (w->own.n == 0 || (!w->is_cmd && (w->enemy.n == 0 ||
			    w->friend.n == 0)))
				die("no usable form of the name \"%s\"", w->name);
		}
	}
}

/* Writes a form: the full name a third of the time, curly quotes for
 * straight ones half the time. */
static void
put_name(struct sbuf *b, const struct forms *fs)
{
	const char *f = chance(35) ? fs->f[0] : fs->f[rn(fs->n)];
	int curly = strchr(f, '\'') != NULL && chance(50);

	for (; *f; f++) {
		if (*f == '\'' && curly)
			sb_add(b, "\xe2\x80\x99");
		else
			sb_add(b, "%c", *f);
	}
}

/* A name with one letter changed, dropped or swapped. */
static void
put_misspelt(struct sbuf *b, const struct forms *fs)
{
	char s[BATTLE_NAME_MAX * 2];
	size_t n, i;
	int tries;

	snprintf(s, sizeof(s), "%s", chance(50) ? fs->f[0] : fs->f[rn(fs->n)]);
	n = strlen(s);
	for (tries = 0; tries < 20; tries++) {
		i = (size_t)rn((int)n);
		if (isalpha((unsigned char)s[i]))
			break;
	}
	switch (rn(3)) {
	case 0:
		s[i] = (char)((tolower((unsigned char)s[i]) - 'a' + 1 + rn(25)) % 26 + 'a');
		break;
	case 1:
		memmove(s + i, s + i + 1, n - i);
		break;
	default:
		if (i + 1 < n) {
			char t = s[i];

			s[i] = s[i + 1];
			s[i + 1] = t;
		}
		break;
	}
	sb_add(b, "%s", s);
}

static const char *
verb_case(const char *v)
{
	static char buf[4][32];
	static int k;
	char *o = buf[k++ & 3];
	int r = rn(100), i;

	for (i = 0; v[i] && i < 31; i++)
		o[i] = r < 85 ? v[i] : r < 95 || i == 0 ?
		    (char)(r < 95 ? tolower((unsigned char)v[i]) : v[i]) :
		    (char)tolower((unsigned char)v[i]);
	o[i] = '\0';
	return o;
}

static void
put_num(struct sbuf *b, int lo, int hi, int halves)
{
	int v = lo + rn(hi - lo + 1);

	if (halves && chance(20) && v < hi)
		sb_add(b, "%d.5", v);
	else
		sb_add(b, "%d", v);
}

/* One order step for w of side sg (a unit unless w->is_cmd). */
static void
put_step(struct gen *g, const struct sidegen *sg, const struct who *w,
    struct sbuf *b)
{
	const struct sidegen *other = &g->s[1 - sg->gi];
	int r = rn(100);

	if (w->is_cmd) {
		if (r < 50) {
			sb_add(b, "%s ", verb_case("MOVE TO"));
			put_num(b, 0, 71, 1);
			sb_add(b, chance(30) ? ", " : ",");
			put_num(b, 0, 47, 1);
		} else if (r < 80) {
			sb_add(b, "%s ", verb_case("JOIN"));
			put_name(b, &sg->w[rn(sg->nunits)].friend);
		} else {
			sb_add(b, "%s", verb_case("HOLD"));
		}
		return;
	}
	if (r < 20) {
		static const char *const unit[] = { "", "", "", "\"", " in", " inches" };

		sb_add(b, "%s ", verb_case("ADVANCE"));
		put_num(b, 1, 12, 1);
		sb_add(b, "%s", unit[rn(6)]);
	} else if (r < 35) {
		sb_add(b, "%s ", verb_case("MOVE TO"));
		put_num(b, 0, 71, 1);
		sb_add(b, chance(30) ? ", " : ",");
		put_num(b, 0, 47, 1);
	} else if (r < 47) {
		static const int deg[] = { 10, 15, 20, 30, 45, 60, 90, 135, 180 };

		sb_add(b, "%s %s %d%s", verb_case("WHEEL"), chance(50) ? "LEFT" :
		    "RIGHT", deg[rn(9)], chance(15) ? " degrees" : "");
	} else if (r < 55) {
		sb_add(b, "%s %d", verb_case("FACE"), 15 * rn(24));
	} else if (r < 65) {
		static const char *const mounted[] = { "MOUNTED", "ROAD", "SKIRMISH" };
		static const char *const det[] = { "SKIRMISH", "ROAD", "LINE" };
		static const char *const foot[] = { "LINE", "ROAD" };

		sb_add(b, "%s %s", verb_case("FORM"), w->kind == KIND_MOUNTED ?
		    mounted[rn(3)] : w->kind == KIND_DETACHMENT ? det[rn(3)] :
		    foot[rn(2)]);
	} else if (r < 80) {
		sb_add(b, "%s ", verb_case("FIRE AT"));
		put_name(b, &other->w[rn(other->nunits)].enemy);
	} else if (r < 88) {
		sb_add(b, "%s ", verb_case("CHARGE"));
		put_name(b, &other->w[rn(other->nunits)].enemy);
	} else if (r < 95) {
		sb_add(b, "%s", verb_case("HOLD"));
	} else {
		sb_add(b, "%s", verb_case("REFORM"));
	}
}

/* A line that is right: steps joined with THEN. */
static void
put_order(struct gen *g, const struct sidegen *sg, const struct who *w,
    struct sbuf *b)
{
	int steps = w->is_cmd ? (chance(10) ? 2 : 1) :
	    chance(8) ? 3 : chance(27) ? 2 : 1, i;

	put_name(b, &w->own);
	sb_add(b, chance(10) ? " : " : ": ");
	for (i = 0; i < steps; i++) {
		if (i > 0)
			sb_add(b, " %s ", verb_case("THEN"));
		put_step(g, sg, w, b);
	}
	if (chance(4))
		sb_add(b, "  # %s", chance(50) ? "to the fence" : "steady, lads");
}

/* A line with a mistake a player makes. */
static void
put_mistake(struct gen *g, const struct sidegen *sg, const struct who *w,
    struct sbuf *b)
{
	const struct sidegen *other = &g->s[1 - sg->gi];
	const struct who *own_unit = &sg->w[rn(sg->nunits)];

	switch (rn(8)) {
	case 0:		/* a misspelt name */
		put_misspelt(b, &w->own);
		sb_add(b, ": ");
		put_step(g, sg, w, b);
		break;
	case 1:		/* an enemy unit */
		put_name(b, &other->w[rn(other->nunits)].enemy);
		sb_add(b, ": %s", chance(50) ? "HOLD" : "ADVANCE 4");
		break;
	case 2: {	/* a verb there is not */
		static const char *const bad[] = { "ATTACK the 7th", "RETREAT 6",
		    "FALL BACK TO 30,40", "ADVANCE8", "STAND FAST", "VOLLEY" };

		put_name(b, &w->own);
		sb_add(b, ": %s", bad[rn(6)]);
		break;
	}
	case 3: {	/* a verb with a bad argument */
		static const char *const bad[] = { "ADVANCE far", "FACE 400",
		    "WHEEL 45", "FORM SQUARE", "MOVE TO 80,10", "HOLD position",
		    "ADVANCE 300", "MOVE TO the ford" };

		put_name(b, &own_unit->own);
		sb_add(b, ": %s", bad[rn(8)]);
		break;
	}
	case 4:		/* no colon */
		put_name(b, &w->own);
		sb_add(b, chance(50) ? " ADVANCE 6" : " - HOLD");
		break;
	case 5:		/* a name that fits more than one */
		sb_add(b, "%s: HOLD", sg->ambiguous[rn(4)]);
		break;
	case 6:		/* a misspelt target */
		put_name(b, &own_unit->own);
		sb_add(b, ": FIRE AT ");
		put_misspelt(b, &other->w[rn(other->nunits)].enemy);
		break;
	default:	/* a commander given a unit's order */
		put_name(b, &sg->w[sg->nunits + rn(sg->n - sg->nunits)].own);
		sb_add(b, ": ADVANCE 6");
		break;
	}
}

struct mail {
	char *body;          /* LF line ends; the header line first */
	int side;            /* battle side */
	int gi;              /* index in gen.s */
	int norders;         /* order lines (what "lines" counts) */
	int nlines;          /* all lines */
	int *off, *len;      /* the order lines, for the bare PCRE2 pass */
};

static const char *const quoted[] = {
	"> Cowpens (game cowpens), turn 1 (07:00), Crown: Tarleton's detachment",
	"> 7th Foot (Royal Fusiliers) advanced 8\" to 26.5,18.",
	"> North Carolina Riflemen fired at 7th Foot: 2 hits, 1 disorder.",
	"> Units without orders hold.",
	">",
	"> You will get the report when the phase has been played.",
};

/* An order mail's body of 10 to 40 lines: the GAME line, a comment or two,
 * one line for most of the side's units and commanders (about 8% with a
 * mistake, now and then the same unit twice), blank lines, and a
 * signature or a quoted report to make up the length. */
static void
gen_mail(struct gen *g, int gi, int turn, struct mail *m)
{
	struct sidegen *sg = &g->s[gi];
	struct sbuf b = { NULL, 0, 0 };
	int order[BATTLE_MAX_UNITS + BATTLE_MAX_COMMANDERS];
	int want = 10 + rn(31), k, i, lines = 0, cap = sg->n + 4;

	m->side = sg->side;
	m->gi = gi;
	m->norders = 0;
	m->off = xmalloc((size_t)cap * sizeof(int));
	m->len = xmalloc((size_t)cap * sizeof(int));
	sb_add(&b, "GAME cowpens SIDE %s TURN %d PASSWORD %s\n\n", sg->id, turn,
	    sg->pw);
	lines += 2;
	if (chance(40)) {
		sb_add(&b, "# %s\n", chance(50) ? "Form line of battle and "
		    "advance at the double." : "Hold fast until they are within "
		    "fifty yards.");
		lines++;
	}
	for (i = 0; i < sg->n; i++)
		order[i] = i;
	for (i = sg->n - 1; i > 0; i--) {
		int j = rn(i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	k = sg->n - rn(4);
	for (i = 0; i < k + (chance(3) ? 1 : 0); i++) {
		const struct who *w = &sg->w[order[i < k ? i : rn(k)]];
		size_t start = b.len;

		if (chance(10)) {
			sb_add(&b, "\n");
			lines++;
		} else if (chance(4)) {
			sb_add(&b, "# then the guns\n");
			lines++;
		}
		start = b.len;
		if (chance(8))
			put_mistake(g, sg, w, &b);
		else
			put_order(g, sg, w, &b);
		m->off[m->norders] = (int)start;
		m->len[m->norders] = (int)(b.len - start);
		m->norders++;
		sb_add(&b, "\n");
		lines++;
	}
	if (lines < want) {
		if (chance(50)) {
			sb_add(&b, "\n-- \n%s\n%s\n", sg->from, gi == 0 ?
			    "Lt. Col., British Legion" : "Brig. Gen., Continental Army");
			lines += 4;
		}
		if (lines < want) {
			sb_add(&b, "\nOn Wed, 17 Jan 2024 at 09:12, despatch "
			    "<despatch@localhost> wrote:\n");
			lines += 2;
		}
		while (lines < want) {
			sb_add(&b, "%s\n", quoted[rn(6)]);
			lines++;
		}
	}
	m->body = b.s;
	m->nlines = lines;
}

static void
mail_free(struct mail *m)
{
	free(m->body);
	free(m->off);
	free(m->len);
}

static void
gen_init(struct gen *g, const struct battle *b, struct err *e)
{
	int si, i;
	static const char *const amb[2][4] = {
		{ "Grasshopper", "British Legion", "Legion", "Light" },
		{ "Riflemen", "Continentals", "Regiment", "Militia" }
	};

	memset(g, 0, sizeof(*g));
	g->b = b;
	g->p = orders_parser_new(ruleset_find(b->ruleset), e);
	if (g->p == NULL)
		die("orders_parser_new: %s", e->msg);
	g->res = xmalloc(sizeof(*g->res));
	for (si = 0; si < 2; si++) {
		struct sidegen *sg = &g->s[si];

		sg->gi = si;
		sg->id = si == 0 ? "crown" : "continental";
		sg->side = battle_side(b, sg->id);
		if (sg->side < 0)
			die("the scenario has no side %s", sg->id);
		sg->pw = si == 0 ? "scarlet-bugle-thistle-harbour" :
		    "hickory-ember-cove-wren";
		sg->from = si == 0 ? "Banastre Tarleton" : "Daniel Morgan";
		sg->email = si == 0 ? "tarleton@crown.example.org" :
		    "morgan@continental.example.org";
		for (i = 0; i < 4; i++)
			sg->ambiguous[i] = amb[si][i];
		for (i = 0; i < b->nunits; i++)
			if (b->units[i].side == sg->side) {
				struct who *w = &sg->w[sg->n++];

				w->idx = i;
				w->name = b->units[i].name;
				w->kind = (int)b->units[i].kind;
			}
		sg->nunits = sg->n;
		for (i = 0; i < b->ncommanders; i++)
			if (b->commanders[i].side == sg->side) {
				struct who *w = &sg->w[sg->n++];

				w->is_cmd = 1;
				w->idx = i;
				w->name = b->commanders[i].name;
				w->kind = -1;
			}
		if (sg->nunits == 0 || sg->n == sg->nunits)
			die("side %s needs units and commanders", sg->id);
	}
	gen_forms(g);
}

/* --- --dump: every result, as text --------------------------------------- */

static void
dump_set(const char *what, const struct order_set *set)
{
	int i, j;

	printf("%s side=%d n=%d\n", what, set->side, set->n);
	for (i = 0; i < set->n; i++) {
		const struct order *o = &set->orders[i];

		printf(" o cmd=%d who=%d special=%d/%d at=%ld,%ld line=%d steps=%d",
		    o->is_commander, o->who, o->special, o->special_arg,
		    (long)o->at.x, (long)o->at.y, o->line, o->nsteps);
		for (j = 0; j < o->nsteps; j++) {
			const struct order_step *st = &o->steps[j];

			printf(" [%d %ld %ld,%ld %d %d %d]", st->verb, (long)st->dist,
			    (long)st->pt.x, (long)st->pt.y, st->angle, st->target,
			    (int)st->form);
		}
		printf("\n");
	}
}

static void
dump_result(const struct orders_result *r)
{
	int i;

	printf("result nlines=%d nerrors=%d nprose=%d too_many=%d "
	    "standing_lines=%d standing_clear=%d ncmds=%d dropped=%d "
	    "read_end=%zu\n", r->nlines, r->nerrors, r->nprose, r->too_many,
	    r->standing_lines, r->standing_clear, r->ncmds, r->cmds_dropped,
	    r->read_end);
	for (i = 0; i < r->nlines; i++)
		printf(" l %d %d %d [%s] [%s]\n", r->lines[i].line,
		    (int)r->lines[i].status, r->lines[i].standing, r->lines[i].raw,
		    r->lines[i].text);
	dump_set("set", &r->set);
	dump_set("standing", &r->standing);
	for (i = 0; i < r->ncmds; i++)
		printf(" c %d %d [%s] [%s]\n", (int)r->cmds[i].kind,
		    r->cmds[i].line, r->cmds[i].arg, r->cmds[i].text);
}

/* The check's pool (as bench_check makes it for want_lines), each mail
 * parsed once and dumped; then each mail's order lines on their own,
 * read as a mail of one line (as the bare pass sees them). */
static void
dump_pool(struct gen *g, long want_lines)
{
	long pool_lines = 0;
	int n = 0;

	while (n < maxpool && pool_lines < want_lines) {
		struct mail m;
		int j;

		gen_mail(g, n & 1, 1 + rn(6), &m);
		pool_lines += m.norders;
		orders_parse(g->p, g->b, m.side, m.body, 1, g->res);
		printf("---- mail %d\n%s", n, m.body);
		dump_result(g->res);
		for (j = 0; j < m.norders; j++) {
			char line[1024];

			snprintf(line, sizeof(line), "%.*s", m.len[j], m.body + m.off[j]);
			orders_parse(g->p, g->b, m.side, line, 0, g->res);
			dump_result(g->res);
		}
		mail_free(&m);
		n++;
	}
}

/* --- 1-3: order checking against bare PCRE2 ----------------------------- */

struct check_figures {
	double parse_rate, bare_rate, jit_rate, mail_rate;
	double parse_cpu_rate, bare_cpu_rate;   /* by CPU time */
	long lines, mails;
	double err_pct, ok_pct;
};

static void
bench_check(struct gen *g, long want_lines, struct check_figures *f)
{
	int npool = 0, i, code;
	long pool_lines = 0, passes, pass, hits = 0, nerr = 0, nok = 0, all = 0;
	struct mail *pool;
	pcre2_code *re;
	pcre2_match_data *md;
	PCRE2_SIZE eoff;
	double t0, t1, c0;

	/* A pool of distinct mails (about 13 order lines each) as large as
	 * the volume or 40000 mails (some 30 MB, well beyond the caches),
	 * read again as often as the volume needs. */
	pool = xmalloc((size_t)maxpool * sizeof(*pool));
	while (npool < maxpool && pool_lines < want_lines) {
		gen_mail(g, npool & 1, 1 + rn(6), &pool[npool]);
		pool_lines += pool[npool].norders;
		all += pool[npool].nlines;
		npool++;
	}
	passes = (want_lines + pool_lines - 1) / pool_lines;
	f->lines = passes * pool_lines;
	f->mails = passes * npool;

	/* warm up */
	for (i = 0; i < npool && i < 500; i++)
		orders_parse(g->p, g->b, pool[i].side, pool[i].body, 1, g->res);

	c0 = cpu_s();
	t0 = now_s();
	for (pass = 0; pass < passes; pass++)
		for (i = 0; i < npool; i++) {
			orders_parse(g->p, g->b, pool[i].side, pool[i].body, 1, g->res);
			nerr += g->res->nerrors;
			nok += g->res->set.n;
		}
	t1 = now_s();
	f->parse_cpu_rate = (double)f->lines / (cpu_s() - c0);
	f->parse_rate = (double)f->lines / (t1 - t0);
	f->mail_rate = (double)f->mails / (t1 - t0);
	f->err_pct = 100.0 * (double)nerr / (double)f->lines;
	f->ok_pct = 100.0 * (double)nok / (double)f->lines;
	printf("  (%d distinct mails x %ld passes; %.1f order lines and %.1f "
	    "lines a mail; %.1f%% of order lines understood, %.1f%% errors)\n",
	    npool, passes, (double)pool_lines / npool, (double)all / npool,
	    f->ok_pct, f->err_pct);

	re = pcre2_compile((PCRE2_SPTR)LINE_PATTERN, PCRE2_ZERO_TERMINATED,
	    LINE_FLAGS, &code, &eoff, NULL);
	if (re == NULL)
		die("pcre2_compile failed");
	md = pcre2_match_data_create(16, NULL);
	c0 = cpu_s();
	t0 = now_s();
	for (pass = 0; pass < passes; pass++)
		for (i = 0; i < npool; i++) {
			const struct mail *m = &pool[i];
			int j;

			for (j = 0; j < m->norders; j++)
				hits += pcre2_match(re, (PCRE2_SPTR)m->body + m->off[j],
				    (PCRE2_SIZE)m->len[j], 0, 0, md, NULL) > 0;
		}
	t1 = now_s();
	f->bare_cpu_rate = (double)f->lines / (cpu_s() - c0);
	f->bare_rate = (double)f->lines / (t1 - t0);

	/* For reference only: the same with the JIT. */
	f->jit_rate = 0;
	if (pcre2_jit_compile(re, PCRE2_JIT_COMPLETE) == 0) {
		t0 = now_s();
		for (pass = 0; pass < passes; pass++)
			for (i = 0; i < npool; i++) {
				const struct mail *m = &pool[i];
				int j;

				for (j = 0; j < m->norders; j++)
					hits += pcre2_match(re, (PCRE2_SPTR)m->body +
					    m->off[j], (PCRE2_SIZE)m->len[j], 0, 0, md,
					    NULL) > 0;
			}
		t1 = now_s();
		f->jit_rate = (double)f->lines / (t1 - t0);
	}
	if (hits == 0)
		die("the bare pattern matched nothing");
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	for (i = 0; i < npool; i++)
		mail_free(&pool[i]);
	free(pool);
}

/* --- 4-5: intake against a raw SQLite commit ---------------------------- */

static char *
raw_mail(const struct gen *g, const struct mail *m, long serial, size_t *len)
{
	const struct sidegen *sg = &g->s[m->gi];
	struct sbuf b = { NULL, 0, 0 };
	const char *p;

	sb_add(&b, "From: %s <%s>\r\nTo: despatch <despatch@localhost>\r\n"
	    "Subject: Cowpens orders\r\nDate: Wed, 17 Jan 2024 09:12:47 +0000\r\n"
	    "Message-ID: <bench-%ld-%08x@%s>\r\nMIME-Version: 1.0\r\n"
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Transfer-Encoding: 8bit\r\n\r\n", sg->from, sg->email,
	    serial, rnd(), strchr(sg->email, '@') + 1);
	for (p = m->body; *p; p++) {
		if (*p == '\n')
			sb_add(&b, "\r\n");
		else
			sb_add(&b, "%c", *p);
	}
	*len = b.len;
	return b.s;
}

struct intake_figures {
	double all, first10, last10, resub_first, resub_last;
	int resub_window;
	long other;               /* mails not stored as orders */
	double raw_normal, raw_full;
};

/* Submits mails[0..n), timing each one into dt[]. */
static void
submit_all(struct referee *r, char **raw, size_t *len, int n, double *dt,
    long *other)
{
	int i;

	for (i = 0; i < n; i++) {
		struct submit_result res;
		struct err e;
		double t0 = now_s();

		if (referee_submit(r, raw[i], len[i], NULL, &res, &e) != 0)
			die("referee_submit: %s", e.msg);
		dt[i] = now_s() - t0;
		if (strcmp(res.status, "orders") != 0 && (*other)++ == 0)
			fprintf(stderr, "bench_orders: a mail was not taken as orders: "
			    "%s: %s\n", res.status, res.note);
	}
}

static double
rate(const double *dt, int from, int to)
{
	double s = 0;
	int i;

	for (i = from; i < to; i++)
		s += dt[i];
	return s > 0 ? (double)(to - from) / s : 0;
}

static double
raw_commits(const char *path, const char *sync, int n)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	unsigned char blob[2048];
	char sql[128];
	double t0, t1;
	int i;
	size_t k;

	for (k = 0; k < sizeof(blob); k++)
		blob[k] = (unsigned char)rnd();
	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("%s: %s", path, sqlite3_errmsg(db));
	snprintf(sql, sizeof(sql), "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s;"
	    " CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB NOT NULL);", sync);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO t (b) VALUES (?)", -1, &st,
	    NULL) != SQLITE_OK)
		die("%s: %s", path, sqlite3_errmsg(db));
	t0 = now_s();
	for (i = 0; i < n; i++) {
		blob[i % sizeof(blob)] ^= 1;
		if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK ||
		    sqlite3_bind_blob(st, 1, blob, sizeof(blob), SQLITE_STATIC) !=
		    SQLITE_OK || sqlite3_step(st) != SQLITE_DONE ||
		    sqlite3_reset(st) != SQLITE_OK ||
		    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			die("%s: %s", path, sqlite3_errmsg(db));
	}
	t1 = now_s();
	sqlite3_finalize(st);
	sqlite3_close(db);
	return (double)n / (t1 - t0);
}

static void
bench_intake(struct gen *g, const char *scen, int n, int nresub,
    struct intake_figures *f)
{
	char dir[] = "/tmp/bench_orders.XXXXXX", path[256], secret[REFEREE_SECRET_MAX];
	struct store *st;
	struct referee r;
	struct err e;
	int total = n + nresub, i, w;
	char **raw = xmalloc((size_t)(total > 0 ? total : 1) * sizeof(char *));
	size_t *len = xmalloc((size_t)(total > 0 ? total : 1) * sizeof(size_t));
	double *dt = xmalloc((size_t)(total > 0 ? total : 1) * sizeof(double));

	if (mkdtemp(dir) == NULL)
		die("mkdtemp failed");
	/* The mails, made before any timing: first both sides in turn for
	 * turns 2 to 6 (ten phases), then one side again and again for the
	 * phase still open (crown, turn 1). */
	for (i = 0; i < total; i++) {
		struct mail m;

		if (i < n)
			gen_mail(g, i & 1, 2 + (i / 2) % 5, &m);
		else
			gen_mail(g, 0, 1, &m);
		raw[i] = raw_mail(g, &m, i, &len[i]);
		mail_free(&m);
	}
	snprintf(path, sizeof(path), "%s/intake.db", dir);
	if (store_open(path, 1, -1, &st, &e) != 0)
		die("store_open: %s", e.msg);
	referee_init(&r, st);
	if (referee_new_game(&r, "cowpens", scen, 0, NULL, &e) != 0 ||
	    referee_player_add(&r, "cowpens", "crown", g->s[0].email, g->s[0].pw, NULL,
	    secret, &e) != 0 ||
	    referee_player_add(&r, "cowpens", "continental", g->s[1].email,
	    g->s[1].pw, NULL, secret, &e) != 0 ||
	    referee_start(&r, "cowpens", &e) != 0 ||
	    /* One sender sends thousands of mails here: keep the per-sender
	     * limit's check (its cost is part of intake), never its refusal. */
	    referee_setting_set(&r, NULL, "rate-limit", "999999", &e) != 0)
		die("setting up the game: %s", e.msg);

	f->other = 0;
	submit_all(&r, raw, len, n, dt, &f->other);
	w = n / 10 > 0 ? n / 10 : 1;
	f->all = rate(dt, 0, n);
	f->first10 = rate(dt, 0, n < w ? n : w);
	f->last10 = rate(dt, n - w > 0 ? n - w : 0, n);

	submit_all(&r, raw + n, len + n, nresub, dt + n, &f->other);
	f->resub_window = nresub >= 1000 ? 500 : nresub / 10 > 0 ? nresub / 10 : 1;
	f->resub_first = nresub > 0 ? rate(dt + n, 0, f->resub_window) : 0;
	f->resub_last = nresub > 0 ? rate(dt + n, nresub - f->resub_window,
	    nresub) : 0;
	referee_fini(&r);
	store_close(st);

	snprintf(path, sizeof(path), "%s/raw-normal.db", dir);
	f->raw_normal = raw_commits(path, "NORMAL", n > 2000 ? n : 2000);
	snprintf(path, sizeof(path), "%s/raw-full.db", dir);
	f->raw_full = raw_commits(path, "FULL", n > 2000 ? n : 2000);

	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "bench_orders: could not remove %s\n", dir);
	}
	for (i = 0; i < total; i++)
		free(raw[i]);
	free(raw);
	free(len);
	free(dt);
}

/* --- main ---------------------------------------------------------------- */

static void
cpu_model(char *out, size_t size)
{
	FILE *fp = fopen("/proc/cpuinfo", "r");
	char line[256];

	snprintf(out, size, "unknown CPU");
	if (fp == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, "model name", 10) == 0) {
			char *c = strchr(line, ':');

			if (c != NULL) {
				c += strspn(c + 1, " \t") + 1;
				c[strcspn(c, "\n")] = '\0';
				snprintf(out, size, "%s", c);
			}
			break;
		}
	fclose(fp);
}

static const char *
met(int ok)
{
	return ok ? "target met" : "target NOT met";
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench_orders [N] [--lines L] [--resubmit R] "
	    "[--only check|intake] [--scenario FILE] [--sample K] [--dump] "
	    "[--pool M]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	long want_lines = 3000000;
	int n = 2000, nresub = 5000, do_check = 1, do_intake = 1, i, sample = 0;
	int dump = 0;
	const char *scen = DESPATCH_SOURCE_DIR "/campaign/cowpens-1781/cowpens.scenario";
	char cpu[128], *text = NULL;
	size_t tlen = 0;
	struct battle *b = NULL;
	struct err e;
	struct gen g;
	struct check_figures cf;
	struct intake_figures inf;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--lines") == 0 && i + 1 < argc)
			want_lines = atol(argv[++i]);
		else if (strcmp(argv[i], "--resubmit") == 0 && i + 1 < argc)
			nresub = atoi(argv[++i]);
		else if (strcmp(argv[i], "--sample") == 0 && i + 1 < argc)
			sample = atoi(argv[++i]);
		else if (strcmp(argv[i], "--dump") == 0)
			dump = 1;
		else if (strcmp(argv[i], "--pool") == 0 && i + 1 < argc)
			maxpool = atoi(argv[++i]);
		else if (strcmp(argv[i], "--scenario") == 0 && i + 1 < argc)
			scen = argv[++i];
		else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
			i++;
			do_check = strcmp(argv[i], "check") == 0;
			do_intake = strcmp(argv[i], "intake") == 0;
			if (!do_check && !do_intake)
				usage();
		} else if (isdigit((unsigned char)argv[i][0]))
			n = atoi(argv[i]);
		else
			usage();
	}
	if (want_lines < 1 || n < 1 || nresub < 0 || maxpool < 1)
		usage();
	if (scenario_load_file(scen, &text, &tlen, &b, &e) != 0)
		die("%s", e.msg);
	cpu_model(cpu, sizeof(cpu));
	printf("bench_orders: nproc=%ld (%s), despatch %s, asserts %s, "
	    "PCRE2 %d.%d, SQLite %s\n", sysconf(_SC_NPROCESSORS_ONLN), cpu,
	    DESPATCH_VERSION, BENCH_ASSERTS, PCRE2_MAJOR, PCRE2_MINOR,
	    sqlite3_libversion());
	printf("  checking = orders_parse on generated Cowpens order mails, in "
	    "order lines (WHO: ORDER) a second; bare PCRE2 = one pcre2_match of "
	    "%s (CASELESS|UTF, no JIT) on each of the same lines; intake = "
	    "referee_submit of whole mails into a fresh database; raw commit = "
	    "one 2 KB INSERT a transaction, WAL, synchronous=NORMAL, same "
	    "directory. One thread.\n", LINE_PATTERN);
	gen_init(&g, b, &e);
	if (dump) {
		dump_pool(&g, want_lines);
		goto out;
	}
	if (sample > 0) {
		/* Shows what is measured: a few mails and what the parser said. */
		for (i = 0; i < sample; i++) {
			struct mail m;
			int j;

			gen_mail(&g, i & 1, 1, &m);
			orders_parse(g.p, b, m.side, m.body, 1, g.res);
			printf("---- mail %d (%d order lines)\n%s", i, m.norders, m.body);
			for (j = 0; j < g.res->nlines; j++)
				printf("  => %d %s: %s\n", g.res->lines[j].line,
				    g.res->lines[j].status == ORDERS_OK ? "ok" : "ERROR",
				    g.res->lines[j].text);
			mail_free(&m);
		}
		return 0;
	}

	if (do_check) {
		bench_check(&g, want_lines, &cf);
		printf("1 order checking      %12.0f lines/s  (%.0f mails/s, %ld "
		    "lines in %ld mails)\n", cf.parse_rate, cf.mail_rate, cf.lines,
		    cf.mails);
		printf("2 bare PCRE2 match    %12.0f lines/s  (with JIT, for "
		    "reference: %.0f lines/s)\n", cf.bare_rate, cf.jit_rate);
		printf("3 ratio 1/2           %12.3f\n", cf.parse_rate / cf.bare_rate);
		printf("  by CPU time: checking %.0f lines/s, bare PCRE2 %.0f lines/s, "
		    "ratio %.3f (for a machine shared with other work)\n",
		    cf.parse_cpu_rate, cf.bare_cpu_rate, cf.parse_cpu_rate /
		    cf.bare_cpu_rate);
		printf("  target checking >= %.0f lines/s: %s\n",
		    TARGET_LINES_PER_S, met(cf.parse_rate >= TARGET_LINES_PER_S));
		printf("  target checking >= %.2f x bare PCRE2: %s\n", TARGET_RATIO,
		    met(cf.parse_rate >= TARGET_RATIO * cf.bare_rate));
	}
	if (do_intake) {
		bench_intake(&g, scen, n, nresub, &inf);
		printf("4 intake              %12.1f mails/s  (%d order mails: "
		    "first 10%% %.1f, last 10%% %.1f mails/s)\n", inf.all, n,
		    inf.first10, inf.last10);
		if (nresub > 0)
			printf("  resubmissions       %12s           (%d by one side "
			    "for one phase: first %d %.1f, last %d %.1f mails/s)\n", "",
			    nresub, inf.resub_window, inf.resub_first,
			    inf.resub_window, inf.resub_last);
		printf("5 raw SQLite commit   %12.1f commits/s (synchronous=FULL, as "
		    "the store opens it: %.1f commits/s)\n", inf.raw_normal,
		    inf.raw_full);
		printf("  ratio 4/5           %12.3f\n", inf.all / inf.raw_normal);
		if (inf.other > 0)
			printf("  (%ld mails were not stored as orders: see stderr)\n",
			    inf.other);
	}
out:
	orders_parser_free(g.p);
	free(g.res);
	battle_free(b);
	free(text);
	return 0;
}
