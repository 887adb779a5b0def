/*
 * cverify.c - a battle's verified outcome, and a whole campaign's
 * archive checked from scratch (docs/ledger.md, Campaigns).
 *
 * What a battle carries back to its campaign is computed from its final
 * state as its own archive verifies it, by ledger_battle_outcome: the
 * referee calls it on the archive it exports of the battle, and the
 * campaign's verify on the archive the campaign's archive holds, so both
 * carry back from the same bytes by the same code.
 *
 * ledger_campaign_verify reads a campaign archive and checks: the
 * genesis (the file and battlefields by hash, the engine, the calendar,
 * the state at the start, the key's signature), and then each record in
 * order, each signed and linked to the one before: a march by playing
 * it again (its S_t down the seed chain to S_0, each side's leaf from
 * the orders it holds, the root, the dice seed, the march itself through
 * src/campaign/turn.c, the state after it, the battles it opened, and
 * each battle's scenario as the march writes it, byte for byte); a
 * settle by verifying every battle's archive, carrying each back from
 * its verified final state, and comparing the state, the points and the
 * end with the record's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sodium.h>

#include "campaign/campaign.h"
#include "ledger/cverify.h"
#include "ledger/ledger.h"
#include "ledger/record.h"
#include "ledger/verify.h"
#include "scenario/scenario.h"

struct final_copy {
	struct battle *b;
};

static int
keep_final(const struct battle *b, void *arg)
{
	struct final_copy *fc = arg;

	if (b == NULL)
		return -1;     /* not replayed here: nothing to carry from */
	fc->b = battle_new();
	if (fc->b == NULL)
		return -1;
	memcpy(fc->b, b, sizeof(*b));
	return 0;
}

/* The line'th line (0-based) of text, as a JSON object (NULL if none). */
static json_t *
line_json(const char *text, size_t len, int want_last, int line)
{
	const char *s = text, *end = text + len, *start = NULL;
	size_t l = 0;
	int n = 0;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t k = nl ? (size_t)(nl - s) : (size_t)(end - s);

		if (k > 0 && (want_last || n == line)) {
			start = s;
			l = k;
			if (!want_last)
				break;
		}
		n++;
		s += k + (nl ? 1 : 0);
	}
	return start != NULL ? json_loadb(start, l, 0, NULL) : NULL;
}

static int
unhex_field(json_t *o, const char *key, unsigned char **out, size_t *n)
{
	const char *h = json_string_value(json_object_get(o, key));
	size_t l;

	*out = NULL;
	if (h == NULL || (l = strlen(h)) % 2 != 0)
		return -1;
	*n = l / 2;
	*out = malloc(*n + 1);
	if (*out == NULL || ledger_unhex_exact(h, *out, (int)*n) != 0) {
		free(*out);
		*out = NULL;
		return -1;
	}
	return 0;
}

int
ledger_battle_outcome(const char *archive, size_t len,
    struct battle_outcome *out, char *why, size_t wsize)
{
	struct verify_opts o;
	struct verify_result *res;
	struct final_copy fc = { NULL };
	FILE *in;
	int rc;

	memset(out, 0, sizeof(*out));
	out->ended = CARRY_BY_RESULT;
	res = calloc(1, sizeof(*res));
	if (res == NULL) {
		snprintf(why, wsize, "out of memory");
		return -1;
	}
	memset(&o, 0, sizeof(o));
	o.final = keep_final;
	o.final_arg = &fc;
	in = fmemopen((void *)archive, len, "r");
	if (in == NULL) {
		free(res);
		snprintf(why, wsize, "out of memory");
		return -1;
	}
	rc = ledger_verify(in, &o, res);
	fclose(in);
	if (rc != 0 || fc.b == NULL) {
		snprintf(why, wsize, "its archive does not verify: line %d, %s: %s",
		    res->line, res->field, rc != 0 ? res->msg : "its last steps "
		    "are of an engine this build does not play");
		battle_free(fc.b);
		free(res);
		return -1;
	}
	if (!res->finished) {
		snprintf(why, wsize, "the battle is not over");
		battle_free(fc.b);
		free(res);
		return -1;
	}
	out->b = fc.b;
	out->steps = res->steps;
	memcpy(out->head, res->head, LEDGER_HASH);
	snprintf(out->game, sizeof(out->game), "%s", res->game);
	/* Ended early: a draw agreed, or a concession, whose seat the
	 * genesis says the side of; the battle's other side won. */
	if (res->drawn) {
		out->ended = -1;
	} else if (res->conceded) {
		json_t *gl = line_json(archive, len, 0, 1);
		json_t *ll = line_json(archive, len, 1, 0);
		unsigned char *gr = NULL, *lr = NULL;
		size_t gn = 0, ln = 0;
		struct ledger_genesis *gen = calloc(1, sizeof(*gen));
		struct ledger_act act;
		int i, s;

		if (gen == NULL || gl == NULL || ll == NULL ||
		    unhex_field(gl, "record", &gr, &gn) != 0 ||
		    unhex_field(ll, "record", &lr, &ln) != 0 ||
		    ledger_genesis_decode(gr, gn, gen) != 0 ||
		    ledger_act_decode(lr, ln, &act) != 0 ||
		    strcmp(act.act, "concede") != 0) {
			snprintf(why, wsize, "its concession cannot be read");
			rc = -1;
		} else {
			for (i = 0; i < gen->nseats; i++)
				if (gen->seats[i].seat == act.seat) {
					s = battle_side(fc.b, gen->seats[i].side);
					out->ended = fc.b->nsides == 2 && s >= 0 ? 1 - s : -1;
				}
		}
		free(gen);
		free(gr);
		free(lr);
		json_decref(gl);
		json_decref(ll);
		if (rc != 0) {
			battle_free(fc.b);
			out->b = NULL;
			free(res);
			return -1;
		}
	}
	free(res);
	return 0;
}

/* ---- a whole campaign ----------------------------------------------------- */

struct cfields {
	json_t *arr;
};

static int
read_field(void *ctx, const char *path, char **text, size_t *len,
    struct err *e)
{
	const struct cfields *cf = ctx;
	size_t i;

	for (i = 0; i < json_array_size(cf->arr); i++) {
		json_t *f = json_array_get(cf->arr, i);
		const char *p = json_string_value(json_object_get(f, "path"));
		json_t *t = json_object_get(f, "text");

		if (p != NULL && json_is_string(t) && strcmp(p, path) == 0) {
			*len = json_string_length(t);
			*text = malloc(*len + 1);
			if (*text == NULL)
				return err_set(e, ERR_INTERNAL, "out of memory");
			memcpy(*text, json_string_value(t), *len + 1);
			return 0;
		}
	}
	return err_set(e, ERR_DATA, "the archive holds no battlefield \"%s\"",
	    path);
}

static int
fail(struct cverify_result *r, int line, int seq, const char *field,
    const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int
fail(struct cverify_result *r, int line, int seq, const char *field,
    const char *fmt, ...)
{
	va_list ap;

	r->line = line;
	r->seq = seq;
	snprintf(r->field, sizeof(r->field), "%s", field);
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof(r->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* A record line's bytes, head and signature, checked: the head is the
 * record's, the signature the key's, and it follows prev. */
static int
record_of(json_t *j, int line, int seq, const unsigned char pk[LEDGER_PK],
    unsigned char **rec, size_t *n, unsigned char head[LEDGER_HASH],
    struct cverify_result *r)
{
	unsigned char *h = NULL, *sig = NULL, want[LEDGER_HASH];
	size_t hn = 0, sn = 0;
	json_int_t s = json_integer_value(json_object_get(j, "seq"));

	if (!json_is_integer(json_object_get(j, "seq")) || s != seq)
		return fail(r, line, seq, "seq", "record %d was expected here",
		    seq);
	if (unhex_field(j, "record", rec, n) != 0 ||
	    unhex_field(j, "head", &h, &hn) != 0 || hn != LEDGER_HASH ||
	    unhex_field(j, "sig", &sig, &sn) != 0 || sn != LEDGER_SIG) {
		free(h);
		free(sig);
		free(*rec);
		*rec = NULL;
		return fail(r, line, seq, "record", "record %d is not whole "
		    "(record, head and sig in lowercase hex)", seq);
	}
	ledger_head(*rec, *n, want);
	if (memcmp(want, h, LEDGER_HASH) != 0) {
		free(h);
		free(sig);
		return fail(r, line, seq, "head", "record %d's head is not the "
		    "hash of its bytes", seq);
	}
	if (ledger_sign_check(pk, h, sig) != 0) {
		free(h);
		free(sig);
		return fail(r, line, seq, "sig", "record %d is not signed by the "
		    "campaign's key", seq);
	}
	memcpy(head, h, LEDGER_HASH);
	free(h);
	free(sig);
	return 0;
}

static void
state_hash(const struct campaign *c, unsigned char out[LEDGER_HASH])
{
	struct text t;

	text_init(&t, 8u * 1024 * 1024);
	campaign_state_write(c, &t);
	ledger_campaign_state_hash(t.s != NULL ? t.s : "", t.len, out);
	text_free(&t);
}

int
ledger_campaign_verify(FILE *in, struct cverify_result *r)
{
	json_t *lines[4096];
	int nlines = 0, i, k, s, rc = -1, seq = 1;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t got;
	struct campaign *c = NULL;
	struct ledger_cgenesis *gen = NULL;
	struct ledger_cmarch *m = NULL;
	struct ledger_csettle *st = NULL;
	struct cp_turn *t = NULL;
	unsigned char *rec = NULL, prev[LEDGER_HASH], h[LEDGER_HASH];
	size_t rn = 0;
	int marched = 0;
	struct err e;

	memset(r, 0, sizeof(*r));
	r->winner = -1;
	while ((got = getline(&buf, &cap, in)) > 0) {
		if (nlines == 4096) {
			free(buf);
			fail(r, nlines + 1, 0, "lines", "too many lines");
			goto out;
		}
		lines[nlines] = json_loadb(buf, (size_t)got, 0, NULL);
		if (lines[nlines] == NULL || !json_is_object(lines[nlines])) {
			json_decref(lines[nlines]);
			free(buf);
			fail(r, nlines + 1, 0, "json", "line %d is not a JSON object",
			    nlines + 1);
			goto out;
		}
		nlines++;
	}
	free(buf);
	gen = calloc(1, sizeof(*gen));
	m = calloc(1, sizeof(*m));
	st = calloc(1, sizeof(*st));
	t = calloc(1, sizeof(*t));
	if (gen == NULL || m == NULL || st == NULL || t == NULL) {
		fail(r, 0, 0, "memory", "out of memory");
		goto out;
	}
	if (nlines < 2 || json_integer_value(json_object_get(lines[0],
	    "despatch_campaign_archive")) != 1) {
		fail(r, 1, 0, "despatch_campaign_archive", "not a campaign archive "
		    "of version 1");
		goto out;
	}
	/* The header: the campaign read from the file it holds. */
	{
		struct cfields cf = { json_object_get(lines[0], "fields") };
		struct cp_fields fr = { read_field, &cf };
		json_t *file = json_object_get(lines[0], "file");
		const char *fname = json_string_value(json_object_get(lines[0],
		    "file_name"));

		snprintf(r->campaign, sizeof(r->campaign), "%s",
		    json_string_value(json_object_get(lines[0], "campaign")) ?
		    json_string_value(json_object_get(lines[0], "campaign")) : "");
		r->finished = json_is_true(json_object_get(lines[0], "finished"));
		err_clear(&e);
		if (!json_is_string(file) || fname == NULL ||
		    !json_is_array(cf.arr) ||
		    campaign_parse_with(json_string_value(file),
		    json_string_length(file), fname, &fr, &c, &e) != 0) {
			fail(r, 1, 0, "file", "the campaign file does not read: %s",
			    e.msg[0] ? e.msg : "it is missing");
			goto out;
		}
	}
	/* The genesis. */
	{
		unsigned char *gr = NULL;
		size_t gn = 0;
		unsigned char sha[LEDGER_HASH], pk[LEDGER_PK];
		json_t *file = json_object_get(lines[0], "file");
		json_t *fields = json_object_get(lines[0], "fields");

		if (unhex_field(lines[1], "record", &gr, &gn) != 0 ||
		    ledger_cgenesis_decode(gr, gn, gen) != 0) {
			free(gr);
			fail(r, 2, 0, "record", "line 2 is no campaign genesis");
			goto out;
		}
		free(gr);
		memcpy(pk, gen->pk, LEDGER_PK);
		memcpy(r->pk, pk, LEDGER_PK);
		if (record_of(lines[1], 2, 0, pk, &rec, &rn, prev, r) != 0)
			goto out;
		free(rec);
		rec = NULL;
		if (strcmp(gen->campaign, r->campaign) != 0) {
			fail(r, 2, 0, "campaign", "the genesis is of campaign \"%s\"",
			    gen->campaign);
			goto out;
		}
		crypto_hash_sha256(sha, (const unsigned char *)
		    json_string_value(file), json_string_length(file));
		if (memcmp(sha, gen->file_sha256, LEDGER_HASH) != 0) {
			fail(r, 1, 0, "file", "the campaign file is not the one the "
			    "genesis signed");
			goto out;
		}
		if ((size_t)gen->nfields != json_array_size(fields)) {
			fail(r, 1, 0, "fields", "the archive holds %zu battlefields, "
			    "the genesis %d", json_array_size(fields), gen->nfields);
			goto out;
		}
		for (i = 0; i < gen->nfields; i++) {
			json_t *f = json_array_get(fields, (size_t)i);
			json_t *tx = json_object_get(f, "text");
			const char *p = json_string_value(json_object_get(f, "path"));

			if (p == NULL || !json_is_string(tx) ||
			    strcmp(p, gen->field_path[i]) != 0) {
				fail(r, 1, 0, "fields", "battlefield %d is not \"%s\"",
				    i + 1, gen->field_path[i]);
				goto out;
			}
			crypto_hash_sha256(sha, (const unsigned char *)
			    json_string_value(tx), json_string_length(tx));
			if (memcmp(sha, gen->field_sha256[i], LEDGER_HASH) != 0) {
				fail(r, 1, 0, "fields", "battlefield \"%s\" is not the "
				    "one the genesis signed", p);
				goto out;
			}
		}
		if (gen->engine < 1 || gen->engine > CAMPAIGN_ENGINE ||
		    strcmp(gen->ruleset,
		    c->ruleset) != 0 || gen->turns != (c->end_day -
		    c->start_day + 1) * c->halves || gen->nsides != c->nsides) {
			fail(r, 2, 0, "genesis", "the genesis names engine %d, "
			    "ruleset %s and %d turns; this build plays campaign "
			    "engines 1 to %d, and the file says %s and %d",
			    gen->engine,
			    gen->ruleset, gen->turns, CAMPAIGN_ENGINE, c->ruleset,
			    (c->end_day - c->start_day + 1) * c->halves);
			goto out;
		}
		/* Played to its end by the engine it began under. */
		c->engine = gen->engine;
		r->engine = gen->engine;
		state_hash(c, h);
		if (memcmp(h, gen->state, LEDGER_HASH) != 0) {
			fail(r, 2, 0, "state", "the state at the start is not the "
			    "one the genesis signed");
			goto out;
		}
	}
	/* The records, in order. */
	for (i = 2; i < nlines; i++) {
		json_t *j = lines[i];
		const char *kind = json_string_value(json_object_get(j, "kind"));
		unsigned char head[LEDGER_HASH];

		if (json_object_get(j, "battle") != NULL)
			break;     /* the battles' archives follow the records */
		if (kind == NULL) {
			fail(r, i + 1, seq, "kind", "line %d is no record", i + 1);
			goto out;
		}
		if (record_of(j, i + 1, seq, gen->pk, &rec, &rn, head, r) != 0)
			goto out;
		if (strcmp(kind, "campaign-march") == 0) {
			unsigned char sx[LEDGER_HASH], leaf[BATTLE_MAX_SIDES][LEDGER_HASH];
			struct cp_order given[CAMPAIGN_MAX_COLUMNS];
			json_t *orders = json_object_get(j, "orders");
			struct ledger_dice ld;
			struct dice d;
			int ngiven = 0;

			if (marched || ledger_cmarch_decode(rec, rn, m) != 0) {
				fail(r, i + 1, seq, "record", marched ? "a march before "
				    "the last one was settled" : "the record is no march");
				goto out;
			}
			if (memcmp(m->prev, prev, LEDGER_HASH) != 0 ||
			    m->turn != c->turn + 1) {
				fail(r, i + 1, seq, "prev", "the march of turn %d does "
				    "not follow record %d", m->turn, seq - 1);
				goto out;
			}
			memcpy(sx, m->s_turn, LEDGER_HASH);
			for (k = 0; k < m->turn; k++)
				ledger_chain_prev(sx, sx);
			if (memcmp(sx, gen->s0, LEDGER_HASH) != 0) {
				fail(r, i + 1, seq, "s_turn", "turn %d's seed does not "
				    "hash down to the genesis's S_0", m->turn);
				goto out;
			}
			if (m->nleaves != c->nsides ||
			    json_array_size(orders) != (size_t)c->nsides) {
				fail(r, i + 1, seq, "orders", "a march has one order set "
				    "a side");
				goto out;
			}
			for (s = 0; s < c->nsides; s++) {
				json_t *so = json_array_get(orders, (size_t)s);
				const char *text = json_string_value(json_object_get(so,
				    "orders"));
				const char *p;

				if (text == NULL || strcmp(m->leaf_side[s],
				    c->sides[s].id) != 0) {
					fail(r, i + 1, seq, "orders", "side %d's orders are "
					    "missing", s + 1);
					goto out;
				}
				ledger_campaign_leaf(r->campaign, m->turn, c->sides[s].id,
				    m->s_turn, text, leaf[s]);
				if (memcmp(leaf[s], m->leaf[s], LEDGER_HASH) != 0) {
					fail(r, i + 1, seq, "orders", "the orders of %s for "
					    "turn %d are not those the record committed",
					    c->sides[s].id, m->turn);
					goto out;
				}
				for (p = text; *p; ) {
					const char *nl = strchr(p, '\n');
					char line[512], msg[512];
					size_t l = nl ? (size_t)(nl - p) : strlen(p);

					snprintf(line, sizeof(line), "%.*s", (int)l, p);
					p += l + (nl ? 1 : 0);
					if (ngiven < CAMPAIGN_MAX_COLUMNS &&
					    campaign_order_line(c, s, line, &given[ngiven], msg,
					    sizeof(msg)) == 1)
						ngiven++;
				}
			}
			ledger_campaign_root(r->campaign, m->turn,
			    (const unsigned char (*)[LEDGER_HASH])leaf, c->nsides, sx);
			if (memcmp(sx, m->root, LEDGER_HASH) != 0) {
				fail(r, i + 1, seq, "root", "turn %d's root is not its "
				    "leaves'", m->turn);
				goto out;
			}
			ledger_campaign_dice_seed(r->campaign, m->turn, m->s_turn,
			    m->root, m->prev, sx);
			if (memcmp(sx, m->dice_seed, LEDGER_HASH) != 0) {
				fail(r, i + 1, seq, "dice_seed", "turn %d's dice seed is "
				    "not the one its seed, root and link make", m->turn);
				goto out;
			}
			ledger_dice_init(&ld, m->dice_seed);
			dice_init(&d, ledger_dice_next, &ld, NULL);
			err_clear(&e);
			campaign_turn_free(t);
			if (campaign_turn_orders(c, given, ngiven, t, &e) != 0 ||
			    campaign_turn_march(c, t, &d, &e) != 0) {
				fail(r, i + 1, seq, "march", "turn %d does not play: %s",
				    m->turn, e.msg);
				goto out;
			}
			state_hash(c, h);
			if (d.rolls != m->rolls || memcmp(h, m->state, LEDGER_HASH) !=
			    0 || t->ncontacts != m->nbattles) {
				fail(r, i + 1, seq, "state", "turn %d's march played "
				    "again is not the one the record signed (%d battles "
				    "and %ld dice, the record %d and %lld)", m->turn,
				    t->ncontacts, d.rolls, m->nbattles,
				    (long long)m->rolls);
				goto out;
			}
			for (k = 0; k < t->ncontacts; k++)
				if (strcmp(m->place[k], c->places[
				    t->contacts[k].place].name) != 0) {
					fail(r, i + 1, seq, "battles", "battle %d of turn %d "
					    "was at %s, not %s", k + 1, m->turn,
					    c->places[t->contacts[k].place].name,
					    m->place[k]);
					goto out;
				}
			memcpy(r->march_head, head, LEDGER_HASH);
			marched = 1;
		} else if (strcmp(kind, "campaign-settle") == 0) {
			struct battle_outcome bo[LEDGER_MAX_CBATTLES];
			struct battle *bs[LEDGER_MAX_CBATTLES];
			int played[LEDGER_MAX_CBATTLES], ended[LEDGER_MAX_CBATTLES];
			struct cp_settle cs;
			int nb = 0, bad = 0;

			if (!marched || ledger_csettle_decode(rec, rn, st) != 0 ||
			    st->turn != t->turn || st->nbattles != t->ncontacts ||
			    memcmp(st->prev, prev, LEDGER_HASH) != 0) {
				fail(r, i + 1, seq, "record", "record %d does not settle "
				    "the turn marched before it", seq);
				goto out;
			}
			memset(bo, 0, sizeof(bo));
			for (k = 0; k < st->nbattles && !bad; k++) {
				char hex[2 * LEDGER_HASH + 1], why[600];
				struct text sc;
				json_t *ba = NULL, *hd;
				int b;

				for (b = i + 1; b < nlines; b++) {
					const char *g = json_string_value(json_object_get(
					    lines[b], "battle"));

					if (g != NULL && strcmp(g, st->game[k]) == 0)
						ba = json_object_get(lines[b], "archive");
				}
				if (!json_is_string(ba)) {
					fail(r, i + 1, seq, "battles", "the archive holds no "
					    "battle %s", st->game[k]);
					bad = 1;
					break;
				}
				/* The battle's scenario is what the march wrote. */
				ledger_hex(r->march_head, LEDGER_HASH, hex);
				text_init(&sc, 2u * 1024 * 1024);
				text_add(&sc, "# A battle of campaign %s, turn %d, opened by "
				    "its record of head\n# %s\n", r->campaign, t->turn, hex);
				text_add(&sc, "%.*s", (int)t->battles[k].len,
				    t->battles[k].scenario);
				hd = line_json(json_string_value(ba), json_string_length(ba),
				    0, 0);
				if (hd == NULL || !json_is_string(json_object_get(hd,
				    "scenario")) || strcmp(json_string_value(
				    json_object_get(hd, "scenario")), sc.s) != 0) {
					fail(r, i + 1, seq, "battles", "battle %s was not "
					    "fought with the forces and ground its march gave "
					    "it", st->game[k]);
					bad = 1;
				}
				json_decref(hd);
				text_free(&sc);
				if (bad)
					break;
				if (ledger_battle_outcome(json_string_value(ba),
				    json_string_length(ba), &bo[k], why, sizeof(why)) != 0) {
					fail(r, i + 1, seq, "battles", "battle %s: %s",
					    st->game[k], why);
					bad = 1;
					break;
				}
				nb++;
				if (memcmp(bo[k].head, st->head[k], LEDGER_HASH) != 0 ||
				    bo[k].steps != st->steps[k]) {
					fail(r, i + 1, seq, "battles", "battle %s ended with "
					    "another head, or after %d steps, not %d",
					    st->game[k], bo[k].steps, st->steps[k]);
					bad = 1;
					break;
				}
				bs[k] = bo[k].b;
				played[k] = bo[k].steps;
				ended[k] = bo[k].ended;
				r->battles++;
			}
			if (!bad) {
				err_clear(&e);
				memset(&cs, 0, sizeof(cs));
				if (campaign_turn_settle(c, t, bs, played, ended, &cs,
				    &e) != 0) {
					fail(r, i + 1, seq, "settle", "turn %d does not settle: "
					    "%s", t->turn, e.msg);
					bad = 1;
				} else {
					state_hash(c, h);
					if (memcmp(h, st->state, LEDGER_HASH) != 0)
						bad = fail(r, i + 1, seq, "state", "what turn %d's "
						    "battles carried back and its day are not the "
						    "state the record signed", t->turn) != 0;
					for (s = 0; s < c->nsides && !bad; s++)
						if (cs.points[s] != st->points[s])
							bad = fail(r, i + 1, seq, "points", "%s has "
							    "%d points after turn %d, not %d",
							    c->sides[s].id, cs.points[s], t->turn,
							    st->points[s]) != 0;
					if (!bad && (st->over != c->over || (c->over &&
					    st->winner != c->winner)))
						bad = fail(r, i + 1, seq, "over", "the campaign's "
						    "end after turn %d is not the record's",
						    t->turn) != 0;
				}
				campaign_settle_free(&cs);
			}
			for (k = 0; k < nb; k++)
				battle_free(bo[k].b);
			if (bad)
				goto out;
			marched = 0;
			r->turns = c->turn;
		} else {
			fail(r, i + 1, seq, "kind", "\"%s\" is no campaign record",
			    kind);
			goto out;
		}
		free(rec);
		rec = NULL;
		memcpy(prev, head, LEDGER_HASH);
		memcpy(r->head, head, LEDGER_HASH);
		seq++;
	}
	if (r->finished != c->over) {
		fail(r, nlines, seq, "finished", "the archive says the campaign is "
		    "%s, its chain that it is %s", r->finished ? "over" :
		    "going on", c->over ? "over" : "going on");
		goto out;
	}
	r->over = c->over;
	r->winner = c->over ? c->winner : -1;
	if (r->winner >= 0)
		snprintf(r->winner_id, sizeof(r->winner_id), "%s",
		    c->sides[r->winner].id);
	r->records = seq - 1;
	rc = 0;
out:
	for (i = 0; i < nlines; i++)
		json_decref(lines[i]);
	if (t != NULL)
		campaign_turn_free(t);
	free(t);
	free(rec);
	free(gen);
	free(m);
	free(st);
	campaign_free(c);
	return rc;
}

int
ledger_is_campaign_archive(const char *head, size_t n)
{
	static const char tag[] = "{\"despatch_campaign_archive\"";

	return n >= sizeof(tag) - 1 && memcmp(head, tag, sizeof(tag) - 1) == 0;
}
