/*
 * test_chain.c - the ledger as the referee writes it: the genesis record
 * at start, a signed step record linked to the one before, dice seeded
 * from the orders' root, and the same dice when a step is played again.
 */
#define _GNU_SOURCE   /* memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sodium.h>

#include "ledger/check.h"
#include "ledger/engine.h"
#include "ledger/ledger.h"
#include "ledger/record.h"
#include "ledger/verify.h"
#include "report/report.h"
#include "fixture.h"
#include "store/sqlite.h"

/* Record seq of game 1: its bytes, head and signature. */
struct rec {
	unsigned char *p;
	size_t n;
	unsigned char head[32], sig[64];
	int step;
};

static int
rec_get(struct fx *f, int seq, const char *kind, struct rec *r)
{
	char *p = NULL, *h = NULL, *s = NULL;
	size_t n = 0, hn = 0, sn = 0;
	int64_t step = -1;
	struct err e;

	memset(r, 0, sizeof(*r));
	if (store_query_text(f->st, &e, &p, &n, "SELECT record FROM ledger WHERE "
	    "game_id = 1 AND seq = ? AND kind = ?", "It", seq, kind) != 1)
		return -1;
	assert_int_equal(store_query_text(f->st, &e, &h, &hn, "SELECT head FROM "
	    "ledger WHERE game_id = 1 AND seq = ?", "I", seq), 1);
	assert_int_equal(store_query_text(f->st, &e, &s, &sn, "SELECT sig FROM "
	    "ledger WHERE game_id = 1 AND seq = ?", "I", seq), 1);
	assert_int_equal(store_query_int(f->st, &e, &step, "SELECT coalesce(step, "
	    "0) FROM ledger WHERE game_id = 1 AND seq = ?", "I", seq), 1);
	assert_int_equal(hn, 32);
	assert_int_equal(sn, 64);
	r->p = (unsigned char *)p;
	r->n = n;
	r->step = (int)step;
	memcpy(r->head, h, 32);
	memcpy(r->sig, s, 64);
	free(h);
	free(s);
	return 0;
}

/* Sends a mail from a player and returns the server's latest answer. */
static char *
answer(struct fx *f, const char *msgid, const char *from, const char *body)
{
	struct submit_result res;
	char *raw = mail(msgid, from, body);

	submit(f, raw, &res);
	free(raw);
	return last_mail(f);
}

/* A record as ledger_check_chain takes it. */
static void
to_lrec(const struct rec *r, struct ledger_rec *out)
{
	out->rec = r->p;
	out->n = r->n;
	memcpy(out->head, r->head, 32);
	memcpy(out->sig, r->sig, 64);
}

/* The server key beside the database, as the referee made it. */
static void
server_pk(struct fx *f, unsigned char pk[32])
{
	char path[400];
	struct ledger_key k;
	struct err e;

	snprintf(path, sizeof(path), "%s.key", f->db);
	assert_int_equal(ledger_key_load(path, 0, &k, &e), 0);
	memcpy(pk, k.pk, 32);
	sodium_memzero(&k, sizeof(k));
}

/* Each record: its head is the hash of its bytes, and the server's key
 * signed that head. */
static void
assert_signed(struct fx *f, const struct rec *r)
{
	unsigned char head[32], pk[32];

	ledger_head(r->p, r->n, head);
	assert_memory_equal(head, r->head, 32);
	server_pk(f, pk);
	assert_int_equal(ledger_sign_check(pk, r->head, r->sig), 0);
}

static void
the_genesis_commits_the_seed_chain_at_start(void **state)
{
	struct fx *f = *state;
	struct store_game g;
	struct rec r;
	struct err e;
	unsigned char s0[32], pk[32];

	start(f);
	assert_int_equal(rec_get(f, 0, "genesis", &r), 0);
	assert_signed(f, &r);
	/* It ends with S_0 and the server's public key, each a field. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	/* The skirmish has 2 turns of 2 phases: a chain of 4. */
	assert_int_equal(q(f, "SELECT chain_steps FROM games WHERE id = 1"), 4);
	ledger_chain_at(g.seed_secret, 4, 0, s0);
	server_pk(f, pk);
	assert_true(r.n > 72);
	assert_memory_equal(r.p + r.n - 68, s0, 32);
	assert_memory_equal(r.p + r.n - 32, pk, 32);
	store_game_clear(&g);
	free(r.p);
}

static void
each_step_is_signed_linked_and_seeded_from_its_orders(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct store_game g;
	struct rec gen, st;
	struct err e;
	unsigned char leaves[8][32], root[32], s1[32], dice[32];
	char *raw, *rep, *seed = NULL, *salt_hex, want[33];
	size_t sl = 0;
	int i, n;

	start(f);
	raw = mail("c1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: ADVANCE 4\r\n");
	submit(f, raw, &res);
	free(raw);
	/* The reply tells the set's salt. */
	rep = last_mail(f);
	salt_hex = strstr(rep, "This set's salt is ");
	assert_non_null(salt_hex);
	memcpy(want, salt_hex + 19, 32);
	want[32] = '\0';
	free(rep);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(rec_get(f, 0, "genesis", &gen), 0);
	assert_int_equal(rec_get(f, 1, "step", &st), 0);
	assert_int_equal(st.step, 1);
	assert_signed(f, &st);
	/* It names the genesis head as the one before it. */
	assert_non_null(memmem(st.p, st.n, gen.head, 32));
	/* Its leaves, made again from what was stored: one a player, in
	 * seat order; the crown player's from the mail, with the told salt. */
	n = (int)q(f, "SELECT count(*) FROM ledger_leaves WHERE step = 1");
	assert_int_equal(n, 2);
	assert_int_equal(q(f, "SELECT mailed FROM ledger_leaves WHERE step = 1 "
	    "AND seat = 1"), 1);
	assert_int_equal(q(f, "SELECT mailed FROM ledger_leaves WHERE step = 1 "
	    "AND seat = 2"), 0);
	memset(&g, 0, sizeof(g));
	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	ledger_chain_at(g.seed_secret, 4, 1, s1);
	for (i = 0; i < n; i++) {
		char *salt = NULL, *orders = NULL, *side = NULL, hex[33];
		size_t sn = 0;
		int64_t seat = 0;

		assert_int_equal(store_query_text(f->st, &e, &salt, &sn, "SELECT salt "
		    "FROM ledger_leaves WHERE step = 1 AND idx = ?", "I", i), 1);
		assert_int_equal(store_query_text(f->st, &e, &orders, NULL, "SELECT "
		    "orders FROM ledger_leaves WHERE step = 1 AND idx = ?", "I", i), 1);
		assert_int_equal(store_query_text(f->st, &e, &side, NULL, "SELECT "
		    "s.side_id FROM ledger_leaves l JOIN sides s ON s.game_id = "
		    "l.game_id AND s.idx = l.side_idx WHERE l.step = 1 AND l.idx = ?",
		    "I", i), 1);
		assert_int_equal(store_query_int(f->st, &e, &seat, "SELECT seat FROM "
		    "ledger_leaves WHERE step = 1 AND idx = ?", "I", i), 1);
		assert_int_equal(sn, 16);
		if (seat == 1) {
			/* The salt the reply told. */
			ledger_hex((unsigned char *)salt, 16, hex);
			assert_string_equal(hex, want);
			assert_non_null(strstr(orders, "23rd Foot: ADVANCE 4"));
		}
		{
			/* Every salt is the documented one: the server had no
			 * choice of it. */
			unsigned char qs[16];

			ledger_salt(s1, side, (int)seat, orders, qs);
			assert_memory_equal(qs, salt, 16);
		}
		assert_int_equal(ledger_leaf("mill", 1, side, (int)seat,
		    (unsigned char *)salt, orders, leaves[i]), 0);
		assert_non_null(memmem(st.p, st.n, leaves[i], 32));
		free(salt);
		free(orders);
		free(side);
	}
	ledger_root("mill", 1, (const unsigned char (*)[32])leaves, n, root);
	assert_non_null(memmem(st.p, st.n, root, 32));
	/* The dice came from S_1, that root and the genesis head. */
	ledger_dice_seed("mill", 1, s1, root, gen.head, dice);
	assert_int_equal(store_query_text(f->st, &e, &seed, &sl, "SELECT seed FROM "
	    "turns WHERE game_id = 1 AND step = 1", ""), 1);
	assert_int_equal(sl, 32);
	assert_memory_equal(seed, dice, 32);
	/* S_1 is revealed, and hashes to the S_0 of the genesis. */
	{
		unsigned char s0[32];

		assert_non_null(memmem(st.p, st.n, s1, 32));
		ledger_chain_prev(s1, s0);
		assert_memory_equal(gen.p + gen.n - 68, s0, 32);
	}
	free(seed);
	store_game_clear(&g);
	free(gen.p);
	free(st.p);
}

static void
playing_a_step_again_gives_the_same_dice_and_record(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct store *st2;
	struct referee r2;
	struct rec a, b2;
	struct err e;
	char copy[400], sql[500], *raw;
	struct fx f2;

	start(f);
	raw = mail("c2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: ADVANCE 6\r\n");
	submit(f, raw, &res);
	free(raw);
	/* The operator keeps a copy, plays the step, then plays it again
	 * from the copy (with the same key): nothing can differ. */
	snprintf(copy, sizeof(copy), "%s/copy.db", f->dir);
	snprintf(sql, sizeof(sql), "VACUUM INTO '%s'", copy);
	assert_int_equal(store_exec(f->st, &e, sql, ""), 0);
	/* VACUUM INTO makes it 0644, which the store refuses. */
	assert_int_equal(chmod(copy, 0600), 0);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(store_open(copy, 0, -1, &st2, &e), 0);
	referee_init(&r2, st2);
	r2.fixed_now = 1700000000;
	snprintf(r2.key_path, sizeof(r2.key_path), "%s.key", f->db);
	assert_int_equal(referee_turn(&r2, "mill", NULL, 0, &tr, &e), 0);
	memset(&f2, 0, sizeof(f2));
	f2.st = st2;
	snprintf(f2.db, sizeof(f2.db), "%s", f->db);
	assert_int_equal(rec_get(f, 1, "step", &a), 0);
	assert_int_equal(rec_get(&f2, 1, "step", &b2), 0);
	assert_int_equal(a.n, b2.n);
	assert_memory_equal(a.p, b2.p, a.n);
	assert_memory_equal(a.sig, b2.sig, 64);
	free(a.p);
	free(b2.p);
	referee_fini(&r2);
	store_close(st2);
}

static void
a_game_begun_before_the_ledger_joins_it_at_its_next_step(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct rec gen, st;
	struct err e;

	start(f);
	assert_int_equal(store_exec(f->st, &e, "DELETE FROM ledger", ""), 0);
	assert_int_equal(store_exec(f->st, &e, "UPDATE games SET chain_steps = "
	    "NULL", ""), 0);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(rec_get(f, 0, "genesis", &gen), 0);
	assert_int_equal(rec_get(f, 1, "step", &st), 0);
	assert_signed(f, &gen);
	assert_signed(f, &st);
	assert_non_null(memmem(st.p, st.n, gen.head, 32));
	free(gen.p);
	free(st.p);
}

/* A game with nonces: orders carry COMMIT; a phase due closes (the Close
 * notice, no more orders); REVEAL is checked against the commitment; the
 * phase is played once every nonce is in, and its dice hang on the
 * nonces as revealed. */
/* In a game with nonces the settle time closes the phase: the order
 * reply says when, and until when the nonces are then revealed. */
static void
the_settle_time_closes_a_nonce_phase(void **state)
{
	struct fx *f = *state;
	struct err e;
	unsigned char h[32];
	char hex[65], body[600], *rep;

	assert_int_equal(referee_setting_set(&f->r, "mill", "nonces", "on", &e), 0);
	assert_int_equal(referee_setting_set(&f->r, "mill", "deadline", "48h",
	    &e), 0);
	start(f);
	crypto_hash_sha256(h, (const unsigned char *)"alpha", 5);
	ledger_hex(h, 32, hex);
	snprintf(body, sizeof(body), "GAME mill SIDE crown TURN 1 PASSWORD "
	    "red-coat-secret\r\n23rd Foot: ADVANCE 4\r\nCOMMIT %s\r\n", hex);
	rep = answer(f, "ns1@crown.example.org", "howe@crown.example.org", body);
	assert_non_null(strstr(rep, "The phase will be closed for the nonces at"));
	assert_non_null(strstr(rep, "the nonces are then revealed until about"));
	free(rep);
}

static void
nonces_close_the_phase_and_seed_its_dice(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct tick_result tk;
	struct turn_result tr;
	struct store_game g;
	struct ledger_genesis gen;
	struct ledger_step *ls = malloc(sizeof(*ls));
	struct ledger_rec recs[4];
	struct ledger_fail lf;
	struct rec r0, r1;
	struct err e;
	unsigned char h[32], s1[32], dice[32], plain[32];
	char hex[65], body[600], *raw, *rep;

	assert_non_null(ls);
	assert_int_equal(referee_setting_set(&f->r, "mill", "nonces", "on", &e), 0);
	/* Closed as soon as every order is in (no settle time). */
	assert_int_equal(referee_setting_set(&f->r, "mill", "settle", "0", &e), 0);
	start(f);
	assert_int_equal(referee_setting_set(&f->r, "mill", "nonces", "off", &e),
	    -1);
	crypto_hash_sha256(h, (const unsigned char *)"alpha", 5);
	ledger_hex(h, 32, hex);
	snprintf(body, sizeof(body), "GAME mill SIDE crown TURN 1 PASSWORD "
	    "red-coat-secret\r\n23rd Foot: ADVANCE 4\r\nCOMMIT %s\r\n", hex);
	rep = answer(f, "n1@crown.example.org", "howe@crown.example.org", body);
	assert_non_null(strstr(rep, "Your COMMIT is kept with them"));
	free(rep);
	/* Continental gives no orders in crown's phase, but commits a nonce
	 * of its own for it. */
	{
		unsigned char d[32];
		char dh[65];

		crypto_hash_sha256(d, (const unsigned char *)"delta", 5);
		ledger_hex(d, 32, dh);
		snprintf(body, sizeof(body), "GAME mill SIDE continental PASSWORD "
		    "blue-coat-secret\r\nCOMMIT %s\r\n", dh);
		rep = answer(f, "n0@cont.example.org", "greene@cont.example.org", body);
		assert_non_null(strstr(rep, "Your COMMIT for the open phase"));
		free(rep);
	}
	/* The time for nonces cannot be cut once the game has begun. */
	assert_int_equal(referee_setting_set(&f->r, "mill", "reveal-time", "1m",
	    &e), -1);
	/* Every order is in: the tick closes the phase, and plays nothing. */
	assert_int_equal(referee_tick(&f->r, &tk, &e), 0);
	assert_int_equal(tk.played, 0);
	assert_int_equal(q(f, "SELECT closed_step FROM games WHERE id = 1"), 1);
	rep = last_mail(f);
	assert_non_null(strstr(rep, "orders closed"));
	assert_non_null(strstr(rep, "REVEAL"));
	free(rep);
	/* Orders now are refused; a wrong nonce is told so. */
	rep = answer(f, "n2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: HOLD\r\n");
	assert_non_null(strstr(rep, "is closed"));
	free(rep);
	rep = answer(f, "n3@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nREVEAL beta\r\n");
	assert_non_null(strstr(rep, "not the nonce your orders committed to"));
	free(rep);
	rep = answer(f, "n4@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nREVEAL alpha\r\n");
	assert_non_null(strstr(rep, "revealed and matches"));
	free(rep);
	/* Nor can the NMR policy move under the closed phase. */
	assert_int_equal(referee_setting_set(&f->r, NULL, "nmr", "hold", &e), -1);
	assert_int_equal(referee_setting_set(&f->r, "mill", "nmr", "hold", &e), -1);
	/* One nonce still to come: not yet played. */
	assert_int_equal(referee_tick(&f->r, &tk, &e), 0);
	assert_int_equal(tk.played, 0);
	raw = mail("n5@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental PASSWORD blue-coat-secret\r\n"
	    "REVEAL delta\r\n");
	submit(f, raw, &res);
	free(raw);
	/* Every nonce in: played, with the orders sent before the close. */
	assert_int_equal(referee_tick(&f->r, &tk, &e), 0);
	assert_int_equal(tk.played, 1);
	assert_int_equal(q(f, "SELECT step FROM games WHERE id = 1"), 2);
	assert_int_equal(rec_get(f, 0, "genesis", &r0), 0);
	assert_int_equal(rec_get(f, 1, "step", &r1), 0);
	assert_int_equal(ledger_step_decode(r1.p, r1.n, ls), 0);
	assert_string_equal(ls->leaves[0].nonce, "alpha");
	assert_memory_equal(ls->leaves[0].commit, h, 32);
	assert_string_equal(ls->leaves[1].nonce, "delta");
	/* The dice seed is the one with the nonces, not the plain one. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	ledger_chain_at(g.seed_secret, 4, 1, s1);
	ledger_dice_seed_nonces("mill", 1, s1, ls->root, r0.head, ls, dice);
	ledger_dice_seed("mill", 1, s1, ls->root, r0.head, plain);
	assert_memory_equal(ls->dice_seed, dice, 32);
	assert_memory_not_equal(dice, plain, 32);
	/* The chain holds, and a nonce changed in the record (even signed
	 * again) no longer matches its commitment. */
	to_lrec(&r0, &recs[0]);
	to_lrec(&r1, &recs[1]);
	assert_int_equal(ledger_check_chain(recs, 2, &gen, NULL, &lf), 0);
	assert_int_equal(gen.nonces, 1);
	{
		struct lbuf out = { 0 };
		char path[400];
		struct ledger_key key;

		snprintf(ls->leaves[0].nonce, sizeof(ls->leaves[0].nonce), "alphA");
		assert_int_equal(ledger_step_encode(ls, &out), 0);
		snprintf(path, sizeof(path), "%s.key", f->db);
		assert_int_equal(ledger_key_load(path, 0, &key, &e), 0);
		recs[1].rec = out.p;
		recs[1].n = out.n;
		ledger_head(out.p, out.n, recs[1].head);
		ledger_sign(&key, recs[1].head, recs[1].sig);
		assert_int_equal(ledger_check_chain(recs, 2, &gen, NULL, &lf), -1);
		assert_string_equal(lf.field, "nonce");
		ledger_buf_free(&out);
		sodium_memzero(&key, sizeof(key));
	}
	/* Its archive verifies, the replay using the revealed nonce. */
	{
		char *buf = NULL;
		size_t n = 0;
		FILE *io = open_memstream(&buf, &n);
		struct verify_opts vo;
		struct verify_result *vr = calloc(1, sizeof(*vr));

		assert_non_null(io);
		assert_non_null(vr);
		assert_int_equal(referee_export(&f->r, "mill", io, 0, &e), 0);
		fclose(io);
		io = fmemopen(buf, n, "r");
		memset(&vo, 0, sizeof(vo));
		if (ledger_verify(io, &vo, vr) != 0)
			fail_msg("line %d %s: %s", vr->line, vr->field, vr->msg);
		assert_int_equal(vr->steps, 1);
		fclose(io);
		free(buf);
		free(vr);
	}
	(void)tr;
	store_game_clear(&g);
	free(r0.p);
	free(r1.p);
	free(ls);
}

/* By hand in a game with nonces: 'turn' closes the phase, refuses to play
 * it while nonces are awaited, standing orders are not taken meanwhile,
 * and once the time for nonces runs out it is played with the missing
 * one absent. */
static void
nonces_by_hand_close_wait_and_time_out(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct rec r1;
	struct ledger_step *ls = malloc(sizeof(*ls));
	struct err e;
	unsigned char h[32];
	char hex[65], body[600], *raw, *rep;
	int i, rc = -1;

	assert_non_null(ls);
	assert_int_equal(referee_setting_set(&f->r, "mill", "nonces", "on", &e), 0);
	assert_int_equal(referee_setting_set(&f->r, "mill", "reveal-time", "5m",
	    &e), 0);
	start(f);
	crypto_hash_sha256(h, (const unsigned char *)"gamma", 5);
	ledger_hex(h, 32, hex);
	snprintf(body, sizeof(body), "GAME mill SIDE crown TURN 1 PASSWORD "
	    "red-coat-secret\r\n23rd Foot: ADVANCE 4\r\nCOMMIT %s\r\n", hex);
	raw = mail("h1@crown.example.org", "howe@crown.example.org", body);
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_true(tr.closed);
	assert_int_equal(q(f, "SELECT step FROM games WHERE id = 1"), 1);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), -1);
	assert_non_null(strstr(e.msg, "1 nonce is awaited"));
	rep = answer(f, "h2@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental PASSWORD blue-coat-secret\r\n"
	    "STANDING: 2nd Virginia: ADVANCE 2\r\n");
	assert_non_null(strstr(rep, "STANDING lines were not taken"));
	free(rep);
	assert_int_equal(q(f, "SELECT count(*) FROM standing_orders"), 0);
	/* The test clock moves a minute a look: the time runs out. */
	for (i = 0; i < 10 && rc != 0; i++)
		rc = referee_turn(&f->r, "mill", NULL, 0, &tr, &e);
	assert_int_equal(rc, 0);
	assert_false(tr.closed);
	assert_int_equal(q(f, "SELECT step FROM games WHERE id = 1"), 2);
	assert_int_equal(rec_get(f, 1, "step", &r1), 0);
	assert_int_equal(ledger_step_decode(r1.p, r1.n, ls), 0);
	assert_memory_equal(ls->leaves[0].commit, h, 32);
	assert_string_equal(ls->leaves[0].nonce, "");   /* absent */
	free(r1.p);
	free(ls);
}

/* The same step from the same state with one order different: other
 * dice.  Nothing of the dice exists before the orders are frozen. */
static void
the_dice_follow_the_orders_root(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct turn_result tr;
	struct store *st2;
	struct referee r2;
	struct err e;
	char copy[400], sql[500], *raw, *s1 = NULL, *s2 = NULL;
	size_t n1 = 0, n2 = 0;

	start(f);
	snprintf(copy, sizeof(copy), "%s/copy.db", f->dir);
	snprintf(sql, sizeof(sql), "VACUUM INTO '%s'", copy);
	assert_int_equal(store_exec(f->st, &e, sql, ""), 0);
	/* VACUUM INTO makes it 0644, which the store refuses. */
	assert_int_equal(chmod(copy, 0600), 0);
	raw = mail("r1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: ADVANCE 4\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(store_open(copy, 0, -1, &st2, &e), 0);
	referee_init(&r2, st2);
	r2.fixed_now = 1700000000;
	snprintf(r2.key_path, sizeof(r2.key_path), "%s.key", f->db);
	raw = mail("r2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: ADVANCE 5\r\n");
	assert_int_equal(referee_submit(&r2, raw, strlen(raw), NULL, &res, &e), 0);
	free(raw);
	assert_int_equal(referee_turn(&r2, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(store_query_text(f->st, &e, &s1, &n1, "SELECT seed FROM "
	    "turns WHERE step = 1", ""), 1);
	assert_int_equal(store_query_text(st2, &e, &s2, &n2, "SELECT seed FROM "
	    "turns WHERE step = 1", ""), 1);
	assert_int_equal(n1, 32);
	assert_int_equal(n2, 32);
	assert_memory_not_equal(s1, s2, 32);
	free(s1);
	free(s2);
	referee_fini(&r2);
	store_close(st2);
}

/* An operator's act before a step (a pause and a resumption, with any
 * reason) leaves its dice as they were: acts cannot be used to re-roll. */
static void
an_act_before_a_step_does_not_change_its_dice(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct store *st2;
	struct referee r2;
	struct err e;
	char copy[400], sql[500], *s1 = NULL, *s2 = NULL;
	size_t n1 = 0, n2 = 0;

	start(f);
	snprintf(copy, sizeof(copy), "%s/copy.db", f->dir);
	snprintf(sql, sizeof(sql), "VACUUM INTO '%s'", copy);
	assert_int_equal(store_exec(f->st, &e, sql, ""), 0);
	/* VACUUM INTO makes it 0644, which the store refuses. */
	assert_int_equal(chmod(copy, 0600), 0);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(store_open(copy, 0, -1, &st2, &e), 0);
	referee_init(&r2, st2);
	r2.fixed_now = 1700000000;
	snprintf(r2.key_path, sizeof(r2.key_path), "%s.key", f->db);
	assert_int_equal(referee_pause(&r2, "mill", 1, "any reason at all", &e), 0);
	assert_int_equal(referee_pause(&r2, "mill", 0, NULL, &e), 0);
	assert_int_equal(referee_turn(&r2, "mill", NULL, 0, &tr, &e), 0);
	/* Nor the dice of any step after it. */
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(referee_turn(&r2, "mill", NULL, 0, &tr, &e), 0);
	assert_int_equal(store_query_text(f->st, &e, &s1, &n1, "SELECT group_concat("
	    "hex(seed), ',') FROM turns WHERE step IN (1, 2)", ""), 1);
	assert_int_equal(store_query_text(st2, &e, &s2, &n2, "SELECT group_concat("
	    "hex(seed), ',') FROM turns WHERE step IN (1, 2)", ""), 1);
	assert_int_equal(n1, 129);
	assert_string_equal(s1, s2);
	free(s1);
	free(s2);
	referee_fini(&r2);
	store_close(st2);
}

/* A fog game's report lists its own side's rolls, not the enemy's; an
 * open game's lists all. */
static void
a_fog_report_shows_only_its_sides_rolls(void **state)
{
	struct fx *f = *state;
	struct store_game g;
	struct battle *b = NULL;
	struct events ev;
	struct err e;
	char *fog, *open;

	memset(&g, 0, sizeof(g));
	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	assert_int_equal(store_battle_load(f->st, &g, &b, &e), 0);
	events_init(&ev);
	events_add(&ev, EV_ROLL, 0, 0, -1, 4, "23rd Foot fires: d6 4");
	ev.v[0].sides = 6;
	events_add(&ev, EV_ROLL, 1, 1, -1, 2, "2nd Virginia fires: d6 2");
	ev.v[1].sides = 6;
	/* The dice are the appendix's, not the report's. */
	fog = report_step(b, "mill", 1, 0, &ev, 2, 0, NULL, NULL, NULL);
	assert_non_null(fog);
	assert_null(strstr(fog, "fires: d6"));
	free(fog);
	{
		struct text t1, t2;

		text_init(&t1, 1 << 16);
		text_init(&t2, 1 << 16);
		report_appendix(&t1, b, 0, &ev, 0, NULL);
		report_appendix(&t2, b, 0, &ev, 1, NULL);
		fog = t1.s;
		open = t2.s;
	}
	assert_non_null(fog);
	assert_non_null(open);
	assert_non_null(strstr(fog, "23rd Foot fires: d6 4"));
	assert_null(strstr(fog, "2nd Virginia fires"));
	assert_non_null(strstr(fog, "1 roll for the enemy, not shown"));
	assert_non_null(strstr(open, "2nd Virginia fires: d6 2"));
	free(fog);
	free(open);
	events_free(&ev);
	battle_free(b);
	store_game_clear(&g);
}

/* The chain of a game played out, as ledger_check_chain takes it. */
static int
load_chain(struct fx *f, struct ledger_rec *recs, int max)
{
	int n = 0;
	struct rec r;

	while (n < max && rec_get(f, n, n == 0 ? "genesis" : "step", &r) == 0)
		to_lrec(&r, &recs[n++]);
	return n;
}

static void
any_change_to_the_chain_is_caught_at_its_record(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct ledger_rec recs[8], t[8];
	struct ledger_genesis gen;
	struct ledger_fail lf;
	struct err e;
	unsigned char *copy;
	int n, i, k;
	size_t at;

	start(f);
	for (i = 0; i < 4; i++)
		assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	n = load_chain(f, recs, 8);
	assert_int_equal(n, 5);
	assert_int_equal(ledger_check_chain(recs, n, &gen, NULL, &lf), 0);
	assert_int_equal(gen.steps, 4);
	/* Every byte of every record: changed, it is caught at that record
	 * (its head no longer its hash, or the record no longer whole). */
	for (k = 0; k < n; k++) {
		copy = malloc(recs[k].n);
		assert_non_null(copy);
		for (at = 0; at < recs[k].n; at++) {
			memcpy(t, recs, sizeof(t));
			memcpy(copy, recs[k].rec, recs[k].n);
			copy[at] ^= 0x01;
			t[k].rec = copy;
			assert_int_equal(ledger_check_chain(t, n, &gen, NULL, &lf), -1);
			assert_int_equal(lf.index, k);
		}
		free(copy);
	}
	/* Re-hashed after the change but not re-signed: the signature. */
	copy = malloc(recs[2].n);
	assert_non_null(copy);
	memcpy(copy, recs[2].rec, recs[2].n);
	copy[recs[2].n - 1] ^= 0x01;
	memcpy(t, recs, sizeof(t));
	t[2].rec = copy;
	ledger_head(copy, recs[2].n, t[2].head);
	assert_int_equal(ledger_check_chain(t, n, &gen, NULL, &lf), -1);
	assert_int_equal(lf.index, 2);
	assert_string_equal(lf.field, "signature");
	free(copy);
	/* A record dropped, two swapped, the chain cut after a step. */
	memcpy(t, recs, sizeof(t));
	memmove(&t[2], &t[3], 2 * sizeof(t[0]));
	assert_int_equal(ledger_check_chain(t, n - 1, &gen, NULL, &lf), -1);
	assert_int_equal(lf.index, 2);
	assert_string_equal(lf.field, "step");
	memcpy(t, recs, sizeof(t));
	t[1] = recs[2];
	t[2] = recs[1];
	assert_int_equal(ledger_check_chain(t, n, &gen, NULL, &lf), -1);
	assert_int_equal(lf.index, 1);
	/* A shorter chain still holds as far as it goes: a player's kept
	 * head is what shows a cut (verify --head). */
	assert_int_equal(ledger_check_chain(recs, 3, &gen, NULL, &lf), 0);
	for (k = 0; k < n; k++)
		free((void *)recs[k].rec);
}

/* recs[k] made of record bytes out, hashed and signed again with the
 * server's key, as an operator holding it could. */
static void
resign(struct fx *f, struct ledger_rec *rk, const struct lbuf *out)
{
	char path[400];
	struct ledger_key key;
	struct err e;

	snprintf(path, sizeof(path), "%s.key", f->db);
	assert_int_equal(ledger_key_load(path, 0, &key, &e), 0);
	rk->rec = out->p;
	rk->n = out->n;
	ledger_head(out->p, out->n, rk->head);
	ledger_sign(&key, rk->head, rk->sig);
	sodium_memzero(&key, sizeof(key));
}

static void
each_step_names_its_engine_and_only_an_upgrade_changes_it(void **state)
{
	struct fx *f = *state;
	struct turn_result tr;
	struct ledger_rec recs[8], t[8];
	struct ledger_genesis gen;
	struct ledger_fail lf;
	struct ledger_step *ls = malloc(sizeof(*ls));
	struct ledger_act a;
	struct lbuf o1 = { 0 }, o2 = { 0 }, o3 = { 0 };
	struct err e;
	int n, k;

	assert_non_null(ls);
	/* Played as engine 4, to be carried over to 5. */
	assert_int_equal(ledger_engine_test("4"), 0);
	start(f);
	for (k = 0; k < 2; k++)
		assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	n = load_chain(f, recs, 8);
	assert_int_equal(n, 3);
	assert_int_equal(ledger_check_chain(recs, n, &gen, NULL, &lf), 0);
	/* The genesis names engine 4 as 0.4.0 always did (so the dice of
	 * a game begun under it are as they were); each step names it. */
	assert_string_equal(gen.engine, "0.4.0");
	assert_int_equal(ledger_step_decode(recs[2].rec, recs[2].n, ls), 0);
	assert_int_equal(ls->version, LEDGER_STEP_VERSION);
	assert_int_equal(ls->engine, 4);
	/* A step signed as another engine's, with no upgrade before it. */
	ls->engine = 3;
	assert_int_equal(ledger_step_encode(ls, &o1), 0);
	memcpy(t, recs, sizeof(t));
	resign(f, &t[2], &o1);
	assert_int_equal(ledger_check_chain(t, n, &gen, NULL, &lf), -1);
	assert_int_equal(lf.index, 2);
	assert_string_equal(lf.field, "engine");
	ls->engine = 5;
	assert_int_equal(ledger_step_encode(ls, &o1), 0);
	resign(f, &t[2], &o1);
	assert_int_equal(ledger_check_chain(t, n, &gen, NULL, &lf), -1);
	assert_string_equal(lf.field, "engine");
	assert_non_null(strstr(lf.msg, "no upgrade record carries it over"));
	/* A step of the layout before steps named their engine still reads,
	 * as engine 4's, the genesis's. */
	ls->version = 1;
	ls->engine = 0;
	assert_int_equal(ledger_step_encode(ls, &o1), 0);
	resign(f, &t[2], &o1);
	assert_int_equal(ledger_check_chain(t, n, &gen, NULL, &lf), 0);
	assert_int_equal(ledger_step_decode(o1.p, o1.n, ls), 0);
	assert_int_equal(ls->version, 1);
	assert_int_equal(ls->engine, 0);
	/* A layout this build never wrote does not. */
	o1.p[4 + 4 + 4 + 7] = 3;   /* "step", then the version's last byte */
	assert_int_equal(ledger_step_decode(o1.p, o1.n, ls), -1);

	/* An upgrade after step 2, to engine 5: the chain holds with it,
	 * and a step after it must name engine 5. */
	memset(&a, 0, sizeof(a));
	snprintf(a.act, sizeof(a.act), "upgrade");
	a.step = 3;
	memcpy(a.prev, recs[2].head, 32);
	a.engine_from = 4;
	a.engine_to = 5;
	assert_int_equal(ledger_step_decode(recs[2].rec, recs[2].n, ls), 0);
	memcpy(a.state_from, ls->state, 32);
	memcpy(a.state_to, ls->state, 32);
	assert_int_equal(ledger_act_encode(&a, &o2), 0);
	memcpy(t, recs, sizeof(t));
	resign(f, &t[3], &o2);
	assert_int_equal(ledger_check_chain(t, 4, &gen, NULL, &lf), 0);
	assert_int_equal(ledger_act_decode(o2.p, o2.n, &a), 0);
	assert_int_equal(a.engine_from, 4);
	assert_int_equal(a.engine_to, 5);
	/* Step 3 as this build plays it (engine 4), after the upgrade. */
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	{
		struct rec r3;

		assert_int_equal(rec_get(f, 3, "step", &r3), 0);
		assert_int_equal(ledger_step_decode(r3.p, r3.n, ls), 0);
		free(r3.p);
	}
	memcpy(ls->prev, t[3].head, 32);
	assert_int_equal(ledger_step_encode(ls, &o3), 0);
	resign(f, &t[4], &o3);
	assert_int_equal(ledger_check_chain(t, 5, &gen, NULL, &lf), -1);
	assert_int_equal(lf.index, 4);
	assert_string_equal(lf.field, "engine");
	ls->engine = 5;
	assert_int_equal(ledger_step_encode(ls, &o3), 0);
	resign(f, &t[4], &o3);
	assert_int_equal(ledger_check_chain(t, 5, &gen, NULL, &lf), 0);
	/* The upgrade's checkpoint must be the state step 2 left, and it
	 * must start from the engine playing. */
	a.state_from[0] ^= 1;
	assert_int_equal(ledger_act_encode(&a, &o2), 0);
	resign(f, &t[3], &o2);
	assert_int_equal(ledger_check_chain(t, 4, &gen, NULL, &lf), -1);
	assert_int_equal(lf.index, 3);
	assert_string_equal(lf.field, "checkpoint");
	a.state_from[0] ^= 1;
	a.engine_from = 3;
	assert_int_equal(ledger_act_encode(&a, &o2), 0);
	resign(f, &t[3], &o2);
	assert_int_equal(ledger_check_chain(t, 4, &gen, NULL, &lf), -1);
	assert_string_equal(lf.field, "engine");
	a.engine_from = 4;
	a.engine_to = 4;
	assert_int_equal(ledger_act_encode(&a, &o2), 0);
	resign(f, &t[3], &o2);
	assert_int_equal(ledger_check_chain(t, 4, &gen, NULL, &lf), -1);
	assert_string_equal(lf.field, "engine");
	/* Only an upgrade has the upgrade's layout. */
	snprintf(a.act, sizeof(a.act), "pause");
	assert_int_equal(ledger_act_encode(&a, &o2), 0);
	assert_int_equal(ledger_act_decode(o2.p, o2.n, &a), 0);
	o2.p[4 + 3 + 4 + 7] = 2;
	assert_int_equal(ledger_act_decode(o2.p, o2.n, &a), -1);
	ledger_buf_free(&o1);
	ledger_buf_free(&o2);
	ledger_buf_free(&o3);
	for (k = 0; k < n; k++)
		free((void *)recs[k].rec);
	free(ls);
	ledger_engine_test(NULL);
}

/* A draw act is accepted only after a standing proposal of every seat:
 * one signed again to follow a single proposal is caught, at the draw. */
static void
a_draw_needs_every_seats_standing_proposal(void **state)
{
	struct fx *f = *state;
	struct ledger_rec recs[4], t[4];
	struct ledger_genesis gen;
	struct ledger_fail lf;
	struct ledger_act a;
	struct lbuf o = { 0 };
	struct rec r;
	char *rep;
	int k, ended = 0;

	start(f);
	rep = answer(f, "dr1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nDRAW\r\n");
	free(rep);
	rep = answer(f, "dr2@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental PASSWORD blue-coat-secret\r\nDRAW\r\n");
	free(rep);
	for (k = 0; k < 4; k++) {
		assert_int_equal(rec_get(f, k, k == 0 ? "genesis" : "act", &r), 0);
		to_lrec(&r, &recs[k]);
	}
	assert_int_equal(ledger_check_chain(recs, 4, &gen, &ended, &lf), 0);
	assert_int_equal(ended, 2);
	assert_int_equal(ledger_act_decode(recs[1].rec, recs[1].n, &a), 0);
	assert_string_equal(a.act, "draw-offer");
	assert_int_equal(a.seat, 1);
	assert_int_equal(ledger_act_decode(recs[3].rec, recs[3].n, &a), 0);
	assert_string_equal(a.act, "draw");
	/* The draw linked straight after the crown's proposal alone. */
	memcpy(a.prev, recs[1].head, 32);
	assert_int_equal(ledger_act_encode(&a, &o), 0);
	memcpy(t, recs, sizeof(t));
	resign(f, &t[2], &o);
	assert_int_equal(ledger_check_chain(t, 3, &gen, &ended, &lf), -1);
	assert_int_equal(lf.index, 2);
	assert_string_equal(lf.field, "draw");
	assert_non_null(strstr(lf.msg, "seat 2 has no proposal"));
	ledger_buf_free(&o);
	for (k = 0; k < 4; k++)
		free((void *)recs[k].rec);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(the_genesis_commits_the_seed_chain_at_start,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(each_step_is_signed_linked_and_seeded_from_its_orders,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(playing_a_step_again_gives_the_same_dice_and_record,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_game_begun_before_the_ledger_joins_it_at_its_next_step,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(any_change_to_the_chain_is_caught_at_its_record,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(the_settle_time_closes_a_nonce_phase,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(nonces_close_the_phase_and_seed_its_dice,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_fog_report_shows_only_its_sides_rolls,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(nonces_by_hand_close_wait_and_time_out,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(the_dice_follow_the_orders_root,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(an_act_before_a_step_does_not_change_its_dice,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(each_step_names_its_engine_and_only_an_upgrade_changes_it,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_draw_needs_every_seats_standing_proposal,
		    setup_live, teardown),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
