/*
 * check.c - checking a game's chain of records as it stands: every
 * record whole, its head the hash of its bytes, signed by the key the
 * genesis names, linked to the one before, its S_step hashing down to
 * S_0, its root made from its leaves and its dice seed from those.
 *
 * What this cannot see (that the leaves are the orders that were sent,
 * that the events follow from the dice) needs the orders and a replay:
 * verify does that on an archive.
 */
#include "ledger/check.h"

#include <sodium.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ledger/engine.h"

static int
fail(struct ledger_fail *f, int index, int step, const char *field,
    const char *fmt, ...)
{
	va_list ap;

	f->index = index;
	f->step = step;
	snprintf(f->field, sizeof(f->field), "%s", field);
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Record r (index i, at step, called name in messages): its head the
 * hash of its bytes (into head), signed with pk, naming prev as the
 * record before it (rprev). */
static int
linked(const struct ledger_rec *r, int i, int step, const char *name,
    const unsigned char pk[LEDGER_PK], const unsigned char rprev[LEDGER_HASH],
    const unsigned char prev[LEDGER_HASH], unsigned char head[LEDGER_HASH],
    struct ledger_fail *f)
{
	ledger_head(r->rec, r->n, head);
	if (sodium_memcmp(head, r->head, LEDGER_HASH) != 0)
		return fail(f, i, step, "head", "%s's head is not the hash of its "
		    "record", name);
	if (ledger_sign_check(pk, head, r->sig) != 0)
		return fail(f, i, step, "signature", "%s is not signed by the "
		    "game's key", name);
	if (sodium_memcmp(rprev, prev, LEDGER_HASH) != 0)
		return fail(f, i, step, "previous head", "%s does not follow the "
		    "record before it", name);
	return 0;
}

int
ledger_check_chain(const struct ledger_rec *recs, int n,
    struct ledger_genesis *gen, int *ended, struct ledger_fail *f)
{
	struct ledger_step *s;
	unsigned char head[LEDGER_HASH], prev[LEDGER_HASH];
	unsigned char prev_step[LEDGER_HASH], s_prev[LEDGER_HASH];
	unsigned char last_state[LEDGER_HASH];
	unsigned char offers[LEDGER_MAX_SEATS];   /* a draw proposed, by seat */
	int i, want_step, rc = -1, span, stepped = 0;

	memset(f, 0, sizeof(*f));
	memset(offers, 0, sizeof(offers));
	if (ended != NULL)
		*ended = 0;
	if (n < 1)
		return fail(f, 0, 0, "genesis", "there is no genesis record");
	if (ledger_genesis_decode(recs[0].rec, recs[0].n, gen) != 0)
		return fail(f, 0, 0, "genesis", "record 0 is not a whole genesis "
		    "record");
	ledger_head(recs[0].rec, recs[0].n, head);
	if (sodium_memcmp(head, recs[0].head, LEDGER_HASH) != 0)
		return fail(f, 0, 0, "head", "the genesis head is not the hash of "
		    "its record");
	if (ledger_sign_check(gen->pk, head, recs[0].sig) != 0)
		return fail(f, 0, 0, "signature", "the genesis is not signed by the "
		    "key it names");
	if (gen->steps < 1 || gen->from_step < 1 || gen->from_step > gen->steps)
		return fail(f, 0, 0, "steps", "the genesis names a chain of %d "
		    "steps from step %d", gen->steps, gen->from_step);
	/* The engine playing the game: the genesis's, then each upgrade's. */
	span = ledger_engine_parse(gen->engine);
	if (span == 0)
		return fail(f, 0, 0, "engine", "the genesis names engine \"%s\", "
		    "which is no engine despatch has had", gen->engine);
	s = malloc(sizeof(*s));
	if (s == NULL)
		return fail(f, 0, 0, "memory", "out of memory");
	memcpy(prev, head, LEDGER_HASH);
	memcpy(prev_step, head, LEDGER_HASH);
	want_step = gen->from_step;
	for (i = 1; i < n; i++) {
		unsigned char (*leaves)[LEDGER_HASH], root[LEDGER_HASH];
		unsigned char dice[LEDGER_HASH], down[LEDGER_HASH];
		char kind[16], name[32];
		int k;

		if (ended != NULL && *ended) {
			fail(f, i, 0, "concede", "record %d follows the %s that "
			    "ended the battle", i, *ended == 2 ? "agreed draw" :
			    "concession");
			goto out;
		}
		if (ledger_record_kind(recs[i].rec, recs[i].n, kind,
		    sizeof(kind)) == 0 && strcmp(kind, "act") == 0) {
			/* An operator's act: signed and linked like any record,
			 * at the step then open. */
			struct ledger_act a;
			static const char *const acts[] = { "pause", "resume",
				"extend", "replace", "reset", "concede", "restore",
				"upgrade", "draw-offer", "draw-withdraw", "draw" };
			size_t j;

			if (ledger_act_decode(recs[i].rec, recs[i].n, &a) != 0) {
				fail(f, i, 0, "record", "record %d is not a whole act "
				    "record", i);
				goto out;
			}
			for (j = 0; j < sizeof(acts) / sizeof(acts[0]); j++)
				if (strcmp(a.act, acts[j]) == 0)
					break;
			if (j == sizeof(acts) / sizeof(acts[0]) || a.step != want_step ||
			    a.seat > gen->nseats) {
				fail(f, i, a.step, "act", "record %d is an act (%s) that "
				    "is not one despatch writes at step %d", i, a.act,
				    want_step);
				goto out;
			}
			snprintf(name, sizeof(name), "act %d", i);
			if (linked(&recs[i], i, a.step, name, gen->pk, a.prev, prev,
			    head, f) != 0)
				goto out;
			if (strcmp(a.act, "upgrade") == 0) {
				/* From the engine playing, to a later one, carrying
				 * the state the last step left. */
				if (a.engine_from != span || a.engine_to <= span) {
					fail(f, i, a.step, "engine", "upgrade %d takes the "
					    "game from engine %d to %d, but it was playing "
					    "engine %d", i, a.engine_from, a.engine_to, span);
					goto out;
				}
				if (stepped && sodium_memcmp(a.state_from, last_state,
				    LEDGER_HASH) != 0) {
					fail(f, i, a.step, "checkpoint", "upgrade %d's "
					    "checkpoint is not the state step %d left", i,
					    want_step - 1);
					goto out;
				}
				span = a.engine_to;
			}
			/* A draw by agreement: each seat's proposal stands until
			 * it withdraws it, and the draw ends the battle only
			 * with every seat's standing. */
			if (strncmp(a.act, "draw-", 5) == 0) {
				int on = strcmp(a.act, "draw-offer") == 0;

				if (a.seat < 1 || offers[a.seat - 1] == on) {
					fail(f, i, a.step, "draw", "record %d %s a draw for "
					    "seat %d, which %s", i, on ? "proposes" :
					    "withdraws", a.seat, a.seat < 1 ? "is no seat" :
					    on ? "has one standing" : "has none standing");
					goto out;
				}
				offers[a.seat - 1] = (unsigned char)on;
			} else if (strcmp(a.act, "draw") == 0) {
				for (k = 0; k < gen->nseats && offers[k]; k++)
					;
				if (k < gen->nseats) {
					fail(f, i, a.step, "draw", "record %d ends the battle "
					    "drawn, but seat %d has no proposal of a draw "
					    "standing", i, k + 1);
					goto out;
				}
			}
			memcpy(prev, head, LEDGER_HASH);
			if (ended != NULL && strcmp(a.act, "concede") == 0)
				*ended = 1;
			if (ended != NULL && strcmp(a.act, "draw") == 0)
				*ended = 2;
			continue;
		}
		if (ledger_step_decode(recs[i].rec, recs[i].n, s) != 0) {
			fail(f, i, 0, "record", "record %d is not a whole step "
			    "record", i);
			goto out;
		}
		if (s->step != want_step) {
			fail(f, i, s->step, "step", "record %d is step %d where step "
			    "%d should follow", i, s->step, want_step);
			goto out;
		}
		if (s->version == 1 ? span > 4 : s->engine != span) {
			if (s->version == 1)
				fail(f, i, s->step, "engine", "step %d does not name its "
				    "engine, as only steps of engine 4 and before may not, "
				    "but the game plays engine %d", s->step, span);
			else
				fail(f, i, s->step, "engine", "step %d names engine %d, "
				    "but the game plays engine %d%s", s->step, s->engine,
				    span, s->engine > span ? " (no upgrade record carries "
				    "it over)" : "");
			goto out;
		}
		snprintf(name, sizeof(name), "step %d", s->step);
		if (linked(&recs[i], i, s->step, name, gen->pk, s->prev, prev, head,
		    f) != 0)
			goto out;
		if (s->step > gen->steps) {
			fail(f, i, s->step, "step", "step %d is past the chain's %d "
			    "steps", s->step, gen->steps);
			goto out;
		}
		/* S_step hashes to the seed before it, and so down to the
		 * committed S_0: the first step all the way, each later one a
		 * single hash to the one before it. */
		memcpy(down, s->s_step, LEDGER_HASH);
		if (s->step == gen->from_step) {
			for (k = s->step; k > 0; k--)
				ledger_chain_prev(down, down);
			if (sodium_memcmp(down, gen->s0, LEDGER_HASH) != 0) {
				fail(f, i, s->step, "S_step", "step %d's revealed seed does "
				    "not hash to the S_0 the genesis committed", s->step);
				goto out;
			}
		} else {
			ledger_chain_prev(down, down);
			if (sodium_memcmp(down, s_prev, LEDGER_HASH) != 0) {
				fail(f, i, s->step, "S_step", "step %d's revealed seed does "
				    "not hash to step %d's", s->step, s->step - 1);
				goto out;
			}
		}
		memcpy(s_prev, s->s_step, LEDGER_HASH);
		/* One leaf a seat of the genesis, in seat order, of its side. */
		if (s->nleaves != gen->nseats) {
			fail(f, i, s->step, "leaves", "step %d has %d leaves for %d "
			    "seats", s->step, s->nleaves, gen->nseats);
			goto out;
		}
		for (k = 0; k < s->nleaves; k++)
			if (s->leaves[k].seat != k + 1 ||
			    strcmp(s->leaves[k].side, gen->seats[k].side) != 0) {
				fail(f, i, s->step, "leaves", "step %d's leaf %d is not "
				    "seat %d of side %s", s->step, k + 1, k + 1,
				    gen->seats[k].side);
				goto out;
			}
		leaves = malloc((size_t)(s->nleaves > 0 ? s->nleaves : 1) *
		    sizeof(*leaves));
		if (leaves == NULL) {
			fail(f, i, s->step, "memory", "out of memory");
			goto out;
		}
		for (k = 0; k < s->nleaves; k++)
			memcpy(leaves[k], s->leaves[k].leaf, LEDGER_HASH);
		ledger_root(gen->game, s->step, (const unsigned char (*)[LEDGER_HASH])
		    leaves, s->nleaves, root);
		free(leaves);
		if (sodium_memcmp(root, s->root, LEDGER_HASH) != 0) {
			fail(f, i, s->step, "orders root", "step %d's root is not made "
			    "of its leaves", s->step);
			goto out;
		}
		if (!gen->nonces)
			for (k = 0; k < s->nleaves; k++)
				if (s->leaves[k].nonce[0] != '\0' ||
				    !sodium_is_zero(s->leaves[k].commit, LEDGER_HASH)) {
					fail(f, i, s->step, "nonce", "step %d carries a nonce "
					    "in a game without them", s->step);
					goto out;
				}
		if (s->scripted) {
			if (!gen->sandbox || !sodium_is_zero(s->dice_seed,
			    LEDGER_HASH)) {
				fail(f, i, s->step, "scripted", "step %d played scripted "
				    "dice in a game that is not a sandbox, or names a dice "
				    "seed too", s->step);
				goto out;
			}
		} else {
			if (gen->nonces) {
				/* Each revealed nonce is the one committed. */
				for (k = 0; k < s->nleaves; k++) {
					unsigned char h[LEDGER_HASH];

					if (s->leaves[k].nonce[0] == '\0')
						continue;
					crypto_hash_sha256(h, (const unsigned char *)
					    s->leaves[k].nonce, strlen(s->leaves[k].nonce));
					if (sodium_memcmp(h, s->leaves[k].commit,
					    LEDGER_HASH) != 0) {
						fail(f, i, s->step, "nonce", "seat %d's nonce at "
						    "step %d is not the one it committed",
						    s->leaves[k].seat, s->step);
						goto out;
					}
				}
				ledger_dice_seed_nonces(gen->game, s->step, s->s_step,
				    s->root, prev_step, s, dice);
			} else {
				ledger_dice_seed(gen->game, s->step, s->s_step, s->root,
				    prev_step, dice);
			}
			if (sodium_memcmp(dice, s->dice_seed, LEDGER_HASH) != 0) {
				fail(f, i, s->step, "dice seed", "step %d's dice seed is "
				    "not made of its seed, root and previous head",
				    s->step);
				goto out;
			}
		}
		memcpy(prev, head, LEDGER_HASH);
		/* The next step's dice hang on this one's dice seed, never on a
		 * head an act of the operator could reach. */
		memcpy(prev_step, s->dice_seed, LEDGER_HASH);
		memcpy(last_state, s->state, LEDGER_HASH);
		stepped = 1;
		want_step++;
	}
	rc = 0;
out:
	free(s);
	return rc;
}
