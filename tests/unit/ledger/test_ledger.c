/*
 * test_ledger.c - the ledger's hashes, against values computed by a
 * separate implementation of docs/ledger.md's encoding (Python's hashlib,
 * a few lines: F(x) = 4-byte big-endian length ‖ x, numbers as 8 bytes),
 * the state hash's fields one by one, and the server key's file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sodium.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/events.h"
#include "ledger/ledger.h"
#include "ledger/record.h"
#include "ledger/verify.h"
#include "rules/vnb_wing.h"

static void
assert_hex(const unsigned char *v, int n, const char *want)
{
	char hex[2 * 64 + 1];

	ledger_hex(v, n, hex);
	assert_string_equal(hex, want);
}

static void
chain_links_back_to_s0(void **state)
{
	unsigned char tip[32], s[32], t[32];
	int i;

	(void)state;
	for (i = 0; i < 32; i++)
		tip[i] = (unsigned char)i;
	ledger_chain_prev(tip, s);
	assert_hex(s, 32,
	    "e4051b5eafc95b887739d415df9b41e5db8bca162c20f5a02afdcc47c0f73c6c");
	/* S_k of a chain of 10 from tip: three hashes down for k = 7. */
	ledger_chain_at(tip, 10, 7, t);
	assert_hex(t, 32,
	    "76a4167d3ae7861927c40aaa895030121ba997fe84f1dcc304161098104aa7c1");
	/* Each revealed S_k hashes to the S_{k-1} before it. */
	for (i = 10; i > 0; i--) {
		unsigned char a[32], b[32], c[32];

		ledger_chain_at(tip, 10, i, a);
		ledger_chain_at(tip, 10, i - 1, b);
		ledger_chain_prev(a, c);
		assert_memory_equal(b, c, 32);
	}
	ledger_chain_at(tip, 10, 10, t);
	assert_memory_equal(t, tip, 32);
}

static void
leaf_root_and_dice_seed_match_the_documented_encoding(void **state)
{
	unsigned char salt[16], leaf[32], leaves[2][32], root[32], s[32];
	unsigned char tip[32], prev[32], dice[32], q[16], head[32], em[32];
	int i;

	(void)state;
	memset(salt, 0xab, sizeof(salt));
	assert_int_equal(ledger_leaf("cowpens", 3, "crown", 2, salt,
	    "7th Foot (Royal Fusiliers): ADVANCE 8\n", leaf), 0);
	assert_hex(leaf, 32,
	    "cc32af00e0ce19af7b6901fad77eb945ed1142d78c922cfc226f88dec4fcda49");
	memcpy(leaves[0], leaf, 32);
	memset(leaves[1], 0, 32);
	ledger_root("cowpens", 3, (const unsigned char (*)[32])leaves, 2, root);
	assert_hex(root, 32,
	    "4339385565ed63904bbabc9ad5b802ee2858f782ee209ac3dab870053e325980");
	for (i = 0; i < 32; i++)
		tip[i] = (unsigned char)i;
	ledger_chain_prev(tip, s);
	memset(prev, 1, sizeof(prev));
	ledger_dice_seed("cowpens", 3, s, root, prev, dice);
	assert_hex(dice, 32,
	    "4cb9ce21897038dfa5b040661b7739cee7d90811543897e24bfbfc9b847862a8");
	ledger_salt(s, "crown", 2, "7th Foot (Royal Fusiliers): ADVANCE 8\n", q);
	assert_hex(q, 16, "fdcec70138dc577b129d871081b060c0");
	ledger_head((const unsigned char *)"abc", 3, head);
	assert_hex(head, 32,
	    "8d255e62c83a104b9af2894a4d274796dbda6f974459c87e856c0bf52e2e6a28");
	/* Addresses are hashed in lower case. */
	ledger_email_hash("Tarleton@Example.ORG", em);
	assert_hex(em, 32,
	    "2a18a4759f8e8b3cc8322dac6a44bfcdd43bf636af228ec3fd605fbb02e3bec0");
	/* A different order, a different leaf; a different root, other
	 * dice: nothing about the dice is known before the orders are. */
	assert_int_equal(ledger_leaf("cowpens", 3, "crown", 2, salt,
	    "7th Foot (Royal Fusiliers): ADVANCE 7\n", leaves[0]), 0);
	assert_memory_not_equal(leaves[0], leaf, 32);
	{
		unsigned char root2[32], dice2[32];

		ledger_root("cowpens", 3, (const unsigned char (*)[32])leaves, 2,
		    root2);
		ledger_dice_seed("cowpens", 3, s, root2, prev, dice2);
		assert_memory_not_equal(dice2, dice, 32);
	}
}

static void
records_encode_the_same_bytes_each_time(void **state)
{
	struct ledger_step *a = calloc(1, sizeof(*a));
	struct lbuf x = { 0 }, y = { 0 };

	(void)state;
	assert_non_null(a);
	a->step = 4;
	a->turn = 2;
	snprintf(a->phase, sizeof(a->phase), "crown");
	a->nleaves = 1;
	snprintf(a->leaves[0].side, sizeof(a->leaves[0].side), "crown");
	a->leaves[0].seat = 1;
	a->rolls = 12;
	assert_int_equal(ledger_step_encode(a, &x), 0);
	assert_int_equal(ledger_step_encode(a, &y), 0);
	assert_int_equal(x.n, y.n);
	assert_memory_equal(x.p, y.p, x.n);
	/* Read back, it is the same record. */
	{
		struct ledger_step *b = calloc(1, sizeof(*b));

		assert_non_null(b);
		assert_int_equal(ledger_step_decode(x.p, x.n, b), 0);
		assert_int_equal(b->step, 4);
		assert_int_equal(b->rolls, 12);
		assert_string_equal(b->leaves[0].side, "crown");
		assert_int_equal(ledger_step_encode(b, &y), 0);
		assert_int_equal(x.n, y.n);
		assert_memory_equal(x.p, y.p, x.n);
		/* Cut short, or with a byte left over: not a record; nor is
		 * a step record a genesis. */
		{
			unsigned char *more = calloc(1, x.n + 1);
			struct ledger_genesis *g = calloc(1, sizeof(*g));

			assert_non_null(more);
			assert_non_null(g);
			memcpy(more, x.p, x.n);
			assert_int_equal(ledger_step_decode(x.p, x.n - 1, b), -1);
			assert_int_equal(ledger_step_decode(more, x.n + 1, b), -1);
			assert_int_equal(ledger_genesis_decode(x.p, x.n, g), -1);
			free(more);
			free(g);
		}
		free(b);
	}
	/* Every field counts: one more roll is another record. */
	a->rolls = 13;
	assert_int_equal(ledger_step_encode(a, &y), 0);
	assert_memory_not_equal(x.p, y.p, x.n);
	ledger_buf_free(&x);
	ledger_buf_free(&y);
	free(a);
}

/* A battle of two stands, one brigade, one commander, one terrain piece
 * and one unit, set by hand: what ledger_state_hash takes. */
static struct battle *
small_battle(void)
{
	struct battle *b = battle_new();

	assert_non_null(b);
	b->nstands = 2;
	b->stands[0].unit = 0;
	b->stands[0].sp = 3;
	b->stands[0].pos.x = 2400;
	b->stands[0].pos.y = 1000;
	b->stands[1].unit = 0;
	b->stands[1].sp = 2;
	b->stands[1].pos.x = 2700;
	b->stands[1].pos.y = 1000;
	b->stands[1].flags = ST_DISORDERED;
	b->nbrigades = 1;
	b->brigades[0].lost = 1;
	b->brigades[0].flags = BR_EXHAUSTED;
	b->brigades[0].hits = 2;
	b->ncommanders = 1;
	b->commanders[0].pos.x = 2400;
	b->commanders[0].pos.y = 800;
	b->commanders[0].attached = -1;
	b->nterrain = 1;
	b->terrain[0].trodden = 1;
	b->nunits = 1;
	return b;
}

/* Changes lvalue v by one, and the state hash must change with it; then
 * puts it back, and the hash with it. */
#define EVERY_FIELD_COUNTS(b, h, v) do { \
	unsigned char h2_[32]; \
	(v) += 1; \
	assert_int_equal(ledger_state_hash((b), h2_), 0); \
	if (memcmp((h), h2_, 32) == 0) \
		fail_msg("the state hash leaves out %s", #v); \
	(v) -= 1; \
	assert_int_equal(ledger_state_hash((b), h2_), 0); \
	assert_memory_equal((h), h2_, 32); \
} while (0)

static void
the_state_hash_takes_every_field_and_the_facing(void **state)
{
	struct battle *b = small_battle();
	unsigned char h[32], turned[32];

	(void)state;
	assert_int_equal(ledger_state_hash(b, h), 0);
	/* One stand's facing turned, and nothing else: another hash (so a
	 * hash that left facing out fails here, not only in a golden
	 * digest of the demo's archive). */
	b->stands[1].facing = 90;
	assert_int_equal(ledger_state_hash(b, turned), 0);
	if (memcmp(h, turned, 32) == 0)
		fail_msg("a stand's facing turned leaves the state hash as it was");
	/* Both from docs/ledger.md ("The state hash") alone, by Python: the
	 * numbers 2, 0,3,2400,1000,0,0,0, 0,2,2700,1000,0,0,1, 1, 1,1,2, 1,
	 * 2400,800,0,0,-1, 1, 1, 1, 0,0,0, each as a number field after the
	 * tag "despatch/state/v3"; turned, the second stand's 0 facing 90. */
	assert_hex(h, 32,
	    "1858e3fcf4fdc6fe15d37de6a647fb8ded2e444d1b8e1ac311f0fd2a532b397a");
	assert_hex(turned, 32,
	    "c046e31e5dd463c636d6002c993599ee6a0eb40c77884aab18d28077da9845c9");
	b->stands[1].facing = 0;
	b->commanders[0].facing = 90;
	assert_int_equal(ledger_state_hash(b, turned), 0);
	assert_memory_not_equal(h, turned, 32);
	b->commanders[0].facing = 0;
	/* Every other field too. */
	EVERY_FIELD_COUNTS(b, h, b->stands[1].unit);
	EVERY_FIELD_COUNTS(b, h, b->stands[1].sp);
	EVERY_FIELD_COUNTS(b, h, b->stands[1].pos.x);
	EVERY_FIELD_COUNTS(b, h, b->stands[1].pos.y);
	EVERY_FIELD_COUNTS(b, h, b->stands[1].facing);
	EVERY_FIELD_COUNTS(b, h, b->stands[1].form);
	EVERY_FIELD_COUNTS(b, h, b->stands[1].flags);
	EVERY_FIELD_COUNTS(b, h, b->brigades[0].lost);
	EVERY_FIELD_COUNTS(b, h, b->brigades[0].flags);
	EVERY_FIELD_COUNTS(b, h, b->brigades[0].hits);
	EVERY_FIELD_COUNTS(b, h, b->commanders[0].pos.x);
	EVERY_FIELD_COUNTS(b, h, b->commanders[0].pos.y);
	EVERY_FIELD_COUNTS(b, h, b->commanders[0].facing);
	EVERY_FIELD_COUNTS(b, h, b->commanders[0].gone);
	EVERY_FIELD_COUNTS(b, h, b->commanders[0].attached);
	EVERY_FIELD_COUNTS(b, h, b->terrain[0].trodden);
	EVERY_FIELD_COUNTS(b, h, b->units[0].state[0]);
	EVERY_FIELD_COUNTS(b, h, b->units[0].state[1]);
	EVERY_FIELD_COUNTS(b, h, b->units[0].state[2]);
	/* What the scenario fixes is not the step's to change, and not
	 * hashed (the genesis binds the scenario). */
	b->units[0].morale = 5;
	assert_int_equal(ledger_state_hash(b, turned), 0);
	assert_memory_equal(h, turned, 32);
	b->units[0].morale = 0;
	/* A battle with cards (vnb-wing's own state, which it shows the
	 * ledger as tables): they are hashed, and every field of theirs,
	 * as engine 3 laid them out. */
	snprintf(b->ruleset, sizeof(b->ruleset), "vnb-wing");
	vnb_deck(b)->n = 1;
	vnb_deck(b)->at[0] = VNB_IN_DECK;
	vnb_deck(b)->neffects = 1;
	vnb_deck(b)->effects[0].unit = -1;
	vnb_deck(b)->effects[0].commander = -1;
	assert_int_equal(ledger_state_hash(b, turned), 0);
	assert_memory_not_equal(h, turned, 32);
	assert_hex(turned, 32,
	    "45d864158da2937fa2d6d01976bb2657dc442d7b038511d9e4a8d694aaea98d4");
	memcpy(h, turned, 32);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->at[0]);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].card);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].side);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].unit);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].commander);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].at.x);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].at.y);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].value);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].until);
	EVERY_FIELD_COUNTS(b, h, vnb_deck(b)->effects[0].spent);
	EVERY_FIELD_COUNTS(b, h, b->commanders[0].out_until);
	EVERY_FIELD_COUNTS(b, h, b->commanders[0].out_removed);
	EVERY_FIELD_COUNTS(b, h, b->stands[0].facing);
	battle_free(b);
}

/* The archive's "state" object names the same numbers, in the hash's
 * order (docs/ledger.md): one stand's facing shows as its facing. */
static void
the_state_object_names_what_the_hash_takes(void **state)
{
	struct battle *b = small_battle();
	json_t *j;
	char *text;

	(void)state;
	b->stands[1].facing = 90;
	j = ledger_state_json(b);
	assert_non_null(j);
	text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_non_null(text);
	assert_string_equal(text, "{\"stands\":["
	    "{\"unit\":0,\"sp\":3,\"x\":2400,\"y\":1000,\"facing\":0,"
	    "\"formation\":0,\"flags\":0},"
	    "{\"unit\":0,\"sp\":2,\"x\":2700,\"y\":1000,\"facing\":90,"
	    "\"formation\":0,\"flags\":1}],"
	    "\"brigades\":[{\"lost\":1,\"flags\":1,\"hits\":2}],"
	    "\"commanders\":[{\"x\":2400,\"y\":800,\"facing\":0,\"gone\":0,"
	    "\"attached\":-1}],"
	    "\"terrain\":[{\"trodden\":1}],"
	    "\"units\":[{\"density\":0,\"disruption\":0,\"marks\":0}]}");
	free(text);
	json_decref(j);
	/* With cards, their three lists after the rest. */
	snprintf(b->ruleset, sizeof(b->ruleset), "vnb-wing");
	vnb_deck(b)->n = 1;
	vnb_deck(b)->at[0] = 1;
	j = ledger_state_json(b);
	assert_non_null(j);
	text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	assert_non_null(strstr(text, "\"units\":[{\"density\":0,\"disruption\":0,"
	    "\"marks\":0}],\"cards\":[{\"at\":1}],\"effects\":[],"
	    "\"commanders_out\":[{\"out_until\":0,\"out_removed\":0}]}"));
	free(text);
	json_decref(j);
	battle_free(b);
}

static void
the_key_file_is_made_once_private_and_kept(void **state)
{
	char dir[] = "/tmp/despatch-key-XXXXXX", path[128];
	struct ledger_key k1, k2, d;
	struct err e;
	struct stat sb;
	unsigned char head[32], sig[64];
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/test.db.key", dir);
	err_clear(&e);
	/* Without create, an absent key is an error, not a new key. */
	assert_int_equal(ledger_key_load(path, 0, &k1, &e), -1);
	assert_int_equal(ledger_key_load(path, 1, &k1, &e), 0);
	assert_int_equal(stat(path, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(ledger_key_load(path, 1, &k2, &e), 0);
	assert_memory_equal(k1.pk, k2.pk, 32);
	memset(head, 7, sizeof(head));
	ledger_sign(&k1, head, sig);
	assert_int_equal(ledger_sign_check(k2.pk, head, sig), 0);
	head[0] ^= 1;
	assert_int_equal(ledger_sign_check(k2.pk, head, sig), -1);
	/* Readable by others: refused, with the fix. */
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(ledger_key_load(path, 1, &k2, &e), -1);
	assert_non_null(strstr(e.msg, "chmod 600"));
	/* Damaged: refused, never replaced by a new key. */
	assert_int_equal(chmod(path, 0600), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("not a key\n", f);
	fclose(f);
	assert_int_equal(ledger_key_load(path, 1, &k2, &e), -1);
	assert_non_null(strstr(e.msg, "damaged"));
	/* The demo key is known to be the demo's; a real one is not. */
	ledger_key_demo(&d);
	assert_int_equal(ledger_key_is_demo(d.pk), 1);
	assert_int_equal(ledger_key_is_demo(k1.pk), 0);
	unlink(path);
	rmdir(dir);
}

/* The archive reader's fuzz corpus (tests/fuzz/corpus/archive): each
 * file gets a verdict, never a crash; valid-* verify and bad-* are
 * refused, each naming a line or field. */
static void
archive_corpus_gets_a_verdict_for_every_file(void **state)
{
	const char *dir = DESPATCH_SOURCE_DIR "/tests/fuzz/corpus/archive";
	DIR *d = opendir(dir);
	struct dirent *de;
	int good = 0, badn = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		struct verify_opts o;
		struct verify_result *res;
		char path[1024];
		FILE *f;
		int rc;

		if (de->d_name[0] == '.')
			continue;
		res = calloc(1, sizeof(*res));
		assert_non_null(res);
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		assert_non_null(f);
		memset(&o, 0, sizeof(o));
		rc = ledger_verify(f, &o, res);
		fclose(f);
		if (strncmp(de->d_name, "valid-", 6) == 0) {
			if (rc != 0)
				fail_msg("%s: %s: %s", de->d_name, res->field, res->msg);
			good++;
		} else {
			if (rc == 0)
				fail_msg("%s verified", de->d_name);
			assert_true(res->field[0] != '\0' && res->msg[0] != '\0');
			badn++;
		}
		free(res);
	}
	closedir(d);
	assert_true(good >= 1 && badn >= 5);
}

/* Engine 5 signs an event's message id and typed values, not its
 * sentence: the same message worded otherwise hashes the same, and any
 * change to what it says (its id, a value, a value's kind, a number of
 * the event) does not.  Engine 4's way, the sentence, changes with it. */
#define M_FIRES "fires", "uun", "%s fires at %s: %d hits."
#define M_FIRES_REWORDED "fires", "uun", "%s opens fire on %s, %d hits."

static void
events_of(struct events *ev, const char *id, const char *types,
    const char *fmt, const char *who, int hits, int value)
{
	events_init(ev);
	events_say(ev, EV_PHASE, 0, -1, -1, 1, EVENT_M_PHASE, 1, "crown", "07:00",
	    "Crown");
	/* A catalogue's entries are literals; these vary for the test. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	events_say(ev, EV_FIRE, 0, 0, 1, value, id, types, fmt, who,
	    "2nd Virginia", hits);
#pragma GCC diagnostic pop
}

static void
the_events_hash_signs_messages_and_values_not_sentences(void **state)
{
	static const struct {
		const char *id, *types, *who;
		int hits, value;
	} other[] = {
		{ "fires", "uun", "23rd Foot", 3, 2 },
		{ "fires", "uun", "33rd Foot", 2, 2 },
		{ "shoots", "uun", "23rd Foot", 2, 2 },
		{ "fires", "ukn", "23rd Foot", 2, 2 },
		{ "fires", "uun", "23rd Foot", 2, 3 },
	};
	struct events a, b;
	unsigned char h1[LEDGER_HASH], h2[LEDGER_HASH], t1[LEDGER_HASH],
	    t2[LEDGER_HASH];
	size_t i;

	(void)state;
	events_of(&a, M_FIRES, "23rd Foot", 2, 2);
	events_of(&b, M_FIRES_REWORDED, "23rd Foot", 2, 2);
	assert_string_not_equal(a.v[1].text, b.v[1].text);
	assert_int_equal(ledger_events_hash(&a, h1), 0);
	assert_int_equal(ledger_events_hash(&b, h2), 0);
	assert_memory_equal(h1, h2, LEDGER_HASH);
	assert_int_equal(ledger_events_hash_text(&a, t1), 0);
	assert_int_equal(ledger_events_hash_text(&b, t2), 0);
	assert_memory_not_equal(t1, t2, LEDGER_HASH);
	events_free(&b);
	/* Another value, id, kind of value or event number: another hash. */
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++) {
		events_of(&b, other[i].id, other[i].types, "%s fires at %s: %d "
		    "hits.", other[i].who, other[i].hits, other[i].value);
		assert_int_equal(ledger_events_hash(&b, h2), 0);
		if (memcmp(h1, h2, LEDGER_HASH) == 0)
			fail_msg("change %zu hashes the same", i);
		events_free(&b);
	}
	/* The values as a store or an archive gives them back. */
	events_init(&b);
	events_add(&b, EV_PHASE, 0, -1, -1, 1, "%s", "");
	assert_int_equal(events_set_message(&b, "phase", "nscs",
	    "1\0crown\0" "07:00\0Crown", 20), 0);
	events_add(&b, EV_FIRE, 0, 0, 1, 2, "%s", "");
	assert_int_equal(events_set_message(&b, "fires", "uun",
	    "23rd Foot\0" "2nd Virginia\0" "2", 25), 0);
	assert_int_equal(ledger_events_hash(&b, h2), 0);
	assert_memory_equal(h1, h2, LEDGER_HASH);
	/* Values that are not what their letters say are refused. */
	assert_int_equal(events_set_message(&b, "fires", "uun",
	    "23rd Foot\0" "2nd Virginia\0" "02", 26), -1);
	assert_int_equal(events_set_message(&b, "fires", "uuq",
	    "23rd Foot\0" "2nd Virginia\0" "2", 25), -1);
	assert_int_equal(events_set_message(&b, "fires", "uun",
	    "23rd Foot\0" "2nd Virginia", 23), -1);
	events_free(&a);
	events_free(&b);
	/* Wording (x: a plural the count decides) is not signed. */
	events_init(&a);
	events_init(&b);
	events_say(&a, EV_FIRE, 0, 0, 1, 2, "hits", "unx", "%s takes %d %s.",
	    "23rd Foot", 2, "hits");
	events_say(&b, EV_FIRE, 0, 0, 1, 2, "hits", "unx", "%s takes %d %s.",
	    "23rd Foot", 2, "hit(s)");
	assert_int_equal(ledger_events_hash(&a, h1), 0);
	assert_int_equal(ledger_events_hash(&b, h2), 0);
	assert_memory_equal(h1, h2, LEDGER_HASH);
	events_free(&b);
	events_init(&b);
	events_say(&b, EV_FIRE, 0, 0, 1, 2, "hits", "unx", "%s takes %d %s.",
	    "23rd Foot", 3, "hits");
	assert_int_equal(ledger_events_hash(&b, h2), 0);
	assert_memory_not_equal(h1, h2, LEDGER_HASH);
	events_free(&a);
	events_free(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chain_links_back_to_s0),
		cmocka_unit_test(the_events_hash_signs_messages_and_values_not_sentences),
		cmocka_unit_test(leaf_root_and_dice_seed_match_the_documented_encoding),
		cmocka_unit_test(records_encode_the_same_bytes_each_time),
		cmocka_unit_test(the_state_hash_takes_every_field_and_the_facing),
		cmocka_unit_test(the_state_object_names_what_the_hash_takes),
		cmocka_unit_test(the_key_file_is_made_once_private_and_kept),
		cmocka_unit_test(archive_corpus_gets_a_verdict_for_every_file),
	};

	if (sodium_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
