/*
 * test_archive.c - a game's archive (despatch-archive(5)) checked by
 * verify: whole, it verifies; any byte changed, a line dropped or moved,
 * the file cut short, it fails at the line that was touched; and events
 * altered and then re-signed with the server's own key still fail,
 * because the replay gives the events the dice and orders make.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <sodium.h>

#include "ledger/ledger.h"
#include "ledger/record.h"
#include "core/ruleset.h"
#include "ledger/verify.h"
#include "rules/vnb_wing.h"
#include "report/report.h"
#include "fixture.h"

/* The game's archive as despatch export writes it (with the players'
 * addresses if with_addresses); its length in *len. */
static char *
exported(struct fx *f, int with_addresses, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	struct err e;
	FILE *out = open_memstream(&buf, &n);

	assert_non_null(out);
	assert_int_equal(referee_export(&f->r, "mill", out, with_addresses, &e),
	    0);
	fclose(out);
	*len = n;
	return buf;
}

/* The skirmish played out, with orders from both sides, exported. */
static char *
played_archive(struct fx *f, size_t *len)
{
	struct submit_result res;
	struct turn_result tr;
	struct err e;
	char *raw, *buf = NULL;
	size_t n = 0;
	int i;

	start(f);
	raw = mail("a1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: ADVANCE 8\r\n");
	submit(f, raw, &res);
	free(raw);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	raw = mail("a2@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental TURN 1 PASSWORD blue-coat-secret\r\n"
	    "2nd Virginia: ADVANCE 6\r\n");
	submit(f, raw, &res);
	free(raw);
	for (i = 0; i < 3; i++)
		assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_true(tr.finished);
	buf = exported(f, 0, &n);
	*len = n;
	return buf;
}

static int
verify_buf(const char *buf, size_t n, struct verify_result *res)
{
	struct verify_opts o;
	FILE *in = fmemopen((void *)buf, n, "r");
	int rc;

	assert_non_null(in);
	memset(&o, 0, sizeof(o));
	rc = ledger_verify(in, &o, res);
	fclose(in);
	return rc;
}

/* The 1-based line of byte at. */
static int
line_of(const char *buf, size_t at)
{
	int line = 1;
	size_t i;

	for (i = 0; i < at; i++)
		line += buf[i] == '\n';
	return line;
}

/* Where line k (1-based) starts. */
static size_t
line_start(const char *buf, size_t n, int k)
{
	size_t i = 0;

	while (--k > 0 && i < n) {
		const char *nl = memchr(buf + i, '\n', n - i);

		i = (size_t)(nl - buf) + 1;
	}
	return i;
}

static void
a_whole_archive_verifies(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	size_t n;
	char *a = played_archive(f, &n);

	assert_int_equal(verify_buf(a, n, &res), 0);
	assert_int_equal(res.steps, 4);
	assert_int_equal(res.chain, 4);
	assert_true(res.finished);
	assert_string_equal(res.game, "mill");
	/* No address is in it without --with-addresses. */
	assert_null(strstr(a, "howe@crown.example.org"));
	free(a);
}

static void
any_byte_changed_fails_at_its_line(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	size_t n, at, step;
	char *a = played_archive(f, &n), *t = malloc(n);
	int tried = 0;

	assert_non_null(t);
	/* Every byte would take long under the sanitizers: a stride prime
	 * to the lengths of the hex fields reaches every kind of byte. */
	step = n > 6000 ? 7 : 1;
	for (at = 0; at < n; at += step) {
		memcpy(t, a, n);
		t[at] ^= 0x01;
		if (verify_buf(t, n, &res) != -1)
			fail_msg("byte %zu changed ('%c' to '%c') still verifies", at,
			    a[at], t[at]);
		/* A newline changed joins two lines: the first is named. */
		assert_int_equal(res.line, line_of(a, at));
		tried++;
	}
	assert_true(tried > 500);
	free(t);
	free(a);
}

static void
lines_dropped_moved_or_cut_fail(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	size_t n, s3, s4, s5, k;
	char *a = played_archive(f, &n), *t = malloc(n);
	int lines = line_of(a, n - 1);

	assert_non_null(t);
	assert_int_equal(lines, 6);   /* header, genesis, 4 steps */
	s3 = line_start(a, n, 3);
	s4 = line_start(a, n, 4);
	s5 = line_start(a, n, 5);
	/* Line 3 (step 1) dropped: line 3 is now step 2's. */
	memcpy(t, a, s3);
	memcpy(t + s3, a + s4, n - s4);
	assert_int_equal(verify_buf(t, n - (s4 - s3), &res), -1);
	assert_int_equal(res.line, 3);
	/* Steps 1 and 2 swapped. */
	memcpy(t, a, s3);
	memcpy(t + s3, a + s4, s5 - s4);
	memcpy(t + s3 + (s5 - s4), a + s3, s4 - s3);
	memcpy(t + s5, a + s5, n - s5);
	assert_int_equal(verify_buf(t, n, &res), -1);
	assert_int_equal(res.line, 3);
	/* Cut at every line's end, or within a line: never whole. */
	for (k = 1; k < n; k++) {
		if (a[k - 1] != '\n' && k % 97 != 0)
			continue;
		assert_int_equal(verify_buf(a, k, &res), -1);
	}
	free(t);
	free(a);
}

/* Rewrites line `line` of the archive with a new record, head and
 * signature; returns the new archive. */
static char *
replace_record(const char *a, size_t n, int line, const struct lbuf *rec,
    const unsigned char head[32], const unsigned char sig[64], size_t *out_n)
{
	size_t s = line_start(a, n, line), e = line_start(a, n, line + 1);
	json_error_t je;
	json_t *j = json_loadb(a + s, e - s, 0, &je);
	char *hex = malloc(2 * rec->n + 1), *dumped, *out;
	size_t dl;

	assert_non_null(j);
	assert_non_null(hex);
	ledger_hex(rec->p, (int)rec->n, hex);
	json_object_set_new(j, "record", json_string(hex));
	ledger_hex(head, 32, hex);
	json_object_set_new(j, "head", json_string(hex));
	free(hex);
	hex = malloc(129);
	ledger_hex(sig, 64, hex);
	json_object_set_new(j, "sig", json_string(hex));
	free(hex);
	dumped = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER |
	    JSON_ENSURE_ASCII);
	json_decref(j);
	dl = strlen(dumped);
	out = malloc(n - (e - s) + dl + 1);
	memcpy(out, a, s);
	memcpy(out + s, dumped, dl);
	out[s + dl] = '\n';
	memcpy(out + s + dl + 1, a + e, n - e);
	*out_n = n - (e - s) + dl + 1;
	free(dumped);
	return out;
}

static void
events_altered_and_re_signed_still_fail(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct ledger_key key;
	struct ledger_step *ls = malloc(sizeof(*ls));
	char path[400], *a, *cur;
	size_t n, cn;
	unsigned char prev[32];
	int line;
	struct err e;

	assert_non_null(ls);
	a = played_archive(f, &n);
	snprintf(path, sizeof(path), "%s.key", f->db);
	assert_int_equal(ledger_key_load(path, 0, &key, &e), 0);
	cur = malloc(n);
	memcpy(cur, a, n);
	cn = n;
	/* The operator changes step 2's events hash, signs it with the real
	 * key, and makes every later record consistent again: new links, new
	 * heads, new signatures. */
	for (line = 4; line <= 6; line++) {
		size_t s = line_start(cur, cn, line), end = line_start(cur, cn,
		    line + 1);
		json_error_t je;
		json_t *j = json_loadb(cur + s, end - s, 0, &je);
		const char *hex = json_string_value(json_object_get(j, "record"));
		unsigned char *rec = malloc(strlen(hex) / 2);
		struct lbuf out = { 0 };
		unsigned char head[32], sig[64];
		char *next;

		assert_int_equal(ledger_unhex(hex, rec, (int)(strlen(hex) / 2)), 0);
		assert_int_equal(ledger_step_decode(rec, strlen(hex) / 2, ls), 0);
		json_decref(j);
		free(rec);
		if (line == 4)
			ls->events[0] ^= 0x55;
		else
			memcpy(ls->prev, prev, 32);   /* relinked; its dice stand */
		assert_int_equal(ledger_step_encode(ls, &out), 0);
		ledger_head(out.p, out.n, head);
		ledger_sign(&key, head, sig);
		memcpy(prev, head, 32);
		next = replace_record(cur, cn, line, &out, head, sig, &cn);
		free(cur);
		cur = next;
		ledger_buf_free(&out);
	}
	/* Every hash, link and signature holds; the replay does not. */
	assert_int_equal(verify_buf(cur, cn, &res), -1);
	assert_int_equal(res.line, 4);
	assert_int_equal(res.step, 2);
	assert_string_equal(res.field, "events");
	sodium_memzero(&key, sizeof(key));
	free(cur);
	free(a);
	free(ls);
}

static void
operators_acts_are_signed_in_the_chain_and_verify(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct turn_result tr;
	struct err e;
	char secret[REFEREE_SECRET_MAX], *buf = NULL;
	size_t n = 0;
	int i;

	start(f);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	if (referee_pause(&f->r, "mill", 1, "the fords are up", &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(referee_pause(&f->r, "mill", 0, NULL, &e), 0);
	assert_int_equal(referee_setting_set(&f->r, "mill", "deadline", "48h",
	    &e), 0);
	assert_int_equal(referee_extend(&f->r, "mill", 3600, &e), 0);
	assert_int_equal(referee_player_replace(&f->r, "mill", "crown",
	    "clinton@crown.example.org", NULL, secret, &e), 0);
	assert_int_equal(referee_player_reset(&f->r, "mill",
	    "greene@cont.example.org", NULL, secret, &e), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"), 5);
	for (i = 0; i < 3; i++)
		assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	/* With addresses: the replaced seat gives its new one, whose hash
	 * the replacement's act holds. */
	buf = exported(f, 1, &n);
	assert_non_null(strstr(buf, "clinton@crown.example.org"));
	assert_int_equal(verify_buf(buf, n, &res), 0);
	assert_int_equal(res.acts, 5);
	assert_int_equal(res.steps, 4);
	/* An act's text changed: caught at its line. */
	{
		char *at = strstr(buf, "\"kind\":\"act\"");
		size_t off;

		assert_non_null(at);
		off = (size_t)(at - buf) + 40;   /* inside its record's hex */
		buf[off] = buf[off] == '0' ? '1' : '0';
		assert_int_equal(verify_buf(buf, n, &res), -1);
		assert_int_equal(res.line, line_of(buf, off));
	}
	free(buf);
}

/* A battle ended by a concession: the concession is a record, so its
 * archive is whole with fewer steps than the chain; cut before the
 * concession, it is not. */
static void
a_conceded_battle_verifies_and_its_end_cannot_be_cut(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct submit_result sr;
	struct turn_result tr;
	struct err e;
	char *raw, *rep, *at, code[16], body[300], *buf = NULL;
	size_t n = 0, cut;

	start(f);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	raw = mail("c1@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental PASSWORD blue-coat-secret\r\nCONCEDE\r\n");
	submit(f, raw, &sr);
	free(raw);
	rep = last_mail(f);
	at = strstr(rep, "  CONCEDE ");
	assert_non_null(at);
	assert_int_equal(sscanf(at, "  CONCEDE %15s", code), 1);
	free(rep);
	snprintf(body, sizeof(body), "GAME mill SIDE continental PASSWORD "
	    "blue-coat-secret\r\nCONCEDE %s\r\n", code);
	raw = mail("c2@cont.example.org", "greene@cont.example.org", body);
	submit(f, raw, &sr);
	free(raw);
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"), 1);
	buf = exported(f, 0, &n);
	if (verify_buf(buf, n, &res) != 0)
		fail_msg("line %d %s: %s", res.line, res.field, res.msg);
	assert_true(res.finished);
	assert_true(res.conceded);
	assert_int_equal(res.steps, 1);
	/* Without its last line (the concession) it claims an end it lacks. */
	cut = n - 1;
	while (cut > 0 && buf[cut - 1] != '\n')
		cut--;
	assert_int_equal(verify_buf(buf, cut, &res), -1);
	assert_string_equal(res.field, "steps");
	free(buf);
}

/* A draw by agreement (issue 25): each proposal and withdrawal is an act
 * of its seat; the battle ends drawn only when every player's proposal
 * stands, and its archive verifies as drawn; cut before the draw, it
 * claims an end it lacks. */
static void
a_battle_drawn_by_agreement_verifies(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct submit_result sr;
	struct turn_result tr;
	struct err e;
	char *raw, *rep, *buf = NULL;
	size_t n = 0, cut;
	static const char crown[] = "GAME mill SIDE crown PASSWORD "
	    "red-coat-secret\r\n";
	static const char cont[] = "GAME mill SIDE continental PASSWORD "
	    "blue-coat-secret\r\n";
	struct { const char *from, *hdr, *cmd, *want; } steps[] = {
		{ "howe@crown.example.org", crown, "DRAW", "stands until you "
		    "withdraw it" },
		{ "howe@crown.example.org", crown, "draw", "stands already" },
		{ "howe@crown.example.org", crown, "DRAW WITHDRAW", "is withdrawn" },
		{ "howe@crown.example.org", crown, "DRAW WITHDRAW", "You have no "
		    "proposal of a draw standing" },
		{ "greene@cont.example.org", cont, "DRAW", "Proposals standing: "
		    "1 of the game's 2 players." },
	};
	char body[300], id[64];
	size_t i;

	start(f);
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		snprintf(body, sizeof(body), "%s%s\r\n", steps[i].hdr, steps[i].cmd);
		snprintf(id, sizeof(id), "d%zu@example.org", i);
		raw = mail(id, steps[i].from, body);
		submit(f, raw, &sr);
		free(raw);
		rep = last_mail(f);
		if (strstr(rep, steps[i].want) == NULL)
			fail_msg("step %zu: no \"%s\" in\n%s", i, steps[i].want, rep);
		free(rep);
	}
	/* Howe was told of Greene's proposal, by side, not by address. */
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE recipient = "
	    "'howe@crown.example.org' AND subject = '[mill] Continental "
	    "proposes a draw'"), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM games WHERE name = 'mill' "
	    "AND status = 'running'"), 1);
	raw = mail("d9@example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown PASSWORD red-coat-secret\r\nDRAW\r\n");
	submit(f, raw, &sr);
	free(raw);
	assert_int_equal(q(f, "SELECT count(*) FROM games WHERE name = 'mill' "
	    "AND status = 'finished'"), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM outbox WHERE subject = "
	    "'[mill] The battle is over: drawn by agreement'"), 2);
	/* Offer, withdrawal, offer, offer, draw. */
	assert_int_equal(q(f, "SELECT count(*) FROM ledger WHERE kind = 'act'"), 5);
	buf = exported(f, 0, &n);
	if (verify_buf(buf, n, &res) != 0)
		fail_msg("line %d %s: %s", res.line, res.field, res.msg);
	assert_true(res.finished);
	assert_true(res.drawn);
	assert_false(res.conceded);
	{
		/* The side's JSON calls it drawn, not conceded. */
		struct store_game g;
		struct battle *b = NULL;
		struct report_game rg;
		struct events ev;
		json_t *js, *kind;
		char *txt;
		size_t len;

		assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
		if (store_battle_load(f->st, &g, &b, &e) != 0)
			fail_msg("%s", e.msg);
		memset(&rg, 0, sizeof(rg));
		rg.name = g.name;
		rg.status = "finished";
		rg.visibility = "open";
		rg.step = g.step;
		rg.result = g.result;
		events_init(&ev);
		txt = report_json_side(&rg, b, 0, NULL, &ev, g.step, NULL, 0, &len);
		assert_non_null(txt);
		js = json_loads(txt, 0, NULL);
		assert_non_null(js);
		kind = json_object_get(json_object_get(js, "result"), "kind");
		if (kind == NULL)
			kind = json_object_get(json_object_get(json_object_get(js,
			    "state"), "result"), "kind");
		assert_non_null(kind);
		assert_string_equal(json_string_value(kind), "drawn");
		json_decref(js);
		free(txt);
		events_free(&ev);
		battle_free(b);
		store_game_clear(&g);
	}
	cut = n - 1;
	while (cut > 0 && buf[cut - 1] != '\n')
		cut--;
	assert_int_equal(verify_buf(buf, cut, &res), -1);
	assert_string_equal(res.field, "steps");
	free(buf);
}

/* Values the JSON could carry that would read the same once cut to an
 * int, or of another type: refused. */
static void
archive_values_of_the_wrong_type_or_range_fail(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	size_t n;
	char *a = played_archive(f, &n), *t;
	static const char *const swaps[][2] = {
		{ "\"mailed\":false", "\"mailed\":0" },
		{ "\"sides\":0", "\"sides\":\"0\"" },
		{ "\"sides\":0", "\"sides\":4294967296" },
		{ "\"seat\":2,", "\"seat\":4294967298," },
	};
	size_t k;

	for (k = 0; k < sizeof(swaps) / sizeof(swaps[0]); k++) {
		char *at = strstr(a, swaps[k][0]);
		size_t ol = strlen(swaps[k][0]), nl = strlen(swaps[k][1]), m;

		if (at == NULL)
			fail_msg("the archive has no %s", swaps[k][0]);
		m = n - ol + nl;
		t = malloc(m);
		assert_non_null(t);
		memcpy(t, a, (size_t)(at - a));
		memcpy(t + (at - a), swaps[k][1], nl);
		memcpy(t + (at - a) + nl, at + ol, n - (size_t)(at - a) - ol);
		if (verify_buf(t, m, &res) != -1)
			fail_msg("%s as %s still verifies", swaps[k][0], swaps[k][1]);
		free(t);
	}
	free(a);
}

/* A sandbox game's steps played with scripted dice verify, replayed with
 * the dice its events record, and are named as such. */
static void
a_sandbox_archive_is_named_as_such(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct turn_result tr;
	struct err e;
	static const int none[1] = { 0 };
	char *buf = NULL;
	size_t n = 0;
	int i;

	start(f);
	/* The skirmish's forces are out of range: no die is needed. */
	for (i = 0; i < 4; i++)
		if (referee_turn(&f->r, "mill", none, 0, &tr, &e) != 0)
			fail_msg("%s", e.msg);
	buf = exported(f, 0, &n);
	if (verify_buf(buf, n, &res) != 0)
		fail_msg("line %d %s: %s", res.line, res.field, res.msg);
	assert_true(res.sandbox);
	assert_int_equal(res.scripted, 4);
	free(buf);
}

/* The continental army is one brigade of 4 SP (level 2.0): two hits in
 * the crown's first phase exhaust it, so its army has broken and the
 * battle is over after one step of its four.  The game says so, the
 * result is stored, and the archive of one step verifies as whole. */
static void
a_broken_army_ends_the_battle_early(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct submit_result sr;
	struct turn_result tr;
	struct store_game g;
	struct err e;
	char *raw, *buf = NULL;
	size_t n = 0;
	/* 23rd, 2.5" off after its advance (long range, 6 hits): its two
	 * stands' 4 dice, 2 hits; the Virginians' 4 back, none; the
	 * exhausted brigade's collapse roll, 6: it holds together. */
	static const int dice[] = { 6, 6, 1, 1, 1, 1, 1, 1, 6 };

	start(f);
	raw = mail("b1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: ADVANCE 16\r\n");
	submit(f, raw, &sr);
	free(raw);
	if (referee_turn(&f->r, "mill", dice, (int)(sizeof(dice) /
	    sizeof(dice[0])), &tr, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(tr.step, 1);
	assert_true(tr.finished);
	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	assert_int_equal(g.status, GAME_FINISHED);
	assert_non_null(strstr(g.result, "victory for crown"));
	store_game_clear(&g);
	/* No more phases. */
	assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), -1);
	buf = exported(f, 0, &n);
	if (verify_buf(buf, n, &res) != 0)
		fail_msg("line %d %s: %s", res.line, res.field, res.msg);
	assert_true(res.finished);
	assert_false(res.conceded);
	assert_int_equal(res.steps, 1);
	free(buf);
}

/* The crown's hand as the store keeps it. */
static int
crown_holds(struct fx *f, const char *card)
{
	struct store_game g;
	struct battle *b = NULL;
	struct err e;
	int i, n = 0, k = vnb_card_find(card, NULL);

	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	if (store_battle_load(f->st, &g, &b, &e) != 0)
		fail_msg("%s", e.msg);
	for (i = 0; i < vnb_deck(b)->n; i++)
		n += vnb_deck(b)->at[i] == 0 && vnb_deck(b)->kind[i] == k;
	battle_free(b);
	store_game_clear(&g);
	return n;
}

/* The store keeps the deck as the rows of vnb-wing's tables (the
 * effect of a card in play among them); rows that do not fit the
 * scenario's deck, or a table the ruleset lacks, are a damaged state,
 * and said so.  The rows are put back after. */
static void
damaged_tables_are_refused(struct fx *f)
{
	static const char *const damage[] = {
		"tables || char(10) || 'cards 0 -1'",
		"replace(tables, 'cards 1 ', 'cards 99 ')",
		"tables || char(10) || 'jokers 0 1'",
		"replace(tables, 'effects 0 ', 'effects 0 99 ')",
		"replace(tables, 'effects 0 ', 'effects 1 ')",
	};
	struct store_game g;
	struct battle *b = NULL;
	struct err e;
	char *was = NULL, sql[200];
	size_t k;

	assert_int_equal(store_game_get(f->st, "mill", &g, &e), 0);
	assert_int_equal(store_query_text(f->st, &e, &was, NULL, "SELECT "
	    "tables FROM battle_rules WHERE game_id = ?", "i", g.id), 1);
	assert_non_null(strstr(was, "\neffects 0 "));
	assert_int_equal(store_battle_load(f->st, &g, &b, &e), 0);
	battle_free(b);
	for (k = 0; k < sizeof(damage) / sizeof(damage[0]); k++) {
		b = NULL;
		snprintf(sql, sizeof(sql), "UPDATE battle_rules SET tables = %s "
		    "WHERE game_id = ?", damage[k]);
		assert_int_equal(store_exec(f->st, &e, sql, "i", g.id), 0);
		assert_int_equal(store_battle_load(f->st, &g, &b, &e), -1);
		assert_non_null(strstr(e.msg, "damaged"));
		assert_int_equal(store_exec(f->st, &e, "UPDATE battle_rules SET "
		    "tables = ? WHERE game_id = ?", "ti", was, g.id), 0);
	}
	free(was);
	store_game_clear(&g);
}

/* A battle with Fog of War cards, played on live dice: cards played,
 * discarded and drawn again at the turn's end, kept by the store between
 * steps, and the archive replays to the same state and events. */
static void
a_battle_with_cards_verifies(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct submit_result sr;
	struct turn_result tr;
	struct err e;
	char *raw, *buf;
	size_t n = 0;
	int i;

	start(f);
	raw = mail("c1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "PLAY CARD \"Good Going\" ON 23rd Foot\r\n"
	    "DISCARD CARD \"Panic!!!\"\r\n"
	    "23rd Foot: ADVANCE 2\r\n");
	submit(f, raw, &sr);
	free(raw);
	if (referee_turn(&f->r, "mill", NULL, 0, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	/* Played and discarded: not in the hand until the turn is over. */
	assert_int_equal(crown_holds(f, "Good Going"), 0);
	assert_int_equal(crown_holds(f, "Panic!!!"), 0);
	assert_int_equal(crown_holds(f, "Bad Going"), 1);
	raw = mail("c2@cont.example.org", "greene@cont.example.org",
	    "GAME mill SIDE continental TURN 1 PASSWORD blue-coat-secret\r\n"
	    "PLAY CARD \"Bad Going\" ON 23rd Foot\r\n"
	    "2nd Virginia: HOLD\r\n");
	submit(f, raw, &sr);
	free(raw);
	if (referee_turn(&f->r, "mill", NULL, 0, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	damaged_tables_are_refused(f);
	raw = mail("c3@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 2 PASSWORD red-coat-secret\r\n"
	    "23rd Foot: ADVANCE 2\r\n");
	submit(f, raw, &sr);
	free(raw);
	for (i = 0; i < 2; i++)
		assert_int_equal(referee_turn(&f->r, "mill", NULL, 0, &tr, &e), 0);
	assert_true(tr.finished);
	buf = exported(f, 0, &n);
	assert_non_null(strstr(buf, "PLAY CARD"));
	assert_non_null(strstr(buf, "\"msg\":\"draws-card\""));
	if (verify_buf(buf, n, &res) != 0)
		fail_msg("line %d %s: %s", res.line, res.field, res.msg);
	assert_int_equal(res.steps, 4);
	/* The card orders are what the replay plays: one left out and the
	 * state it reaches is not the one signed. */
	{
		char *t = strstr(buf, "DISCARD CARD");

		assert_non_null(t);
		memcpy(t, "DISCARD CARX", 12);
		assert_int_equal(verify_buf(buf, n, &res), -1);
	}
	free(buf);
}

/* Two players of a side each play the side's one copy of a card: both
 * lines were right when sent, so both are stored; the phase is played,
 * the first line plays the card, the second says it does nothing, and
 * the archive verifies. */
static void
two_players_playing_one_card_do_not_stop_the_game(void **state)
{
	struct fx *f = *state;
	struct verify_result res;
	struct submit_result sr;
	struct turn_result tr;
	struct err e;
	char secret[REFEREE_SECRET_MAX], *raw, *buf;
	size_t n = 0;

	if (referee_player_add(&f->r, "mill", "crown", "clinton@crown.example.org",
	    "green-coat-secret", "army", secret, &e) != 0)
		fail_msg("%s", e.msg);
	start(f);
	raw = mail("d1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "PLAY CARD \"Good Going\" ON 23rd Foot\r\n");
	submit(f, raw, &sr);
	free(raw);
	raw = mail("d2@crown.example.org", "clinton@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD green-coat-secret\r\n"
	    "PLAY CARD \"Good Going\" ON 23rd Foot\r\n");
	submit(f, raw, &sr);
	free(raw);
	if (referee_turn(&f->r, "mill", NULL, 0, &tr, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(crown_holds(f, "Good Going"), 0);
	buf = exported(f, 0, &n);
	assert_non_null(strstr(buf, "\"args\":[{\"side\":\"crown\"},{\"word\":"
	    "\"Good Going\"},{\"unit\":\"23rd Foot\"}"));
	assert_non_null(strstr(buf, "\"msg\":\"does-not-hold-card\",\"args\":"
	    "[{\"side\":\"crown\"},{\"word\":\"Good Going\"}"));
	if (verify_buf(buf, n, &res) != 0)
		fail_msg("line %d %s: %s", res.line, res.field, res.msg);
	free(buf);
}

/* Orders sent ahead for a later phase play a card the side holds when
 * they are sent, and an earlier phase's orders play it first: the later
 * line does nothing, and the game goes on. */
static void
a_card_played_ahead_and_gone_does_not_stop_the_game(void **state)
{
	struct fx *f = *state;
	struct submit_result sr;
	struct turn_result tr;
	struct err e;
	char *raw, *buf;
	size_t n = 0;
	int i;

	start(f);
	raw = mail("e1@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"
	    "PLAY CARD \"Good Going\" ON 23rd Foot\r\n");
	submit(f, raw, &sr);
	free(raw);
	raw = mail("e2@crown.example.org", "howe@crown.example.org",
	    "GAME mill SIDE crown TURN 2 PASSWORD red-coat-secret\r\n"
	    "PLAY CARD \"Good Going\" ON 23rd Foot\r\n");
	submit(f, raw, &sr);
	free(raw);
	/* Both were stored: each was right when it came. */
	assert_int_equal(orders_for(f, 1, 0), 1);
	assert_int_equal(orders_for(f, 3, 0), 1);
	for (i = 0; i < 3; i++)
		if (referee_turn(&f->r, "mill", NULL, 0, &tr, &e) != 0)
			fail_msg("step %d: %s", i + 1, e.msg);
	buf = exported(f, 0, &n);
	assert_non_null(strstr(buf, "\"args\":[{\"side\":\"crown\"},{\"word\":"
	    "\"Good Going\"},{\"unit\":\"23rd Foot\"}"));
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_whole_archive_verifies,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(any_byte_changed_fails_at_its_line,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(lines_dropped_moved_or_cut_fail,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(events_altered_and_re_signed_still_fail,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(operators_acts_are_signed_in_the_chain_and_verify,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_battle_drawn_by_agreement_verifies,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_conceded_battle_verifies_and_its_end_cannot_be_cut,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(archive_values_of_the_wrong_type_or_range_fail,
		    setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_sandbox_archive_is_named_as_such,
		    setup_sandbox, teardown),
		cmocka_unit_test_setup_teardown(a_battle_with_cards_verifies,
		    setup_cards, teardown),
		cmocka_unit_test_setup_teardown(
		    a_card_played_ahead_and_gone_does_not_stop_the_game,
		    setup_cards, teardown),
		cmocka_unit_test_setup_teardown(
		    two_players_playing_one_card_do_not_stop_the_game,
		    setup_cards_shared, teardown),
		cmocka_unit_test_setup_teardown(a_broken_army_ends_the_battle_early,
		    setup_sandbox, teardown),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
