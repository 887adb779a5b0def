/*
 * record.c - the ledger's hashes and records (see record.h and
 * docs/ledger.md, which gives every tag and field in order).
 */
#include "ledger/record.h"

#include <sodium.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void
lbuf_free(struct lbuf *b)
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
lb_bytes(struct lbuf *b, const void *v, size_t n)
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
lb_str(struct lbuf *b, const char *s)
{
	lb_bytes(b, s, strlen(s));
}

void
lb_int(struct lbuf *b, int64_t v)
{
	unsigned char x[8];
	uint64_t u = (uint64_t)v;
	int i;

	for (i = 7; i >= 0; i--) {
		x[i] = (unsigned char)u;
		u >>= 8;
	}
	lb_bytes(b, x, 8);
}

void
ledger_hash(const char *tag, const struct lbuf *fields,
    unsigned char out[LEDGER_HASH])
{
	crypto_hash_sha256_state st;
	struct lbuf t = { 0 };

	lb_str(&t, tag);   /* short: it stays in the buffer's own bytes */
	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, t.p, t.n);
	if (fields != NULL && fields->n > 0)
		crypto_hash_sha256_update(&st, fields->p, fields->n);
	crypto_hash_sha256_final(&st, out);
	lbuf_free(&t);
}

/* --- the seed chain ---------------------------------------------------- */

void
ledger_chain_prev(const unsigned char sk[LEDGER_HASH],
    unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };

	lb_bytes(&f, sk, LEDGER_HASH);
	ledger_hash("despatch/seed-chain/v1", &f, out);
	lbuf_free(&f);
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

int
ledger_leaf(const char *game, int step, const char *side, int seat,
    const unsigned char salt[LEDGER_SALT], const char *orders,
    unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int oom;

	lb_str(&f, game);
	lb_int(&f, step);
	lb_str(&f, side);
	lb_int(&f, seat);
	lb_bytes(&f, salt, LEDGER_SALT);
	lb_str(&f, orders);
	oom = f.oom;
	ledger_hash("despatch/leaf/v1", &f, out);
	lbuf_free(&f);
	return oom ? -1 : 0;
}

void
ledger_quiet_salt(const unsigned char s_step[LEDGER_HASH], const char *side,
    int seat, unsigned char out[LEDGER_SALT])
{
	struct lbuf f = { 0 };
	unsigned char h[LEDGER_HASH];

	lb_bytes(&f, s_step, LEDGER_HASH);
	lb_str(&f, side);
	lb_int(&f, seat);
	ledger_hash("despatch/quiet-salt/v1", &f, h);
	memcpy(out, h, LEDGER_SALT);
	lbuf_free(&f);
}

void
ledger_root(const char *game, int step,
    const unsigned char (*leaves)[LEDGER_HASH], int n,
    unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int i;

	lb_str(&f, game);
	lb_int(&f, step);
	lb_int(&f, n);
	for (i = 0; i < n; i++)
		lb_bytes(&f, leaves[i], LEDGER_HASH);
	ledger_hash("despatch/orders-root/v1", &f, out);
	lbuf_free(&f);
}

void
ledger_dice_seed(const char *game, int step,
    const unsigned char s_step[LEDGER_HASH],
    const unsigned char root[LEDGER_HASH],
    const unsigned char prev_head[LEDGER_HASH],
    unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };

	lb_str(&f, game);
	lb_int(&f, step);
	lb_bytes(&f, s_step, LEDGER_HASH);
	lb_bytes(&f, root, LEDGER_HASH);
	lb_bytes(&f, prev_head, LEDGER_HASH);
	ledger_hash("despatch/dice-seed/v1", &f, out);
	lbuf_free(&f);
}

/* --- state and events -------------------------------------------------- */

int
ledger_state_hash(const struct battle *b, unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int i, oom;

	/* What a step can change; the rest is the scenario's, which the
	 * genesis record binds by its hash. */
	lb_int(&f, b->nstands);
	for (i = 0; i < b->nstands; i++) {
		const struct stand *s = &b->stands[i];

		lb_int(&f, s->unit);
		lb_int(&f, s->sp);
		lb_int(&f, s->pos.x);
		lb_int(&f, s->pos.y);
		lb_int(&f, s->facing);
		lb_int(&f, s->form);
		lb_int(&f, s->flags);
	}
	lb_int(&f, b->nbrigades);
	for (i = 0; i < b->nbrigades; i++) {
		const struct brigade *br = &b->brigades[i];

		lb_int(&f, br->lost);
		lb_int(&f, br->flags);
		lb_int(&f, br->hits);
	}
	lb_int(&f, b->ncommanders);
	for (i = 0; i < b->ncommanders; i++) {
		const struct commander *c = &b->commanders[i];

		lb_int(&f, c->pos.x);
		lb_int(&f, c->pos.y);
		lb_int(&f, c->facing);
		lb_int(&f, c->gone);
	}
	lb_int(&f, b->nterrain);
	for (i = 0; i < b->nterrain; i++)
		lb_int(&f, b->terrain[i].trodden);
	oom = f.oom;
	ledger_hash("despatch/state/v1", &f, out);
	lbuf_free(&f);
	return oom ? -1 : 0;
}

int
ledger_events_hash(const struct events *ev, unsigned char out[LEDGER_HASH])
{
	struct lbuf f = { 0 };
	int i, oom;

	lb_int(&f, ev->n);
	for (i = 0; i < ev->n; i++) {
		const struct event *x = &ev->v[i];

		lb_str(&f, events_kind_name(x->kind));
		lb_int(&f, x->side);
		lb_int(&f, x->unit);
		lb_int(&f, x->target);
		lb_int(&f, x->value);
		lb_int(&f, x->sides);
		lb_str(&f, x->text);
	}
	oom = f.oom;
	ledger_hash("despatch/events/v1", &f, out);
	lbuf_free(&f);
	return oom ? -1 : 0;
}

/* --- records ----------------------------------------------------------- */

int
ledger_genesis_encode(const struct ledger_genesis *g, struct lbuf *out)
{
	int i;

	out->n = 0;
	out->oom = 0;
	lb_str(out, "genesis");
	lb_int(out, LEDGER_VERSION);
	lb_str(out, g->game);
	lb_str(out, g->title);
	lb_bytes(out, g->scenario_sha256, LEDGER_HASH);
	lb_str(out, g->ruleset);
	lb_str(out, g->engine);
	lb_int(out, g->steps);
	lb_int(out, g->from_step);
	lb_int(out, g->sandbox);
	lb_int(out, g->fog);
	lb_int(out, g->nsides);
	for (i = 0; i < g->nsides; i++)
		lb_str(out, g->sides[i]);
	lb_int(out, g->nseats);
	for (i = 0; i < g->nseats; i++) {
		lb_int(out, g->seats[i].seat);
		lb_str(out, g->seats[i].side);
		lb_bytes(out, g->seats[i].email_hash, LEDGER_HASH);
	}
	lb_bytes(out, g->s0, LEDGER_HASH);
	lb_bytes(out, g->pk, LEDGER_PK);
	return out->oom ? -1 : 0;
}

int
ledger_step_encode(const struct ledger_step *s, struct lbuf *out)
{
	int i;

	out->n = 0;
	out->oom = 0;
	lb_str(out, "step");
	lb_int(out, LEDGER_VERSION);
	lb_int(out, s->step);
	lb_int(out, s->turn);
	lb_str(out, s->phase);
	lb_bytes(out, s->prev, LEDGER_HASH);
	lb_int(out, s->nleaves);
	for (i = 0; i < s->nleaves; i++) {
		lb_str(out, s->leaves[i].side);
		lb_int(out, s->leaves[i].seat);
		lb_int(out, s->leaves[i].mailed);
		lb_bytes(out, s->leaves[i].leaf, LEDGER_HASH);
	}
	lb_bytes(out, s->root, LEDGER_HASH);
	lb_bytes(out, s->s_step, LEDGER_HASH);
	lb_bytes(out, s->dice_seed, LEDGER_HASH);
	lb_int(out, s->scripted);
	lb_int(out, s->rolls);
	lb_bytes(out, s->events, LEDGER_HASH);
	lb_bytes(out, s->state, LEDGER_HASH);
	return out->oom ? -1 : 0;
}

void
ledger_head(const unsigned char *rec, size_t n, unsigned char out[LEDGER_HASH])
{
	crypto_hash_sha256_state st;
	struct lbuf t = { 0 };
	unsigned char len[4];

	/* The tag, then the record as one field, without copying it. */
	lb_str(&t, "despatch/record/v1");
	len[0] = (unsigned char)(n >> 24);
	len[1] = (unsigned char)(n >> 16);
	len[2] = (unsigned char)(n >> 8);
	len[3] = (unsigned char)n;
	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, t.p, t.n);
	crypto_hash_sha256_update(&st, len, 4);
	crypto_hash_sha256_update(&st, rec, n);
	crypto_hash_sha256_final(&st, out);
	lbuf_free(&t);
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
	lb_str(&f, low);
	ledger_hash("despatch/email/v1", &f, out);
	lbuf_free(&f);
}
