/*
 * record.c - the ledger's hashes and records (see record.h and
 * docs/ledger.md, which gives every tag and field in order).
 */
#include "ledger/record.h"

#include <sodium.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/ruleset.h"

void
ledger_buf_free(struct lbuf *b)
{
	if (b->p != b->small)
		free(b->p);
	memset(b, 0, sizeof(*b));
}

static void
lb_raw(struct lbuf *b, const void *v, size_t n)
{
	if (b->oom)
		return;
	if (b->p == NULL) {
		b->p = b->small;
		b->cap = sizeof(b->small);
	}
	if (b->n + n > b->cap) {
		size_t cap = b->cap;
		unsigned char *p;

		while (cap < b->n + n)
			cap *= 2;
		p = b->p == b->small ? malloc(cap) : realloc(b->p, cap);
		if (p == NULL) {
			b->oom = 1;
			return;
		}
		if (b->p == b->small)
			memcpy(p, b->small, b->n);
		b->p = p;
		b->cap = cap;
	}
	if (n > 0)
		memcpy(b->p + b->n, v, n);
	b->n += n;
}

void
ledger_buf_bytes(struct lbuf *b, const void *v, size_t n)
{
	unsigned char len[4];

	len[0] = (unsigned char)(n >> 24);
	len[1] = (unsigned char)(n >> 16);
	len[2] = (unsigned char)(n >> 8);
	len[3] = (unsigned char)n;
	lb_raw(b, len, 4);
	lb_raw(b, v, n);
}

void
ledger_buf_str(struct lbuf *b, const char *s)
{
	ledger_buf_bytes(b, s, strlen(s));
}

void
ledger_buf_int(struct lbuf *b, int64_t v)
{
	unsigned char x[8];
	uint64_t u = (uint64_t)v;
	int i;

	for (i = 7; i >= 0; i--) {
		x[i] = (unsigned char)u;
		u >>= 8;
	}
	ledger_buf_bytes(b, x, 8);
}

void
ledger_hash(const char *tag, const struct lbuf *fields,
    unsigned char out[LEDGER_HASH])
{
	crypto_hash_sha256_state st;
	struct lbuf t = { 0 };

	ledger_buf_str(&t,
	    tag);   /* short: it stays in the buffer's own bytes */
	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, t.p, t.n);
	if (fields != NULL && fields->n > 0)
		crypto_hash_sha256_update(&st, fields->p, fields->n);
	crypto_hash_sha256_final(&st, out);
	ledger_buf_free(&t);
}

/* --- the seed chain ---------------------------------------------------- */

void
ledger_chain_prev(const unsigned char sk[LEDGER_HASH],
    unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };

	ledger_buf_bytes(&f, sk, LEDGER_HASH);
	ledger_hash("despatch/seed-chain/v1", &f, out);
	ledger_buf_free(&f);
}

void
ledger_chain_at(const unsigned char tip[LEDGER_HASH], int n, int k,
    unsigned char out[LEDGER_HASH])
{
	unsigned char s[LEDGER_HASH];
	int i;

	memcpy(s, tip, LEDGER_HASH);
	for (i = n; i > k; i--)
		ledger_chain_prev(s, s);
	memcpy(out, s, LEDGER_HASH);
	sodium_memzero(s, sizeof(s));
}

/* --- orders ------------------------------------------------------------ */

/* A leaf, with the commitment as its last field in a game with nonces
 * (commit not NULL). */
static int
leaf(const char *game, int step, const char *side, int seat,
    const unsigned char salt[LEDGER_SALT], const char *orders,
    const unsigned char *commit, unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int oom;

	ledger_buf_str(&f, game);
	ledger_buf_int(&f, step);
	ledger_buf_str(&f, side);
	ledger_buf_int(&f, seat);
	ledger_buf_bytes(&f, salt, LEDGER_SALT);
	ledger_buf_str(&f, orders);
	if (commit != NULL)
		ledger_buf_bytes(&f, commit, LEDGER_HASH);
	oom = f.oom;
	ledger_hash("despatch/leaf/v1", &f, out);
	ledger_buf_free(&f);
	return oom ? -1 : 0;
}

int
ledger_leaf(const char *game, int step, const char *side, int seat,
    const unsigned char salt[LEDGER_SALT], const char *orders,
    unsigned char out[LEDGER_HASH])
{
	return leaf(game, step, side, seat, salt, orders, NULL, out);
}

int
ledger_leaf_committed(const char *game, int step, const char *side, int seat,
    const unsigned char salt[LEDGER_SALT], const char *orders,
    const unsigned char commit[LEDGER_HASH], unsigned char out[LEDGER_HASH])
{
	return leaf(game, step, side, seat, salt, orders, commit, out);
}

void
ledger_salt(const unsigned char s_step[LEDGER_HASH], const char *side,
    int seat, const char *orders, unsigned char out[LEDGER_SALT])
{
	struct lbuf f = { 0 };
	unsigned char h[LEDGER_HASH];

	ledger_buf_bytes(&f, s_step, LEDGER_HASH);
	ledger_buf_str(&f, side);
	ledger_buf_int(&f, seat);
	ledger_buf_str(&f, orders);
	/* A set too large for memory gets the hash of what fitted; its leaf
	 * then fails to be made, which is reported. */
	ledger_hash("despatch/salt/v1", &f, h);
	memcpy(out, h, LEDGER_SALT);
	ledger_buf_free(&f);
}

void
ledger_root(const char *game, int step,
    const unsigned char (*leaves)[LEDGER_HASH], int n,
    unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int i;

	ledger_buf_str(&f, game);
	ledger_buf_int(&f, step);
	ledger_buf_int(&f, n);
	for (i = 0; i < n; i++)
		ledger_buf_bytes(&f, leaves[i], LEDGER_HASH);
	ledger_hash("despatch/orders-root/v1", &f, out);
	ledger_buf_free(&f);
}

void
ledger_dice_seed(const char *game, int step,
    const unsigned char s_step[LEDGER_HASH],
    const unsigned char root[LEDGER_HASH],
    const unsigned char prev_head[LEDGER_HASH],
    unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };

	ledger_buf_str(&f, game);
	ledger_buf_int(&f, step);
	ledger_buf_bytes(&f, s_step, LEDGER_HASH);
	ledger_buf_bytes(&f, root, LEDGER_HASH);
	ledger_buf_bytes(&f, prev_head, LEDGER_HASH);
	ledger_hash("despatch/dice-seed/v1", &f, out);
	ledger_buf_free(&f);
}

void
ledger_dice_seed_nonces(const char *game, int step,
    const unsigned char s_step[LEDGER_HASH],
    const unsigned char root[LEDGER_HASH],
    const unsigned char prev_head[LEDGER_HASH],
    const struct ledger_step *s, unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int i;

	ledger_buf_str(&f, game);
	ledger_buf_int(&f, step);
	ledger_buf_bytes(&f, s_step, LEDGER_HASH);
	ledger_buf_bytes(&f, root, LEDGER_HASH);
	ledger_buf_bytes(&f, prev_head, LEDGER_HASH);
	ledger_buf_int(&f, s->nleaves);
	for (i = 0; i < s->nleaves; i++) {
		if (s->leaves[i].nonce[0] != '\0') {
			ledger_buf_str(&f, s->leaves[i].nonce);
		} else {
			struct lbuf a = { 0 };
			unsigned char h[LEDGER_HASH];

			ledger_buf_str(&a, s->leaves[i].side);
			ledger_buf_int(&a, s->leaves[i].seat);
			ledger_hash("despatch/absent/v1", &a, h);
			ledger_buf_free(&a);
			ledger_buf_bytes(&f, h, LEDGER_HASH);
		}
	}
	ledger_hash("despatch/dice-seed/v1", &f, out);
	ledger_buf_free(&f);
}

/* --- state and events -------------------------------------------------- */

/* The layout of engines 3 to 5 takes three numbers a unit. */
_Static_assert(BATTLE_UNIT_STATE == 3, "despatch/state/v3 takes three");

int
ledger_rules_kept(const struct battle *b)
{
	const struct ruleset *rs = ruleset_find(b->ruleset);

	return rs != NULL && rs->ntables > 0 && rs->tables[0].rows(b) > 0;
}

int
ledger_state_hash(const struct battle *b, unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int i, oom;

	/* What a step can change; the rest is the scenario's, which the
	 * genesis record binds by its hash. */
	ledger_buf_int(&f, b->nstands);
	for (i = 0; i < b->nstands; i++) {
		const struct stand *s = &b->stands[i];

		ledger_buf_int(&f, s->unit);
		ledger_buf_int(&f, s->sp);
		ledger_buf_int(&f, s->pos.x);
		ledger_buf_int(&f, s->pos.y);
		ledger_buf_int(&f, s->facing);
		ledger_buf_int(&f, s->form);
		ledger_buf_int(&f, s->flags);
	}
	ledger_buf_int(&f, b->nbrigades);
	for (i = 0; i < b->nbrigades; i++) {
		const struct brigade *br = &b->brigades[i];

		ledger_buf_int(&f, br->lost);
		ledger_buf_int(&f, br->flags);
		ledger_buf_int(&f, br->hits);
	}
	ledger_buf_int(&f, b->ncommanders);
	for (i = 0; i < b->ncommanders; i++) {
		const struct commander *c = &b->commanders[i];

		ledger_buf_int(&f, c->pos.x);
		ledger_buf_int(&f, c->pos.y);
		ledger_buf_int(&f, c->facing);
		ledger_buf_int(&f, c->gone);
		ledger_buf_int(&f, c->attached);
	}
	ledger_buf_int(&f, b->nterrain);
	for (i = 0; i < b->nterrain; i++)
		ledger_buf_int(&f, b->terrain[i].trodden);
	ledger_buf_int(&f, b->nunits);
	for (i = 0; i < b->nunits; i++) {
		int k;

		/* Its ruleset's numbers (rules/engine.h, ENGINE_V3_UNIT_KEYS). */
		for (k = 0; k < BATTLE_UNIT_STATE; k++)
			ledger_buf_int(&f, b->units[i].state[k]);
	}
	/* The ruleset's own state, where it keeps any (a battle whose
	 * first table is empty keeps the hash it always had): each table's
	 * rows, counted, then each commander's casualty marks, as engine 3
	 * laid them out. */
	if (ledger_rules_kept(b)) {
		const struct ruleset *rs = ruleset_find(b->ruleset);
		int t, v[RULES_TABLE_MAX_KEYS];

		for (t = 0; t < rs->ntables; t++) {
			const struct rules_table *rt = &rs->tables[t];
			int n = rt->rows(b), r, k;

			ledger_buf_int(&f, n);
			for (r = 0; r < n; r++) {
				rt->get(b, r, v);
				for (k = 0; rt->keys[k] != NULL; k++)
					ledger_buf_int(&f, v[k]);
			}
		}
		for (i = 0; i < b->ncommanders; i++) {
			ledger_buf_int(&f, b->commanders[i].out_until);
			ledger_buf_int(&f, b->commanders[i].out_removed);
		}
	}
	oom = f.oom;
	ledger_hash("despatch/state/v3", &f, out);
	ledger_buf_free(&f);
	return oom ? -1 : 0;
}

/* The events as engine's way signs them: the fields every engine takes,
 * then the sentence (typed 0: engines to 4) or the message id and its
 * signed values (typed 1: from engine 5). */
static int
events_hash(const struct events *ev, int typed, unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int i, k, n, oom;

	ledger_buf_int(&f, ev->n);
	for (i = 0; i < ev->n; i++) {
		const struct event *x = &ev->v[i];
		char letter[2] = { 0, 0 };

		ledger_buf_str(&f, events_kind_name(x->kind));
		ledger_buf_int(&f, x->side);
		ledger_buf_int(&f, x->unit);
		ledger_buf_int(&f, x->target);
		ledger_buf_int(&f, x->value);
		ledger_buf_int(&f, x->sides);
		if (!typed) {
			ledger_buf_str(&f, x->text);
			continue;
		}
		ledger_buf_str(&f, x->msg);
		/* Its signed values: all but its wording. */
		for (k = n = 0; k < x->nargs; k++)
			n += events_type_signed(x->types[k]);
		ledger_buf_int(&f, n);
		for (k = 0; k < x->nargs; k++) {
			if (!events_type_signed(x->types[k]))
				continue;
			letter[0] = x->types[k];
			ledger_buf_str(&f, letter);
			ledger_buf_str(&f, events_arg(x, k));
		}
	}
	oom = f.oom;
	ledger_hash(typed ? "despatch/events/v2" : "despatch/events/v1", &f, out);
	ledger_buf_free(&f);
	return oom ? -1 : 0;
}

int
ledger_events_hash_text(const struct events *ev,
    unsigned char out[LEDGER_HASH])
{
	return events_hash(ev, 0, out);
}

int
ledger_events_hash(const struct events *ev, unsigned char out[LEDGER_HASH])
{
	return events_hash(ev, 1, out);
}

/* --- records ----------------------------------------------------------- */

int
ledger_genesis_encode(const struct ledger_genesis *g, struct lbuf *out)
{
	int i;

	out->n = 0;
	out->oom = 0;
	ledger_buf_str(out, "genesis");
	ledger_buf_int(out, LEDGER_VERSION);
	ledger_buf_str(out, g->game);
	ledger_buf_str(out, g->title);
	ledger_buf_bytes(out, g->scenario_sha256, LEDGER_HASH);
	ledger_buf_str(out, g->ruleset);
	ledger_buf_str(out, g->engine);
	ledger_buf_int(out, g->steps);
	ledger_buf_int(out, g->from_step);
	ledger_buf_int(out, g->sandbox);
	ledger_buf_int(out, g->fog);
	ledger_buf_int(out, g->nonces);
	ledger_buf_int(out, g->nsides);
	for (i = 0; i < g->nsides; i++)
		ledger_buf_str(out, g->sides[i]);
	ledger_buf_int(out, g->nseats);
	for (i = 0; i < g->nseats; i++) {
		ledger_buf_int(out, g->seats[i].seat);
		ledger_buf_str(out, g->seats[i].side);
		ledger_buf_bytes(out, g->seats[i].email_hash, LEDGER_HASH);
	}
	ledger_buf_bytes(out, g->s0, LEDGER_HASH);
	ledger_buf_bytes(out, g->pk, LEDGER_PK);
	return out->oom ? -1 : 0;
}

int
ledger_step_encode(const struct ledger_step *s, struct lbuf *out)
{
	int i;

	out->n = 0;
	out->oom = 0;
	ledger_buf_str(out, "step");
	if (s->version == 1) {
		/* As a record of the layout before engines were named is
		 * read back (ledger tests). */
		ledger_buf_int(out, 1);
	} else {
		ledger_buf_int(out, LEDGER_STEP_VERSION);
		ledger_buf_int(out, s->engine);
	}
	ledger_buf_int(out, s->step);
	ledger_buf_int(out, s->turn);
	ledger_buf_str(out, s->phase);
	ledger_buf_bytes(out, s->prev, LEDGER_HASH);
	ledger_buf_int(out, s->nleaves);
	for (i = 0; i < s->nleaves; i++) {
		ledger_buf_str(out, s->leaves[i].side);
		ledger_buf_int(out, s->leaves[i].seat);
		ledger_buf_int(out, s->leaves[i].mailed);
		ledger_buf_bytes(out, s->leaves[i].leaf, LEDGER_HASH);
		ledger_buf_bytes(out, s->leaves[i].commit, LEDGER_HASH);
		ledger_buf_str(out, s->leaves[i].nonce);
	}
	ledger_buf_bytes(out, s->root, LEDGER_HASH);
	ledger_buf_bytes(out, s->s_step, LEDGER_HASH);
	ledger_buf_bytes(out, s->dice_seed, LEDGER_HASH);
	ledger_buf_int(out, s->scripted);
	ledger_buf_int(out, s->rolls);
	ledger_buf_bytes(out, s->events, LEDGER_HASH);
	ledger_buf_bytes(out, s->state, LEDGER_HASH);
	return out->oom ? -1 : 0;
}

int
ledger_act_encode(const struct ledger_act *a, struct lbuf *out)
{
	int up = strcmp(a->act, "upgrade") == 0;

	out->n = 0;
	out->oom = 0;
	ledger_buf_str(out, "act");
	ledger_buf_int(out, up ? LEDGER_UPGRADE_VERSION : LEDGER_VERSION);
	ledger_buf_str(out, a->act);
	ledger_buf_int(out, a->step);
	ledger_buf_bytes(out, a->prev, LEDGER_HASH);
	ledger_buf_int(out, a->seat);
	ledger_buf_bytes(out, a->email_hash, LEDGER_HASH);
	ledger_buf_int(out, a->amount);
	ledger_buf_str(out, a->text);
	if (up) {
		ledger_buf_int(out, a->engine_from);
		ledger_buf_int(out, a->engine_to);
		ledger_buf_bytes(out, a->state_from, LEDGER_HASH);
		ledger_buf_bytes(out, a->state_to, LEDGER_HASH);
	}
	return out->oom ? -1 : 0;
}

void
ledger_head(const unsigned char *rec, size_t n, unsigned char out[LEDGER_HASH])
{
	crypto_hash_sha256_state st;
	struct lbuf t = { 0 };
	unsigned char len[4];

	/* The tag, then the record as one field, without copying it. */
	ledger_buf_str(&t, "despatch/record/v1");
	len[0] = (unsigned char)(n >> 24);
	len[1] = (unsigned char)(n >> 16);
	len[2] = (unsigned char)(n >> 8);
	len[3] = (unsigned char)n;
	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, t.p, t.n);
	crypto_hash_sha256_update(&st, len, 4);
	crypto_hash_sha256_update(&st, rec, n);
	crypto_hash_sha256_final(&st, out);
	ledger_buf_free(&t);
}

void
ledger_email_hash(const char *email, unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	char low[320];
	size_t i;

	for (i = 0; email[i] != '\0' && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)email[i]);
	low[i] = '\0';
	ledger_buf_str(&f, low);
	ledger_hash("despatch/email/v1", &f, out);
	ledger_buf_free(&f);
}

/* --- reading records back ---------------------------------------------- */

/* A cursor over a record's fields; bad is set at the first field that is
 * not there or not the size it must be, and every read after gives
 * zeros. */
struct lread {
	const unsigned char *p;
	size_t n, at;
	int bad;
};

static const unsigned char *
lr_field(struct lread *r, size_t *len)
{
	size_t l;

	*len = 0;
	if (r->bad || r->n - r->at < 4) {
		r->bad = 1;
		return NULL;
	}
	l = (size_t)r->p[r->at] << 24 | (size_t)r->p[r->at + 1] << 16 |
	    (size_t)r->p[r->at + 2] << 8 | r->p[r->at + 3];
	if (r->n - r->at - 4 < l) {
		r->bad = 1;
		return NULL;
	}
	r->at += 4 + l;
	*len = l;
	return r->p + r->at - l;
}

static int64_t
lr_int(struct lread *r)
{
	size_t l;
	const unsigned char *v = lr_field(r, &l);
	uint64_t u = 0;
	int i;

	if (v == NULL || l != 8) {
		r->bad = 1;
		return 0;
	}
	for (i = 0; i < 8; i++)
		u = u << 8 | v[i];
	return (int64_t)u;
}

/* A small number (a count, a step, a flag): 0..max. */
static int
lr_small(struct lread *r, int max)
{
	int64_t v = lr_int(r);

	if (v < 0 || v > max) {
		r->bad = 1;
		return 0;
	}
	return (int)v;
}

static void
lr_str(struct lread *r, char *out, size_t size)
{
	size_t l;
	const unsigned char *v = lr_field(r, &l);

	out[0] = '\0';
	if (v == NULL)
		return;
	if (l >= size || memchr(v, '\0', l) != NULL) {
		r->bad = 1;
		return;
	}
	memcpy(out, v, l);
	out[l] = '\0';
}

static void
lr_fixed(struct lread *r, unsigned char *out, size_t want)
{
	size_t l;
	const unsigned char *v = lr_field(r, &l);

	if (v == NULL || l != want) {
		r->bad = 1;
		memset(out, 0, want);
		return;
	}
	memcpy(out, v, want);
}

/* Every field read, none left over. */
static int
lr_done(const struct lread *r)
{
	return r->bad || r->at != r->n ? -1 : 0;
}

int
ledger_record_kind(const unsigned char *rec, size_t n, char *kind, size_t size)
{
	struct lread r = { rec, n, 0, 0 };

	lr_str(&r, kind, size);
	return r.bad ? -1 : 0;
}

int
ledger_genesis_decode(const unsigned char *rec, size_t n,
    struct ledger_genesis *g)
{
	struct lread r = { rec, n, 0, 0 };
	char kind[16];
	int i;

	memset(g, 0, sizeof(*g));
	lr_str(&r, kind, sizeof(kind));
	if (r.bad || strcmp(kind, "genesis") != 0 ||
	    lr_int(&r) != LEDGER_VERSION)
		return -1;
	lr_str(&r, g->game, sizeof(g->game));
	lr_str(&r, g->title, sizeof(g->title));
	lr_fixed(&r, g->scenario_sha256, LEDGER_HASH);
	lr_str(&r, g->ruleset, sizeof(g->ruleset));
	lr_str(&r, g->engine, sizeof(g->engine));
	g->steps = lr_small(&r, 1000000);
	g->from_step = lr_small(&r, 1000000);
	g->sandbox = lr_small(&r, 1);
	g->fog = lr_small(&r, 1);
	g->nonces = lr_small(&r, 1);
	g->nsides = lr_small(&r, BATTLE_MAX_SIDES);
	for (i = 0; i < g->nsides; i++)
		lr_str(&r, g->sides[i], sizeof(g->sides[i]));
	g->nseats = lr_small(&r, LEDGER_MAX_SEATS);
	for (i = 0; i < g->nseats; i++) {
		g->seats[i].seat = lr_small(&r, LEDGER_MAX_SEATS);
		lr_str(&r, g->seats[i].side, sizeof(g->seats[i].side));
		lr_fixed(&r, g->seats[i].email_hash, LEDGER_HASH);
	}
	lr_fixed(&r, g->s0, LEDGER_HASH);
	lr_fixed(&r, g->pk, LEDGER_PK);
	return lr_done(&r);
}

int
ledger_step_decode(const unsigned char *rec, size_t n, struct ledger_step *s)
{
	struct lread r = { rec, n, 0, 0 };
	char kind[16];
	int i;

	memset(s, 0, sizeof(*s));
	lr_str(&r, kind, sizeof(kind));
	if (r.bad || strcmp(kind, "step") != 0)
		return -1;
	s->version = (int)lr_int(&r);
	if (s->version == LEDGER_STEP_VERSION)
		s->engine = lr_small(&r, 1000000);
	else if (s->version != 1)
		return -1;
	s->step = lr_small(&r, 1000000);
	s->turn = lr_small(&r, 1000000);
	lr_str(&r, s->phase, sizeof(s->phase));
	lr_fixed(&r, s->prev, LEDGER_HASH);
	s->nleaves = lr_small(&r, LEDGER_MAX_SEATS);
	for (i = 0; i < s->nleaves; i++) {
		lr_str(&r, s->leaves[i].side, sizeof(s->leaves[i].side));
		s->leaves[i].seat = lr_small(&r, LEDGER_MAX_SEATS);
		s->leaves[i].mailed = lr_small(&r, 1);
		lr_fixed(&r, s->leaves[i].leaf, LEDGER_HASH);
		lr_fixed(&r, s->leaves[i].commit, LEDGER_HASH);
		lr_str(&r, s->leaves[i].nonce, sizeof(s->leaves[i].nonce));
	}
	lr_fixed(&r, s->root, LEDGER_HASH);
	lr_fixed(&r, s->s_step, LEDGER_HASH);
	lr_fixed(&r, s->dice_seed, LEDGER_HASH);
	s->scripted = lr_small(&r, 1);
	s->rolls = lr_int(&r);
	lr_fixed(&r, s->events, LEDGER_HASH);
	lr_fixed(&r, s->state, LEDGER_HASH);
	return lr_done(&r);
}

int
ledger_act_decode(const unsigned char *rec, size_t n, struct ledger_act *a)
{
	struct lread r = { rec, n, 0, 0 };
	char kind[16];
	int64_t v;

	memset(a, 0, sizeof(*a));
	lr_str(&r, kind, sizeof(kind));
	if (r.bad || strcmp(kind, "act") != 0)
		return -1;
	v = lr_int(&r);
	lr_str(&r, a->act, sizeof(a->act));
	/* An upgrade has layout 2, and every other act layout 1. */
	if (r.bad || v != (strcmp(a->act, "upgrade") == 0 ?
	    LEDGER_UPGRADE_VERSION : LEDGER_VERSION))
		return -1;
	a->step = lr_small(&r, 1000000);
	lr_fixed(&r, a->prev, LEDGER_HASH);
	a->seat = lr_small(&r, LEDGER_MAX_SEATS);
	lr_fixed(&r, a->email_hash, LEDGER_HASH);
	a->amount = lr_int(&r);
	lr_str(&r, a->text, sizeof(a->text));
	if (v == LEDGER_UPGRADE_VERSION) {
		a->engine_from = lr_small(&r, 1000000);
		a->engine_to = lr_small(&r, 1000000);
		lr_fixed(&r, a->state_from, LEDGER_HASH);
		lr_fixed(&r, a->state_to, LEDGER_HASH);
	}
	return lr_done(&r);
}

/* --- campaigns ------------------------------------------------------ */

int
ledger_cgenesis_encode(const struct ledger_cgenesis *g, struct lbuf *out)
{
	int i;

	out->n = 0;
	out->oom = 0;
	ledger_buf_str(out, "campaign-genesis");
	ledger_buf_int(out, LEDGER_VERSION);
	ledger_buf_str(out, g->campaign);
	ledger_buf_str(out, g->title);
	ledger_buf_bytes(out, g->file_sha256, LEDGER_HASH);
	ledger_buf_int(out, g->nfields);
	for (i = 0; i < g->nfields; i++) {
		ledger_buf_str(out, g->field_path[i]);
		ledger_buf_bytes(out, g->field_sha256[i], LEDGER_HASH);
	}
	ledger_buf_str(out, g->ruleset);
	ledger_buf_int(out, g->engine);
	ledger_buf_int(out, g->turns);
	ledger_buf_int(out, g->sandbox);
	ledger_buf_int(out, g->nsides);
	for (i = 0; i < g->nsides; i++)
		ledger_buf_str(out, g->sides[i]);
	ledger_buf_int(out, g->nseats);
	for (i = 0; i < g->nseats; i++) {
		ledger_buf_int(out, g->seats[i].seat);
		ledger_buf_str(out, g->seats[i].side);
		ledger_buf_bytes(out, g->seats[i].email_hash, LEDGER_HASH);
	}
	ledger_buf_bytes(out, g->state, LEDGER_HASH);
	ledger_buf_bytes(out, g->s0, LEDGER_HASH);
	ledger_buf_bytes(out, g->pk, LEDGER_PK);
	return out->oom ? -1 : 0;
}

int
ledger_cgenesis_decode(const unsigned char *rec, size_t n,
    struct ledger_cgenesis *g)
{
	struct lread r = { rec, n, 0, 0 };
	char kind[24];
	int i;

	memset(g, 0, sizeof(*g));
	lr_str(&r, kind, sizeof(kind));
	if (r.bad || strcmp(kind, "campaign-genesis") != 0 ||
	    lr_int(&r) != LEDGER_VERSION)
		return -1;
	lr_str(&r, g->campaign, sizeof(g->campaign));
	lr_str(&r, g->title, sizeof(g->title));
	lr_fixed(&r, g->file_sha256, LEDGER_HASH);
	g->nfields = lr_small(&r, LEDGER_MAX_FIELDS);
	for (i = 0; i < g->nfields; i++) {
		lr_str(&r, g->field_path[i], sizeof(g->field_path[i]));
		lr_fixed(&r, g->field_sha256[i], LEDGER_HASH);
	}
	lr_str(&r, g->ruleset, sizeof(g->ruleset));
	g->engine = lr_small(&r, 1000000);
	g->turns = lr_small(&r, 1000000);
	g->sandbox = lr_small(&r, 1);
	g->nsides = lr_small(&r, BATTLE_MAX_SIDES);
	for (i = 0; i < g->nsides; i++)
		lr_str(&r, g->sides[i], sizeof(g->sides[i]));
	g->nseats = lr_small(&r, LEDGER_MAX_SEATS);
	for (i = 0; i < g->nseats; i++) {
		g->seats[i].seat = lr_small(&r, LEDGER_MAX_SEATS);
		lr_str(&r, g->seats[i].side, sizeof(g->seats[i].side));
		lr_fixed(&r, g->seats[i].email_hash, LEDGER_HASH);
	}
	lr_fixed(&r, g->state, LEDGER_HASH);
	lr_fixed(&r, g->s0, LEDGER_HASH);
	lr_fixed(&r, g->pk, LEDGER_PK);
	return lr_done(&r);
}

void
ledger_campaign_state_hash(const char *text, size_t len,
    unsigned char out[LEDGER_HASH])
{
	struct lbuf b = { 0 };

	ledger_buf_bytes(&b, text, len);
	ledger_hash("despatch/campaign-state/v1", &b, out);
	ledger_buf_free(&b);
}

int
ledger_cmarch_encode(const struct ledger_cmarch *m, struct lbuf *out)
{
	int i;

	out->n = 0;
	out->oom = 0;
	ledger_buf_str(out, "campaign-march");
	ledger_buf_int(out, LEDGER_VERSION);
	ledger_buf_int(out, m->turn);
	ledger_buf_bytes(out, m->prev, LEDGER_HASH);
	ledger_buf_int(out, m->nleaves);
	for (i = 0; i < m->nleaves; i++) {
		ledger_buf_str(out, m->leaf_side[i]);
		ledger_buf_bytes(out, m->leaf[i], LEDGER_HASH);
	}
	ledger_buf_bytes(out, m->root, LEDGER_HASH);
	ledger_buf_bytes(out, m->s_turn, LEDGER_HASH);
	ledger_buf_bytes(out, m->dice_seed, LEDGER_HASH);
	ledger_buf_int(out, m->rolls);
	ledger_buf_bytes(out, m->state, LEDGER_HASH);
	ledger_buf_int(out, m->nbattles);
	for (i = 0; i < m->nbattles; i++) {
		ledger_buf_str(out, m->place[i]);
		ledger_buf_str(out, m->game[i]);
	}
	return out->oom ? -1 : 0;
}

int
ledger_csettle_encode(const struct ledger_csettle *m, struct lbuf *out)
{
	int i;

	out->n = 0;
	out->oom = 0;
	ledger_buf_str(out, "campaign-settle");
	ledger_buf_int(out, LEDGER_VERSION);
	ledger_buf_int(out, m->turn);
	ledger_buf_bytes(out, m->prev, LEDGER_HASH);
	ledger_buf_int(out, m->nbattles);
	for (i = 0; i < m->nbattles; i++) {
		ledger_buf_str(out, m->game[i]);
		ledger_buf_bytes(out, m->head[i], LEDGER_HASH);
		ledger_buf_int(out, m->steps[i]);
	}
	ledger_buf_bytes(out, m->state, LEDGER_HASH);
	ledger_buf_int(out, m->nsides);
	for (i = 0; i < m->nsides; i++)
		ledger_buf_int(out, m->points[i]);
	ledger_buf_int(out, m->over);
	ledger_buf_int(out, m->winner);
	return out->oom ? -1 : 0;
}

void
ledger_campaign_leaf(const char *campaign, int turn, const char *side,
    const unsigned char s_turn[LEDGER_HASH], const char *orders,
    unsigned char out[LEDGER_HASH])
{
	unsigned char salt[LEDGER_SALT];
	struct lbuf b = { 0 };

	ledger_salt(s_turn, side, 0, orders, salt);
	ledger_buf_str(&b, campaign);
	ledger_buf_int(&b, turn);
	ledger_buf_str(&b, side);
	ledger_buf_bytes(&b, salt, LEDGER_SALT);
	ledger_buf_str(&b, orders);
	ledger_hash("despatch/campaign-leaf/v1", &b, out);
	ledger_buf_free(&b);
}

void
ledger_campaign_root(const char *campaign, int turn,
    const unsigned char (*leaves)[LEDGER_HASH], int n,
    unsigned char out[LEDGER_HASH])
{
	struct lbuf b = { 0 };
	int i;

	ledger_buf_str(&b, campaign);
	ledger_buf_int(&b, turn);
	for (i = 0; i < n; i++)
		ledger_buf_bytes(&b, leaves[i], LEDGER_HASH);
	ledger_hash("despatch/campaign-root/v1", &b, out);
	ledger_buf_free(&b);
}

void
ledger_campaign_dice_seed(const char *campaign, int turn,
    const unsigned char s_turn[LEDGER_HASH],
    const unsigned char root[LEDGER_HASH],
    const unsigned char prev[LEDGER_HASH], unsigned char out[LEDGER_HASH])
{
	struct lbuf b = { 0 };

	ledger_buf_str(&b, campaign);
	ledger_buf_int(&b, turn);
	ledger_buf_bytes(&b, s_turn, LEDGER_HASH);
	ledger_buf_bytes(&b, root, LEDGER_HASH);
	ledger_buf_bytes(&b, prev, LEDGER_HASH);
	ledger_hash("despatch/campaign-dice/v1", &b, out);
	ledger_buf_free(&b);
}

int
ledger_cmarch_decode(const unsigned char *rec, size_t n,
    struct ledger_cmarch *m)
{
	struct lread r = { rec, n, 0, 0 };
	char kind[24];
	int i;

	memset(m, 0, sizeof(*m));
	lr_str(&r, kind, sizeof(kind));
	if (r.bad || strcmp(kind, "campaign-march") != 0 ||
	    lr_int(&r) != LEDGER_VERSION)
		return -1;
	m->turn = lr_small(&r, 1000000);
	lr_fixed(&r, m->prev, LEDGER_HASH);
	m->nleaves = lr_small(&r, BATTLE_MAX_SIDES);
	for (i = 0; i < m->nleaves; i++) {
		lr_str(&r, m->leaf_side[i], sizeof(m->leaf_side[i]));
		lr_fixed(&r, m->leaf[i], LEDGER_HASH);
	}
	lr_fixed(&r, m->root, LEDGER_HASH);
	lr_fixed(&r, m->s_turn, LEDGER_HASH);
	lr_fixed(&r, m->dice_seed, LEDGER_HASH);
	m->rolls = lr_int(&r);
	lr_fixed(&r, m->state, LEDGER_HASH);
	m->nbattles = lr_small(&r, LEDGER_MAX_CBATTLES);
	for (i = 0; i < m->nbattles; i++) {
		lr_str(&r, m->place[i], sizeof(m->place[i]));
		lr_str(&r, m->game[i], sizeof(m->game[i]));
	}
	return lr_done(&r);
}

int
ledger_csettle_decode(const unsigned char *rec, size_t n,
    struct ledger_csettle *m)
{
	struct lread r = { rec, n, 0, 0 };
	char kind[24];
	int i;

	memset(m, 0, sizeof(*m));
	lr_str(&r, kind, sizeof(kind));
	if (r.bad || strcmp(kind, "campaign-settle") != 0 ||
	    lr_int(&r) != LEDGER_VERSION)
		return -1;
	m->turn = lr_small(&r, 1000000);
	lr_fixed(&r, m->prev, LEDGER_HASH);
	m->nbattles = lr_small(&r, LEDGER_MAX_CBATTLES);
	for (i = 0; i < m->nbattles; i++) {
		lr_str(&r, m->game[i], sizeof(m->game[i]));
		lr_fixed(&r, m->head[i], LEDGER_HASH);
		m->steps[i] = lr_small(&r, 1000000);
	}
	lr_fixed(&r, m->state, LEDGER_HASH);
	m->nsides = lr_small(&r, BATTLE_MAX_SIDES);
	for (i = 0; i < m->nsides; i++)
		m->points[i] = (int)lr_int(&r);
	m->over = lr_small(&r, 1);
	m->winner = (int)lr_int(&r);
	return lr_done(&r);
}
