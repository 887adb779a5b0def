/*
 * verify.c - an archive checked from scratch, without the database
 * (despatch-archive(5), docs/ledger.md).
 *
 * First the chain as it stands (check.c); then, step by step, each leaf
 * made again from the orders and salt the archive publishes, the orders
 * read as the server read them, the step played again with the dice its
 * record names, and the events and the state compared with the hashes
 * the record signed, and the state the line shows (which a program that
 * does not replay hashes instead) with the replay's, byte for byte.  A
 * record whose events were changed and re-signed still fails here: the
 * replay gives the events the dice and the orders make, not the ones
 * written down.  Export runs the same replay to make the states it
 * writes (verify_opts.state).
 */
#include "ledger/verify.h"

#include <jansson.h>
#include <sodium.h>

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/dice.h"
#include "core/result.h"
#include "core/events.h"
#include "core/ruleset.h"
#include "ledger/check.h"
#include "ledger/engine.h"
#include "ledger/events_json.h"
#include "ledger/ledger.h"
#include "ledger/play.h"
#include "orders/orders.h"
#include "rules/engine.h"
#include "scenario/scenario.h"

#define ARCHIVE_LINE_MAX (64 << 20)
#define ARCHIVE_MAX      (1024 << 20)

/* Reads one line (with its newline) into *buf, never holding more than
 * max bytes: a hostile archive's endless line costs no more memory than
 * that.  Returns its length, 0 at the end, -1 past max. */
static ssize_t
read_line(FILE *in, char **buf, size_t *cap, size_t max)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(in)) != EOF) {
		if (n + 2 > *cap) {
			size_t nc = *cap ? *cap * 2 : 4096;
			char *nb;

			if (nc > max + 2)
				nc = max + 2;
			if (n + 2 > nc)
				return -1;
			nb = realloc(*buf, nc);
			if (nb == NULL)
				return -1;
			*buf = nb;
			*cap = nc;
		}
		(*buf)[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n > 0)
		(*buf)[n] = '\0';
	return (ssize_t)n;
}

static int
bad(struct verify_result *res, int line, int step, const char *field,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int
bad(struct verify_result *res, int line, int step, const char *field,
    const char *fmt, ...)
{
	va_list ap;

	res->line = line;
	res->step = step;
	snprintf(res->field, sizeof(res->field), "%s", field);
	va_start(ap, fmt);
	vsnprintf(res->msg, sizeof(res->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* One line of the archive, parsed. */
struct aline {
	json_t *j;
	int lineno;
	unsigned char *rec;       /* record bytes (step and genesis lines) */
	size_t n;
};

/* s (hex) into a malloc'd buffer. */
static unsigned char *
unhex_alloc(const char *s, size_t *n)
{
	size_t l = strlen(s);
	unsigned char *p;

	if (l % 2 != 0)
		return NULL;
	p = malloc(l / 2 + 1);
	if (p == NULL)
		return NULL;
	if (l > 0 && ledger_unhex_exact(s, p, (int)(l / 2)) != 0) {
		free(p);
		return NULL;
	}
	*n = l / 2;
	return p;
}

static const char *const header_keys[] = { "despatch_archive", "game",
	"ruleset", "engine", "finished", "scenario", NULL };
static const char *const genesis_keys[] = { "seq", "kind", "seats", "record",
	"head", "sig", NULL };
static const char *const step_keys[] = { "seq", "kind", "step", "record",
	"head", "sig", "leaves", "events", "state", NULL };
/* A step line before export adds its state (verify_opts.state). */
static const char *const step_keys_bare[] = { "seq", "kind", "step",
	"record", "head", "sig", "leaves", "events", NULL };
static const char *const act_keys[] = { "seq", "kind", "record", "head",
	"sig", NULL };
/* An upgrade's line: its checkpoint, the state carried over. */
static const char *const act_keys_upgrade[] = { "seq", "kind", "record",
	"head", "sig", "checkpoint", NULL };
static const char *const leaf_keys[] = { "seat", "side", "mailed", "salt",
	"orders", NULL };

/* Each unit's state numbers, as the state layout names them. */
static const char *const unit_keys[BATTLE_UNIT_STATE] = ENGINE_V3_UNIT_KEYS;

static const char *
str_of(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static int
fixed_hex(json_t *o, const char *key, unsigned char *out, int n)
{
	const char *s = str_of(o, key);

	return s != NULL && ledger_unhex_exact(s, out, n) == 0 ? 0 : -1;
}

/* --- the state after a step, as the archive gives it ------------------ */

/* An array named key in o; NULL (and *oom) when it could not be made. */
static json_t *
st_array(json_t *o, const char *key, int *oom)
{
	json_t *a = json_array();

	if (o == NULL || a == NULL || json_object_set_new(o, key, a) != 0) {
		if (o == NULL)
			json_decref(a);
		*oom = 1;
		return NULL;
	}
	return a;
}

/* A new object at the end of array a. */
static json_t *
st_elem(json_t *a, int *oom)
{
	json_t *x = json_object();

	if (a == NULL || x == NULL || json_array_append_new(a, x) != 0) {
		if (a == NULL)
			json_decref(x);
		*oom = 1;
		return NULL;
	}
	return x;
}

static void
st_num(json_t *o, const char *key, json_int_t v, int *oom)
{
	if (o == NULL || json_object_set_new(o, key, json_integer(v)) != 0)
		*oom = 1;
}

json_t *
ledger_state_json(const struct battle *b)
{
	/* Field for field what ledger_state_hash hashes, in its order: a
	 * change to one is a change to the other (docs/ledger.md, "The
	 * state object"), and tests/ledger/check_archive.py rebuilds the
	 * hash from this to prove the two agree. */
	json_t *st = json_object(), *a, *x;
	int i, oom = st == NULL;

	a = st_array(st, "stands", &oom);
	for (i = 0; i < b->nstands; i++) {
		const struct stand *s = &b->stands[i];

		x = st_elem(a, &oom);
		st_num(x, "unit", s->unit, &oom);
		st_num(x, "sp", s->sp, &oom);
		st_num(x, "x", s->pos.x, &oom);
		st_num(x, "y", s->pos.y, &oom);
		st_num(x, "facing", s->facing, &oom);
		st_num(x, "formation", (json_int_t)s->form, &oom);
		st_num(x, "flags", (json_int_t)s->flags, &oom);
	}
	a = st_array(st, "brigades", &oom);
	for (i = 0; i < b->nbrigades; i++) {
		const struct brigade *br = &b->brigades[i];

		x = st_elem(a, &oom);
		st_num(x, "lost", br->lost, &oom);
		st_num(x, "flags", (json_int_t)br->flags, &oom);
		st_num(x, "hits", br->hits, &oom);
	}
	a = st_array(st, "commanders", &oom);
	for (i = 0; i < b->ncommanders; i++) {
		const struct commander *c = &b->commanders[i];

		x = st_elem(a, &oom);
		st_num(x, "x", c->pos.x, &oom);
		st_num(x, "y", c->pos.y, &oom);
		st_num(x, "facing", c->facing, &oom);
		st_num(x, "gone", c->gone, &oom);
		st_num(x, "attached", c->attached, &oom);
	}
	a = st_array(st, "terrain", &oom);
	for (i = 0; i < b->nterrain; i++) {
		x = st_elem(a, &oom);
		st_num(x, "trodden", b->terrain[i].trodden, &oom);
	}
	a = st_array(st, "units", &oom);
	for (i = 0; i < b->nunits; i++) {
		int k;

		x = st_elem(a, &oom);
		for (k = 0; k < BATTLE_UNIT_STATE; k++)
			st_num(x, unit_keys[k], b->units[i].state[k], &oom);
	}
	/* The ruleset's own, where it keeps any, as in the hash. */
	if (ledger_rules_kept(b)) {
		const struct ruleset *rs = ruleset_find(b->ruleset);
		int t, v[RULES_TABLE_MAX_KEYS];

		for (t = 0; t < rs->ntables; t++) {
			const struct rules_table *rt = &rs->tables[t];
			int n = rt->rows(b), r, k;

			a = st_array(st, rt->name, &oom);
			for (r = 0; r < n; r++) {
				rt->get(b, r, v);
				x = st_elem(a, &oom);
				for (k = 0; rt->keys[k] != NULL; k++)
					st_num(x, rt->keys[k], v[k], &oom);
			}
		}
		a = st_array(st, "commanders_out", &oom);
		for (i = 0; i < b->ncommanders; i++) {
			x = st_elem(a, &oom);
			st_num(x, "out_until", b->commanders[i].out_until, &oom);
			st_num(x, "out_removed", b->commanders[i].out_removed,
			    &oom);
		}
	}
	if (oom) {
		json_decref(st);
		return NULL;
	}
	return st;
}

/* The integer at o[key] (0 when not one: the re-encoding then differs). */
static json_int_t
st_get(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? json_integer_value(v) : 0;
}

/* The array at st[key] with want elements; NULL when it is not. */
static json_t *
st_arr(json_t *st, const char *key, size_t want)
{
	json_t *a = json_object_get(st, key);

	return json_is_array(a) && json_array_size(a) == want ? a : NULL;
}

int
ledger_state_read(struct battle *b, json_t *st)
{
	json_t *a, *again;
	size_t i, ne;
	int same;

	/* Read loosely, then written again: only a state that gives back
	 * exactly its own bytes (every key, in order, each value in range)
	 * is taken. */
	if (!json_is_object(st))
		return -1;
	if ((a = st_arr(st, "stands", (size_t)b->nstands)) == NULL)
		return -1;
	for (i = 0; i < (size_t)b->nstands; i++) {
		json_t *x = json_array_get(a, i);
		struct stand *s = &b->stands[i];

		s->unit = (int)st_get(x, "unit");
		s->sp = (int)st_get(x, "sp");
		s->pos.x = (fx)st_get(x, "x");
		s->pos.y = (fx)st_get(x, "y");
		s->facing = (int)st_get(x, "facing");
		s->form = (enum formation)st_get(x, "formation");
		s->flags = (unsigned)st_get(x, "flags");
	}
	if ((a = st_arr(st, "brigades", (size_t)b->nbrigades)) == NULL)
		return -1;
	for (i = 0; i < (size_t)b->nbrigades; i++) {
		json_t *x = json_array_get(a, i);

		b->brigades[i].lost = (int)st_get(x, "lost");
		b->brigades[i].flags = (unsigned)st_get(x, "flags");
		b->brigades[i].hits = (int)st_get(x, "hits");
	}
	if ((a = st_arr(st, "commanders", (size_t)b->ncommanders)) == NULL)
		return -1;
	for (i = 0; i < (size_t)b->ncommanders; i++) {
		json_t *x = json_array_get(a, i);
		struct commander *c = &b->commanders[i];

		c->pos.x = (fx)st_get(x, "x");
		c->pos.y = (fx)st_get(x, "y");
		c->facing = (int)st_get(x, "facing");
		c->gone = (int)st_get(x, "gone");
		c->attached = (int)st_get(x, "attached");
	}
	if ((a = st_arr(st, "terrain", (size_t)b->nterrain)) == NULL)
		return -1;
	for (i = 0; i < (size_t)b->nterrain; i++)
		b->terrain[i].trodden = (int)st_get(json_array_get(a, i),
		    "trodden");
	if ((a = st_arr(st, "units", (size_t)b->nunits)) == NULL)
		return -1;
	for (i = 0; i < (size_t)b->nunits; i++) {
		json_t *x = json_array_get(a, i);

		int k;

		for (k = 0; k < BATTLE_UNIT_STATE; k++)
			b->units[i].state[k] = (int)st_get(x, unit_keys[k]);
	}
	if (ledger_rules_kept(b)) {
		const struct ruleset *rs = ruleset_find(b->ruleset);
		int t, v[RULES_TABLE_MAX_KEYS];

		for (t = 0; t < rs->ntables; t++) {
			const struct rules_table *rt = &rs->tables[t];

			a = json_object_get(st, rt->name);
			ne = json_is_array(a) ? json_array_size(a) : 0;
			if (!json_is_array(a) || ne > INT_MAX ||
			    rt->set(b, (int)ne, -1, NULL) != 0)
				return -1;
			for (i = 0; i < ne; i++) {
				json_t *x = json_array_get(a, i);
				int k;

				for (k = 0; rt->keys[k] != NULL; k++)
					v[k] = (int)st_get(x, rt->keys[k]);
				if (rt->set(b, (int)ne, (int)i, v) != 0)
					return -1;
			}
		}
		if ((a = st_arr(st, "commanders_out", (size_t)b->ncommanders)) ==
		    NULL)
			return -1;
		for (i = 0; i < (size_t)b->ncommanders; i++) {
			json_t *x = json_array_get(a, i);

			b->commanders[i].out_until = (int)st_get(x, "out_until");
			b->commanders[i].out_removed = (int)st_get(x, "out_removed");
		}
	}
	battle_sync_kinds(b);
	again = ledger_state_json(b);
	{
		int f = JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII;
		char *x = again != NULL ? json_dumps(again, f) : NULL;
		char *y = json_dumps(st, f);

		same = x != NULL && y != NULL && strcmp(x, y) == 0;
		free(x);
		free(y);
	}
	json_decref(again);
	return same ? 0 : -1;
}

/* Appends to path (of size) what printf makes, cut if need be. */
static void
path_add(char *path, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
path_add(char *path, size_t size, const char *fmt, ...)
{
	size_t l = strlen(path);
	va_list ap;

	if (l + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(path + l, size - l, fmt, ap);
	va_end(ap);
}

/* Where a (the archive's) first differs from b (the replay's): 1 and its
 * path appended to path, or 0 if they are the same; *av and *bv the two
 * values there (NULL where one has nothing); where the fields themselves
 * differ, *fields set and *akey, *bkey the archive's and the replay's
 * names for the field there (NULL for none). */
static int
json_first_diff(json_t *a, json_t *b, char *path, size_t size, json_t **av,
    json_t **bv, int *fields, const char **akey, const char **bkey)
{
	*av = a;
	*bv = b;
	*fields = 0;
	if (json_is_object(a) && json_is_object(b)) {
		void *ia = json_object_iter(a), *ib = json_object_iter(b);

		for (; ia != NULL || ib != NULL;
		    ia = json_object_iter_next(a, ia),
		    ib = json_object_iter_next(b, ib)) {
			const char *ka = ia ? json_object_iter_key(ia) : NULL;
			const char *kb = ib ? json_object_iter_key(ib) : NULL;
			size_t l = strlen(path);

			/* A field missing, extra or out of place: named as the
			 * replay has it. */
			path_add(path, size, ".%s", kb != NULL ? kb : ka);
			if (ka == NULL || kb == NULL || strcmp(ka, kb) != 0) {
				*av = ia ? json_object_iter_value(ia) : NULL;
				*bv = ib ? json_object_iter_value(ib) : NULL;
				*fields = 1;
				*akey = ka;
				*bkey = kb;
				return 1;
			}
			if (json_first_diff(json_object_iter_value(ia),
			    json_object_iter_value(ib), path, size, av, bv,
			    fields, akey, bkey))
				return 1;
			path[l] = '\0';
		}
		return 0;
	}
	if (json_is_array(a) && json_is_array(b)) {
		size_t i, na = json_array_size(a), nb = json_array_size(b);

		for (i = 0; i < na && i < nb; i++) {
			size_t l = strlen(path);

			path_add(path, size, "[%zu]", i);
			if (json_first_diff(json_array_get(a, i), json_array_get(b, i),
			    path, size, av, bv, fields, akey, bkey))
				return 1;
			path[l] = '\0';
		}
		if (na == nb)
			return 0;
		/* The first entry one has and the other lacks. */
		path_add(path, size, "[%zu]", i);
		*av = json_array_get(a, i);
		*bv = json_array_get(b, i);
		return 1;
	}
	return !json_equal(a, b);
}

/* A value for a message, cut short: "nothing" for none. */
static void
value_text(json_t *v, char *out, size_t size)
{
	char *d = v != NULL ? json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY |
	    JSON_PRESERVE_ORDER) : NULL;

	if (d == NULL)
		snprintf(out, size, "nothing");
	else if (strlen(d) > 40)
		snprintf(out, size, "%.37s...", d);
	else
		snprintf(out, size, "%s", d);
	free(d);
}

/* The step line's "state" against the replay's: the same bytes, or the
 * first field that differs named. */
static int
state_check(json_t *line_state, json_t *replay, const struct aline *al,
    int step, struct verify_result *res)
{
	char *x = json_dumps(line_state, JSON_COMPACT | JSON_ENCODE_ANY |
	    JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	char *y = json_dumps(replay, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_ENSURE_ASCII);
	char path[sizeof(res->field)] = "state", va[48], vb[48];
	json_t *av = NULL, *bv = NULL;
	const char *akey = NULL, *bkey = NULL;
	int fields = 0, same = x != NULL && y != NULL && strcmp(x, y) == 0;

	free(x);
	free(y);
	if (same)
		return 0;
	if (y == NULL)
		return bad(res, al->lineno, step, "memory", "out of memory");
	if (!json_first_diff(line_state, replay, path, sizeof(path), &av, &bv,
	    &fields, &akey, &bkey)) {
		av = line_state;
		bv = replay;
	}
	if (fields && akey != NULL && bkey != NULL)
		return bad(res, al->lineno, step, path, "step %d's state in the "
		    "archive is not laid out as despatch writes it: it has the "
		    "field \"%.40s\" where the replay's has \"%s\"", step, akey,
		    bkey);
	if (fields)
		return bad(res, al->lineno, step, path, "step %d's state in the "
		    "archive is not laid out as despatch writes it: it %s "
		    "field \"%.40s\"", step, akey != NULL ? "has an extra" :
		    "lacks the", akey != NULL ? akey : bkey);
	value_text(av, va, sizeof(va));
	value_text(bv, vb, sizeof(vb));
	return bad(res, al->lineno, step, path, "step %d's state in the archive "
	    "is not the one its replay leaves: at %s the archive has %s, the "
	    "replay %s", step, path, va, vb);
}

/* The genesis line's seats: one for each of the record's, in order, with
 * its side, and (when given) an address whose hash the record holds. */
static int
seats_check(json_t *line, const struct ledger_genesis *gen,
    struct verify_result *res, int lineno)
{
	json_t *seats = json_object_get(line, "seats");
	int i;

	if (!json_is_array(seats) || (int)json_array_size(seats) != gen->nseats)
		return bad(res, lineno, 0, "seats", "the genesis line should list "
		    "its record's %d seats", gen->nseats);
	for (i = 0; i < gen->nseats; i++) {
		json_t *s = json_array_get(seats, (size_t)i);
		const char *side = str_of(s, "side"), *email = str_of(s, "email");
		size_t want = email != NULL ? 3 : 2;
		unsigned char h[LEDGER_HASH];

		if (side == NULL || json_object_size(s) != want ||
		    json_integer_value(json_object_get(s, "seat")) !=
		    gen->seats[i].seat || strcmp(side, gen->seats[i].side) != 0)
			return bad(res, lineno, 0, "seats", "seat %d is not the "
			    "genesis record's", i + 1);
		if (email != NULL) {
			ledger_email_hash(email, h);
			if (sodium_memcmp(h, gen->seats[i].email_hash,
			    LEDGER_HASH) != 0)
				return bad(res, lineno, 0, "seats", "seat %d's address "
				    "is not the one the genesis record hashed", i + 1);
		}
	}
	return 0;
}

/* An engine this build has no row for (a newer one's). */
static const struct ledger_engine no_engine = { .genesis_name = "",
	.build = "a newer despatch" };

/* Upgrade act a (archive line al, its checkpoint cp): the checkpoint is
 * a state of this scenario that hashes, under the old engine's rules, to
 * the state the act names (which ledger_check_chain has found to be the
 * last step's), or to the opening state if no step came before, and
 * under the new engine's to the hash the act gives it.  b becomes the
 * battle the new engine's span starts from (next is scratch). */
static int
upgrade_check(const struct ledger_act *a, json_t *cp,
    const struct battle *pristine, struct battle *b, struct battle *next,
    int stepped, const struct aline *al, struct verify_result *res)
{
	const struct ledger_engine *from = ledger_engine_get(a->engine_from);
	const struct ledger_engine *to = ledger_engine_get(a->engine_to);
	unsigned char h[LEDGER_HASH];

	if (cp == NULL)
		return bad(res, al->lineno, a->step, "checkpoint", "line %d, an "
		    "upgrade, gives no checkpoint", al->lineno);
	if (from == NULL || from->state_hash == NULL)
		return bad(res, al->lineno, a->step, "engine", "line %d carries "
		    "the game over from engine %d, whose state this build cannot "
		    "hash: verify it with %s", al->lineno, a->engine_from,
		    from != NULL ? from->build : "the build that played it");
	memcpy(next, pristine, sizeof(*next));
	if (ledger_state_read(next, cp) != 0)
		return bad(res, al->lineno, a->step, "checkpoint", "line %d's "
		    "checkpoint is not a state of this scenario as despatch writes "
		    "it", al->lineno);
	if (from->state_hash(next, h) != 0 ||
	    sodium_memcmp(h, a->state_from, LEDGER_HASH) != 0)
		return bad(res, al->lineno, a->step, "checkpoint", "line %d's "
		    "checkpoint is not the state its record signed (under engine "
		    "%d's rules)", al->lineno, a->engine_from);
	if (!stepped) {
		unsigned char h0[LEDGER_HASH];

		if (from->state_hash(pristine, h0) != 0 ||
		    sodium_memcmp(h, h0, LEDGER_HASH) != 0)
			return bad(res, al->lineno, a->step, "checkpoint", "line %d's "
			    "checkpoint comes before any step but is not the "
			    "scenario's opening state", al->lineno);
	}
	if (to != NULL && to->state_hash != NULL && (to->state_hash(next, h) !=
	    0 || sodium_memcmp(h, a->state_to, LEDGER_HASH) != 0))
		return bad(res, al->lineno, a->step, "checkpoint", "line %d's "
		    "checkpoint does not hash, under engine %d's rules, to what its "
		    "record signed", al->lineno, a->engine_to);
	/* Carried as between any two steps. */
	memcpy(b, pristine, sizeof(*b));
	battle_carry(b, next);
	return 0;
}

/* What can be checked of a step this build does not replay: the events
 * the archive gives are the ones the record signed, and so is a state it
 * gives (hashed by en's rules, from the scenario's battle b). */
static int
unplayed_step(const struct battle *b, const struct ledger_step *ls,
    const struct aline *al, const struct ledger_engine *en,
    struct verify_result *res)
{
	struct events archived;
	struct battle *t = NULL;
	unsigned char h[LEDGER_HASH];
	json_t *st = json_object_get(al->j, "state");
	int rc = -1;

	events_init(&archived);
	/* A newer engine's way of hashing its events is not known here. */
	if (en->events_hash != NULL && (ledger_events_from_json(
	    json_object_get(al->j, "events"), en->typed_events, &archived) != 0 ||
	    en->events_hash(&archived, h) != 0 ||
	    sodium_memcmp(h, ls->events, LEDGER_HASH) != 0)) {
		rc = bad(res, al->lineno, ls->step, "events", "step %d's events in "
		    "the archive are not the ones its record signed", ls->step);
		goto out;
	}
	if (st != NULL) {
		t = battle_new();
		if (t == NULL) {
			rc = bad(res, al->lineno, ls->step, "memory", "out of memory");
			goto out;
		}
		memcpy(t, b, sizeof(*t));
		if (en->state_hash == NULL || ledger_state_read(t, st) != 0 ||
		    en->state_hash(t, h) != 0 ||
		    sodium_memcmp(h, ls->state, LEDGER_HASH) != 0) {
			rc = bad(res, al->lineno, ls->step, "state", "step %d's state "
			    "in the archive is not the one its record signed", ls->step);
			goto out;
		}
	}
	rc = 0;
out:
	battle_free(t);
	events_free(&archived);
	return rc;
}

/* Replays step record ls (archive line al) on b.  With en set, the step
 * is of an engine this build does not replay (b is the scenario's
 * battle): its order sets are checked against their leaves and its
 * events against their hash, and a state the line gives against the
 * record's under en's rules, but nothing is played. */
static int
replay_step(const struct ledger_genesis *gen, const struct ruleset *rs,
    struct orders_parser *op, struct battle *b, const struct ledger_step *ls, const struct aline *al,
    const struct verify_opts *o, const struct ledger_engine *en, int span,
    struct verify_result *res)
{
	json_t *leaves = json_object_get(al->j, "leaves");
	struct play_seat seats[LEDGER_MAX_SEATS];
	struct play_in in;
	struct play_out po;
	struct events ev, archived;
	int *script_v = NULL, s, k, rc = -1, at;
	struct err e;
	unsigned char h[LEDGER_HASH];
	json_t *state = NULL;

	events_init(&ev);
	events_init(&archived);
	err_clear(&e);
	if (!json_is_array(leaves) || (int)json_array_size(leaves) != ls->nleaves)
		return bad(res, al->lineno, ls->step, "leaves", "the archive gives %d "
		    "order sets for step %d, its record %d", json_is_array(leaves) ?
		    (int)json_array_size(leaves) : 0, ls->step, ls->nleaves);
	for (k = 0; k < ls->nleaves; k++) {
		json_t *l = json_array_get(leaves, (size_t)k);
		const char *orders = str_of(l, "orders"), *side = str_of(l, "side");
		unsigned char salt[LEDGER_SALT], leaf[LEDGER_HASH];
		json_t *js = json_object_get(l, "seat"), *jm = json_object_get(l,
		    "mailed");
		int seat = json_is_integer(js) && json_integer_value(js) > 0 &&
		    json_integer_value(js) <= LEDGER_MAX_SEATS ?
		    (int)json_integer_value(js) : -1;
		int mailed = json_is_true(jm);

		if (orders == NULL || side == NULL || !ledger_json_keys_exact(l, leaf_keys) ||
		    seat < 0 || !json_is_boolean(jm) ||
		    fixed_hex(l, "salt", salt, LEDGER_SALT) != 0) {
			rc = bad(res, al->lineno, ls->step, "leaves", "order set %d of "
			    "step %d lacks its side, salt or orders", k + 1, ls->step);
			goto out;
		}
		if (seat != ls->leaves[k].seat || mailed != ls->leaves[k].mailed ||
		    strcmp(side, ls->leaves[k].side) != 0) {
			rc = bad(res, al->lineno, ls->step, "leaves", "order set %d of "
			    "step %d is not the seat, side or kind its record names",
			    k + 1, ls->step);
			goto out;
		}
		{
			unsigned char q[LEDGER_SALT];

			ledger_salt(ls->s_step, side, seat, orders, q);
			if (sodium_memcmp(q, salt, LEDGER_SALT) != 0) {
				rc = bad(res, al->lineno, ls->step, "salt", "seat %d's salt "
				    "for step %d is not the one made from the step's seed "
				    "and its orders", seat, ls->step);
				goto out;
			}
		}
		if ((gen->nonces ? ledger_leaf_committed(gen->game, ls->step, side,
		    seat, salt, orders, ls->leaves[k].commit, leaf) :
		    ledger_leaf(gen->game, ls->step, side, seat, salt, orders,
		    leaf)) != 0) {
			rc = bad(res, al->lineno, ls->step, "memory", "out of memory");
			goto out;
		}
		if (sodium_memcmp(leaf, ls->leaves[k].leaf, LEDGER_HASH) != 0) {
			rc = bad(res, al->lineno, ls->step, "orders", "seat %d's orders "
			    "for step %d are not the ones its leaf committed", seat,
			    ls->step);
			goto out;
		}
		/* The side's orders: its seats' sets in seat order. */
		for (s = 0; s < b->nsides; s++)
			if (strcmp(b->sides[s].id, side) == 0)
				break;
		if (s == b->nsides) {
			rc = bad(res, al->lineno, ls->step, "leaves", "order set %d of "
			    "step %d is for side %s, which the scenario lacks", k + 1,
			    ls->step, side);
			goto out;
		}
		seats[k].side = s;
		seats[k].orders = orders;
	}
	if (en != NULL) {
		rc = unplayed_step(b, ls, al, en, res);
		goto out;
	}
	/* The archive's events: checked against the replay below, and the
	 * dice of a scripted step. */
	/* A record of the first layout names no engine: its span's. */
	if ((en = ledger_engine_get(ls->engine != 0 ? ls->engine : span)) ==
	    NULL || en->events_hash == NULL) {
		rc = bad(res, al->lineno, ls->step, "engine", "step %d's record "
		    "names engine %d, which this build does not play", ls->step,
		    ls->engine != 0 ? ls->engine : span);
		goto out;
	}
	if (ledger_events_from_json(json_object_get(al->j, "events"),
	    en->typed_events, &archived) != 0) {
		rc = bad(res, al->lineno, ls->step, "events", "step %d's events in "
		    "the archive are not readable", ls->step);
		goto out;
	}
	memset(&in, 0, sizeof(in));
	in.step = ls->step;
	in.seats = seats;
	in.nseats = ls->nleaves;
	if (ls->scripted) {
		int i, n = 0;

		script_v = malloc((size_t)(archived.n + 1) * sizeof(int));
		if (script_v == NULL) {
			rc = bad(res, al->lineno, ls->step, "memory", "out of memory");
			goto out;
		}
		for (i = 0; i < archived.n; i++)
			if (archived.v[i].kind == EV_ROLL)
				script_v[n++] = archived.v[i].value;
		in.script = script_v;
		in.nscript = n;
	} else {
		in.dice_seed = ls->dice_seed;
	}
	/* The step played as the server played it (ledger_play_step). */
	if (ledger_play_step(rs, op, b, &in, &ev, &po, &e) != 0) {
		rc = po.fail == PLAY_ORDERS ? bad(res, al->lineno, ls->step,
		    "orders", "%s", e.msg) : bad(res, al->lineno, ls->step,
		    "replay", "step %d could not be played again: %s", ls->step,
		    e.msg);
		goto out;
	}
	if ((long long)po.rolls != (long long)ls->rolls) {
		rc = bad(res, al->lineno, ls->step, "dice", "step %d played again "
		    "rolls %ld dice, its record %lld", ls->step, po.rolls,
		    (long long)ls->rolls);
		goto out;
	}
	if (en->events_hash(&ev, h) != 0 ||
	    sodium_memcmp(h, ls->events, LEDGER_HASH) != 0) {
		rc = bad(res, al->lineno, ls->step, "events", "step %d played again "
		    "does not give the events its record signed", ls->step);
		goto out;
	}
	if (!ledger_events_same(&ev, &archived, &at)) {
		rc = bad(res, al->lineno, ls->step, "events", "step %d's events in "
		    "the archive differ from the replay at event %d", ls->step,
		    at + 1);
		goto out;
	}
	if (ledger_state_hash(b, h) != 0 ||
	    sodium_memcmp(h, ls->state, LEDGER_HASH) != 0) {
		rc = bad(res, al->lineno, ls->step, "state", "step %d played again "
		    "does not leave the state its record signed", ls->step);
		goto out;
	}
	/* The state the archive shows, which a second program hashes to
	 * check the record's state hash: the replay's own, byte for byte
	 * (export's run hands it on to be written instead). */
	state = ledger_state_json(b);
	if (state == NULL) {
		rc = bad(res, al->lineno, ls->step, "memory", "out of memory");
		goto out;
	}
	if (o->state != NULL) {
		if (o->state(al->lineno, ls->step, state, o->state_arg) != 0) {
			rc = bad(res, al->lineno, ls->step, "state", "step %d's state "
			    "could not be kept", ls->step);
			goto out;
		}
	} else if (state_check(json_object_get(al->j, "state"), state, al,
	    ls->step, res) != 0) {
		goto out;
	}
	rc = 0;
out:
	json_decref(state);
	free(script_v);
	events_free(&ev);
	events_free(&archived);
	return rc;
}

int
ledger_verify(FILE *in, const struct verify_opts *o,
    struct verify_result *res)
{
	struct aline *lines = NULL;
	struct ledger_rec *recs = NULL;
	struct ledger_genesis *gen = NULL;
	struct ledger_step *ls = NULL;
	struct ledger_fail lf;
	struct battle *b = NULL, *pristine = NULL, *next = NULL;
	struct orders_parser *op = NULL;
	const struct ruleset *rs;
	const char *scen;
	unsigned char want_head[LEDGER_HASH], sha[LEDGER_HASH];
	char *buf = NULL;
	size_t cap = 0, nlines = 0, i;
	ssize_t got;
	int rc = -1, lineno = 0, conceded = 0, last = 0, span, stale = 0;
	int unplayed_last = 0;
	struct err e;

	memset(res, 0, sizeof(*res));
	res->head_step = -1;
	err_clear(&e);
	if (o->head_hex != NULL && ledger_unhex(o->head_hex, want_head,
	    LEDGER_HASH) != 0)
		return bad(res, 0, 0, "--head", "--head takes the 64 hex digits of "
		    "a head, as a report gives it");
	/* Every line, parsed. */
	while ((got = read_line(in, &buf, &cap, ARCHIVE_LINE_MAX)) != 0) {
		struct aline *nl;
		json_error_t je;

		lineno++;
		/* No line of a real archive comes near this (a scenario is at
		 * most 1 MiB); a hostile one must not take all memory. */
		if (got < 0 || (res->bytes += got) > ARCHIVE_MAX) {
			bad(res, lineno, 0, "size", "line %d is past what an archive "
			    "holds (%d MiB a line, %d MiB in all)", lineno,
			    ARCHIVE_LINE_MAX >> 20, ARCHIVE_MAX >> 20);
			goto out;
		}
		nl = realloc(lines, (nlines + 1) * sizeof(*lines));
		if (nl == NULL) {
			bad(res, lineno, 0, "memory", "out of memory");
			goto out;
		}
		lines = nl;
		memset(&lines[nlines], 0, sizeof(lines[0]));
		lines[nlines].lineno = lineno;
		lines[nlines].j = json_loadb(buf, (size_t)got, 0, &je);
		nlines++;
		if (lines[nlines - 1].j == NULL ||
		    !json_is_object(lines[nlines - 1].j)) {
			bad(res, lineno, 0, "json", "line %d is not a JSON object%s%s",
			    lineno, lines[nlines - 1].j == NULL ? ": " : "",
			    lines[nlines - 1].j == NULL ? je.text : "");
			goto out;
		}
		/* Exactly as despatch writes it: then no byte of the archive
		 * can change without verify seeing it, even one that would
		 * read the same (a hex digit's case, an escape's). */
		{
			char *again = json_dumps(lines[nlines - 1].j, JSON_COMPACT |
			    JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
			size_t al = again != NULL ? strlen(again) : 0;
			int same = again != NULL && (size_t)got == al + 1 &&
			    memcmp(again, buf, al) == 0 && buf[al] == '\n';

			free(again);
			if (!same) {
				bad(res, lineno, 0, "json", "line %d is not as despatch "
				    "writes it (changed, or not one line ending in a "
				    "newline)", lineno);
				goto out;
			}
		}
	}
	if (ferror(in)) {
		bad(res, lineno, 0, "read", "the archive could not be read");
		goto out;
	}
	if (nlines < 2 || json_integer_value(json_object_get(lines[0].j,
	    "despatch_archive")) != 1) {
		bad(res, 1, 0, "header", "this is not a despatch archive (version "
		    "1): its first line should be the archive's header");
		goto out;
	}
	scen = str_of(lines[0].j, "scenario");
	if (scen == NULL || !ledger_json_keys_exact(lines[0].j, header_keys)) {
		bad(res, 1, 0, "header", "the header should have exactly "
		    "despatch_archive, game, ruleset, engine, finished and scenario");
		goto out;
	}
	res->finished = json_is_true(json_object_get(lines[0].j, "finished"));
	/* The records: the genesis, then one a step, in order. */
	recs = calloc(nlines, sizeof(*recs));
	if (recs == NULL) {
		bad(res, 0, 0, "memory", "out of memory");
		goto out;
	}
	for (i = 1; i < nlines; i++) {
		json_t *j = lines[i].j;
		const char *hex = str_of(j, "record");
		json_t *seq = json_object_get(j, "seq");

		int is_act = i > 1 && str_of(j, "kind") != NULL &&
		    strcmp(str_of(j, "kind"), "act") == 0;

		/* Which lines carry a state, and which acts a checkpoint, is
		 * checked with the records below: it depends on the engine. */
		if ((!ledger_json_keys_exact(j, i == 1 ? genesis_keys : is_act ? act_keys :
		    step_keys_bare) && !(i > 1 && ledger_json_keys_exact(j, is_act ?
		    act_keys_upgrade : step_keys))) ||
		    !json_is_string(json_object_get(j, "kind")) ||
		    (!is_act && strcmp(str_of(j, "kind"), i == 1 ? "genesis" :
		    "step") != 0)) {
			bad(res, lines[i].lineno, 0, "record", "line %d should be the "
			    "%s record with exactly its fields", lines[i].lineno,
			    i == 1 ? "genesis" : "next step");
			goto out;
		}
		if (!json_is_integer(seq) || json_integer_value(seq) != (json_int_t)(i -
		    1)) {
			bad(res, lines[i].lineno, 0, "seq", "line %d should hold record "
			    "%zu of the ledger", lines[i].lineno, i - 1);
			goto out;
		}
		if (hex == NULL || (lines[i].rec = unhex_alloc(hex, &lines[i].n)) ==
		    NULL || fixed_hex(j, "head", recs[i - 1].head, LEDGER_HASH) != 0 ||
		    fixed_hex(j, "sig", recs[i - 1].sig, LEDGER_SIG) != 0) {
			bad(res, lines[i].lineno, 0, "record", "line %d lacks a record, "
			    "head or signature in hex", lines[i].lineno);
			goto out;
		}
		recs[i - 1].rec = lines[i].rec;
		recs[i - 1].n = lines[i].n;
	}
	gen = malloc(sizeof(*gen));
	ls = malloc(sizeof(*ls));
	if (gen == NULL || ls == NULL) {
		bad(res, 0, 0, "memory", "out of memory");
		goto out;
	}
	if (ledger_check_chain(recs, (int)nlines - 1, gen, &conceded, &lf) != 0) {
		bad(res, lines[lf.index + 1].lineno, lf.step, lf.field, "%s",
		    lf.msg);
		goto out;
	}
	/* The header says what the genesis says. */
	if (strcmp(str_of(lines[0].j, "game") ? str_of(lines[0].j, "game") : "",
	    gen->game) != 0 || strcmp(str_of(lines[0].j, "ruleset") ?
	    str_of(lines[0].j, "ruleset") : "", gen->ruleset) != 0 ||
	    strcmp(str_of(lines[0].j, "engine") ? str_of(lines[0].j, "engine") :
	    "", gen->engine) != 0 ||
	    !json_is_boolean(json_object_get(lines[0].j, "finished"))) {
		bad(res, 1, 0, "header", "the header's game, ruleset or engine is "
		    "not the genesis record's");
		goto out;
	}
	/* A seat handed to another player has that player's address hash
	 * from the act on: an archive gives each seat's address now. */
	for (i = 2; i < nlines; i++) {
		struct ledger_act a;

		if (ledger_act_decode(lines[i].rec, lines[i].n, &a) == 0 &&
		    strcmp(a.act, "replace") == 0 && a.seat >= 1 &&
		    a.seat <= gen->nseats)
			memcpy(gen->seats[a.seat - 1].email_hash, a.email_hash,
			    LEDGER_HASH);
	}
	if (seats_check(lines[1].j, gen, res, lines[1].lineno) != 0)
		goto out;
	snprintf(res->game, sizeof(res->game), "%s", gen->game);
	snprintf(res->ruleset, sizeof(res->ruleset), "%s", gen->ruleset);
	snprintf(res->engine, sizeof(res->engine), "%s", gen->engine);
	memcpy(res->pk, gen->pk, LEDGER_PK);
	res->demo_key = ledger_key_is_demo(gen->pk);
	res->sandbox = gen->sandbox;
	res->fog = gen->fog;
	res->chain = gen->steps;
	memcpy(res->head, recs[nlines - 2].head, LEDGER_HASH);
	res->have_head = 1;
	if (o->head_hex != NULL) {
		for (i = 0; i + 1 < nlines; i++)
			if (sodium_memcmp(recs[i].head, want_head, LEDGER_HASH) == 0)
				break;
		if (i + 1 == nlines) {
			bad(res, 0, 0, "--head", "the head you kept is in no record of "
			    "this archive: it was cut short or altered after it");
			goto out;
		}
		/* The record's own step (an act's: the step open then). */
		res->head_step = 0;
		if (i > 0) {
			struct ledger_act a;

			if (ledger_step_decode(recs[i].rec, recs[i].n, ls) == 0)
				res->head_step = ls->step;
			else if (ledger_act_decode(recs[i].rec, recs[i].n, &a) == 0)
				res->head_step = a.step;
		}
	}
	/* The engine of the first span (ledger_check_chain knows it is one
	 * despatch has had). */
	span = ledger_engine_parse(gen->engine);
	crypto_hash_sha256(sha, (const unsigned char *)scen, strlen(scen));
	if (sodium_memcmp(sha, gen->scenario_sha256, LEDGER_HASH) != 0) {
		bad(res, 1, 0, "scenario", "the scenario in the archive is not the "
		    "one the genesis committed");
		goto out;
	}
	rs = ruleset_find(gen->ruleset);
	if (rs == NULL) {
		bad(res, lines[1].lineno, 0, "ruleset", "this build has no ruleset "
		    "%s", gen->ruleset);
		goto out;
	}
	if (gen->from_step != 1) {
		bad(res, lines[1].lineno, 0, "from step", "the ledger joined this "
		    "game at step %d: the steps before it were played before "
		    "despatch kept a ledger and cannot be replayed",
		    gen->from_step);
		goto out;
	}
	if (scenario_parse(scen, strlen(scen), "scenario", 0, &pristine, &e) != 0 ||
	    scenario_parse(scen, strlen(scen), "scenario", 0, &b, &e) != 0) {
		bad(res, 1, 0, "scenario", "the archive's scenario does not load: %s",
		    e.msg);
		goto out;
	}
	/* The genesis describes this scenario: its steps and sides. */
	if (battle_steps(b) != gen->steps || b->nsides != gen->nsides) {
		bad(res, lines[1].lineno, 0, "genesis", "the genesis names %d steps "
		    "and %d sides; the scenario has %d and %d", gen->steps,
		    gen->nsides, battle_steps(b), b->nsides);
		goto out;
	}
	for (i = 0; i < (size_t)b->nsides; i++)
		if (strcmp(b->sides[i].id, gen->sides[i]) != 0) {
			bad(res, lines[1].lineno, 0, "genesis", "the genesis's side %zu "
			    "is %s, the scenario's %s", i + 1, gen->sides[i],
			    b->sides[i].id);
			goto out;
		}
	/* The players on each side, as the genesis seated them, which a
	 * ruleset may weigh. */
	{
		int k, sd;

		for (k = 0; k < gen->nseats; k++)
			for (sd = 0; sd < b->nsides; sd++)
				if (strcmp(gen->seats[k].side, b->sides[sd].id) == 0) {
					b->seats[sd]++;
					pristine->seats[sd]++;
				}
	}
	next = battle_new();
	op = orders_parser_new(rs, &e);
	if (next == NULL || op == NULL) {
		bad(res, 0, 0, "memory", "%s", op == NULL ? e.msg : "out of memory");
		goto out;
	}
	for (i = 2; i < nlines; i++) {
		const struct ledger_engine *en = ledger_engine_get(span);
		int plays = en != NULL && en->replays;
		int has_state = json_object_get(lines[i].j, "state") != NULL;
		char kind[16];

		/* An operator's act changes nothing on the table, but an
		 * upgrade's checkpoint, where a new engine's span begins. */
		if (ledger_record_kind(lines[i].rec, lines[i].n, kind,
		    sizeof(kind)) == 0 && strcmp(kind, "act") == 0) {
			struct ledger_act a;
			json_t *cp = json_object_get(lines[i].j, "checkpoint");

			if (strcmp(str_of(lines[i].j, "kind"), "act") != 0) {
				bad(res, lines[i].lineno, 0, "kind", "line %d holds an act "
				    "record but says it is not one", lines[i].lineno);
				goto out;
			}
			res->acts++;
			if (ledger_act_decode(lines[i].rec, lines[i].n, &a) != 0 ||
			    strcmp(a.act, "upgrade") != 0) {
				if (cp != NULL) {
					bad(res, lines[i].lineno, 0, "checkpoint", "line %d "
					    "gives a checkpoint, but its act is no upgrade",
					    lines[i].lineno);
					goto out;
				}
				continue;
			}
			if (upgrade_check(&a, cp, pristine, b, next, res->steps > 0,
			    &lines[i], res) != 0)
				goto out;
			stale = 0;
			span = a.engine_to;
			res->upgrades++;
			continue;
		}
		if (strcmp(str_of(lines[i].j, "kind"), "step") != 0) {
			bad(res, lines[i].lineno, 0, "kind", "line %d holds a step "
			    "record but says it is not one", lines[i].lineno);
			goto out;
		}
		if (ledger_step_decode(lines[i].rec, lines[i].n, ls) != 0 ||
		    !json_is_integer(json_object_get(lines[i].j, "step")) ||
		    json_integer_value(json_object_get(lines[i].j, "step")) !=
		    ls->step) {
			bad(res, lines[i].lineno, 0, "step", "line %d's step is not its "
			    "record's", lines[i].lineno);
			goto out;
		}
		/* A replayed step's line carries the state the replay must
		 * give (export's run adds it); one this build does not replay
		 * may carry it, to be checked against its hash. */
		if (plays && o->state == NULL && !has_state) {
			bad(res, lines[i].lineno, ls->step, "state", "line %d, a step, "
			    "carries no \"state\": this is not an archive this "
			    "despatch writes, which gives the state after every step "
			    "(export the game again)", lines[i].lineno);
			goto out;
		}
		if (plays && o->state != NULL && has_state) {
			bad(res, lines[i].lineno, ls->step, "record", "line %d should be "
			    "the next step record with exactly its fields",
			    lines[i].lineno);
			goto out;
		}
		{
			int ps = battle_step_side(b, ls->step);

			if (ls->turn != battle_step_turn(b, ls->step) ||
			    strcmp(ls->phase, ps >= 0 ? b->sides[ps].id : "") != 0) {
				bad(res, lines[i].lineno, ls->step, "turn", "step %d's "
				    "record names turn %d, phase \"%s\", which is not the "
				    "scenario's", ls->step, ls->turn, ls->phase);
				goto out;
			}
		}
		if (!plays) {
			/* Checked as far as this build can; the build that
			 * replays it is named. */
			if (replay_step(gen, rs, op, pristine, ls, &lines[i], o,
			    en != NULL ? en : &no_engine, span, res) != 0)
				goto out;
			if (res->unplayed++ == 0) {
				res->unplayed_from = ls->step;
				res->unplayed_engine = span;
				snprintf(res->unplayed_build, sizeof(res->unplayed_build),
				    "%s", en != NULL ? en->build : "a newer despatch");
				res->unplayed_spans = 1;
			} else if (span != unplayed_last) {
				res->unplayed_spans++;
			}
			unplayed_last = span;
			if (span == res->unplayed_engine)
				res->unplayed_to = ls->step;
			last = ls->step;
			res->scripted += ls->scripted;
			res->steps++;
			stale = 1;
			if (o->progress != NULL)
				o->progress(res->steps + res->acts, (int)nlines - 2, o->arg);
			continue;
		}
		/* A battle that an army's breaking ended has no more steps. */
		if (ls->step > 1 && !stale && battle_over(b, ls->step - 1)) {
			bad(res, lines[i].lineno, ls->step, "step", "step %d comes "
			    "after the battle ended (an army broke in step %d)",
			    ls->step, ls->step - 1);
			goto out;
		}
		if (replay_step(gen, rs, op, b, ls, &lines[i], o, NULL, span,
		    res) != 0)
			goto out;
		stale = 0;
		last = ls->step;
		res->scripted += ls->scripted;
		res->steps++;
		/* What the server keeps between steps, and nothing else. */
		memcpy(next, pristine, sizeof(*next));
		battle_carry(next, b);
		memcpy(b, next, sizeof(*b));
		if (o->progress != NULL)
			o->progress(res->steps + res->acts, (int)nlines - 2, o->arg);
	}
	res->engine_now = span;
	/* An archive of a battle that is over holds every step, or ends
	 * with a concession; one of a battle going on, neither.  (Whether
	 * an army broke is known only where the last steps were replayed.) */
	res->conceded = conceded == 1;
	res->drawn = conceded == 2;
	if (stale && res->finished && !conceded &&
	    res->steps != gen->steps - gen->from_step + 1) {
		/* Whether an army broke is known only by playing the last
		 * steps; the header's word for it is not signed. */
		bad(res, lines[nlines - 1].lineno, 0, "steps", "the archive says "
		    "the battle is over after %d of its %d steps, which only a "
		    "replay of its last steps could show: verify it with %s",
		    res->steps, gen->steps - gen->from_step + 1,
		    res->unplayed_build[0] ? res->unplayed_build :
		    "the build that played them");
		goto out;
	}
	if (res->finished != (conceded ||
	    res->steps == gen->steps - gen->from_step + 1 ||
	    (last > 0 && !stale && battle_over(b, last)))) {
		bad(res, lines[nlines - 1].lineno, 0, "steps", "the archive says the "
		    "battle is %s but holds %d of its %d steps%s", res->finished ?
		    "over" : "going on", res->steps, gen->steps - gen->from_step + 1,
		    res->finished ? ": it was cut short" : "");
		goto out;
	}
	if (o->final != NULL && o->final(stale ? NULL : b, o->final_arg) != 0)
		goto out;
	rc = 0;
out:
	for (i = 0; i < nlines; i++) {
		json_decref(lines[i].j);
		free(lines[i].rec);
	}
	free(lines);
	free(recs);
	free(gen);
	free(ls);
	free(buf);
	battle_free(b);
	battle_free(pristine);
	battle_free(next);
	orders_parser_free(op);
	return rc;
}
