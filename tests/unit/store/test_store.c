/*
 * test_store.c - the SQLite store: migrations, duplicate detection, the
 * battle state written and read back unchanged, and a campaign's clock.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "store/store.h"
#include "store/sqlite.h"

static char dbpath[256];

static int
setup(void **state)
{
	(void)state;
	snprintf(dbpath, sizeof(dbpath), "/tmp/despatch-test-store-%d.db",
	    (int)getpid());
	unlink(dbpath);
	return 0;
}

static int
teardown(void **state)
{
	char p[300];

	(void)state;
	unlink(dbpath);
	snprintf(p, sizeof(p), "%s-wal", dbpath);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", dbpath);
	unlink(p);
	return 0;
}

static void
missing_database_is_not_created_without_create(void **state)
{
	struct store *st = NULL;
	struct err e;

	(void)state;
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), -1);
	assert_null(st);
	assert_int_equal(e.kind, ERR_USER);
	assert_non_null(strstr(e.msg, "no such database"));
	assert_int_not_equal(access(dbpath, F_OK), 0);
}

static void
migrations_bring_an_old_database_forward(void **state)
{
	struct store *st = NULL;
	struct store_game g;
	struct err e;
	static const unsigned char zero[32];

	(void)state;
	/* A database as version 1 of the schema left it, with a game. */
	assert_int_equal(store_open(dbpath, 1, 1, &st, &e), 0);
	assert_int_equal(store_version(st), 1);
	assert_int_equal(store_exec(st, &e, "INSERT INTO games (name, title, "
	    "ruleset, scenario_file, scenario_text, scenario_sha256, seed_secret, "
	    "created_at) VALUES ('old', 'Old', 'vnb-wing', 'x.scenario', 'x', ?, ?, "
	    "1)", "bb", (const void *)zero, (size_t)32, (const void *)zero,
	    (size_t)32), 0);
	store_close(st);
	/* Opening it now applies the rest and keeps the data. */
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_true(store_latest_version() >= 2);
	assert_int_equal(store_version(st), store_latest_version());
	assert_int_equal(store_game_get(st, "old", &g, &e), 0);
	assert_string_equal(g.title, "Old");
	assert_string_equal(g.visibility, "open");
	store_game_clear(&g);
	store_close(st);
}

/* Migration 23: the units' state numbers of 18 (bb7's density,
 * disruption and markers) move into one text a battle, a line a unit
 * that has any; a unit with none has no line, a game with none no row. */
static void
the_units_state_moves_into_one_text_a_battle(void **state)
{
	struct store *st = NULL;
	struct err e;
	char *text = NULL;
	int64_t n = -1;
	static const unsigned char zero[32];
	int i;

	(void)state;
	assert_int_equal(store_open(dbpath, 1, 22, &st, &e), 0);
	for (i = 0; i < 2; i++)
		assert_int_equal(store_exec(st, &e, "INSERT INTO games (name, "
		    "title, ruleset, scenario_file, scenario_text, scenario_sha256, "
		    "seed_secret, created_at) VALUES (?, 'Old', 'bb7', 'x.scenario', "
		    "'x', ?, ?, 1)", "tbb", i == 0 ? "ff" : "quiet",
		    (const void *)zero, (size_t)32, (const void *)zero, (size_t)32),
		    0);
	for (i = 0; i < 3; i++)
		assert_int_equal(store_exec(st, &e, "INSERT INTO units (game_id, "
		    "idx, side_idx, brigade, name, type, kind, speed, morale, weapon, "
		    "abilities, density, disruption, marks) VALUES (1, ?, 0, 0, 'u', "
		    "'t', 0, 0, 0, 0, 0, ?, ?, ?)", "IIII", i, i == 1 ? 0 : 5 + i,
		    i, i == 2 ? 0x21 : 0), 0);
	assert_int_equal(store_exec(st, &e, "INSERT INTO units (game_id, idx, "
	    "side_idx, brigade, name, type, kind, speed, morale, weapon, "
	    "abilities) VALUES (2, 0, 0, 0, 'u', 't', 0, 0, 0, 0, 0)", ""), 0);
	store_close(st);
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_int_equal(store_query_text(st, &e, &text, NULL, "SELECT units "
	    "FROM battle_rules WHERE game_id = 1", ""), 1);
	assert_non_null(text);
	assert_string_equal(text, "0 5 0 0\n1 0 1 0\n2 7 2 33");
	free(text);
	assert_int_equal(store_query_int(st, &e, &n, "SELECT count(*) FROM "
	    "battle_rules WHERE game_id = 2", ""), 1);
	assert_int_equal(n, 0);
	store_close(st);
}

/* Migration 24: vnb-wing's deck leaves 017's shared tables for the
 * battle's text of its ruleset's tables, a line a row ("TABLE ROW
 * V..."), beside the units' text where there is one; 017's tables go. */
static void
the_cards_move_into_the_rulesets_tables(void **state)
{
	struct store *st = NULL;
	struct err e;
	char *text = NULL;
	int64_t n = -1;
	static const unsigned char zero[32];
	int i;

	(void)state;
	assert_int_equal(store_open(dbpath, 1, 23, &st, &e), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(store_exec(st, &e, "INSERT INTO games (name, "
		    "title, ruleset, scenario_file, scenario_text, scenario_sha256, "
		    "seed_secret, created_at) VALUES (?, 'Old', 'vnb-wing', "
		    "'x.scenario', 'x', ?, ?, 1)", "tbb", i == 0 ? "deck" : i == 1 ?
		    "both" : "none", (const void *)zero, (size_t)32,
		    (const void *)zero, (size_t)32), 0);
	/* Game 2 has units' numbers already (a row of 023's). */
	assert_int_equal(store_exec(st, &e, "INSERT INTO battle_rules (game_id, "
	    "units) VALUES (2, '0 1 2 3')", ""), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(store_exec(st, &e, "INSERT INTO cards (game_id, idx, "
		    "place) VALUES (1, ?, ?)", "II", i, i - 1), 0);
		assert_int_equal(store_exec(st, &e, "INSERT INTO cards (game_id, idx, "
		    "place) VALUES (2, ?, -1)", "I", i), 0);
	}
	assert_int_equal(store_exec(st, &e, "INSERT INTO card_effects (game_id, "
	    "seq, card, side_idx, unit_idx, commander, x, y, value, until_step, "
	    "spent) VALUES (1, 0, 7, 1, 3, -1, 0, 0, 4, 6, 0), "
	    "(1, 1, 25, 0, -1, -1, 3050, -200, 0, 7, 1)", ""), 0);
	store_close(st);
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_int_equal(store_query_text(st, &e, &text, NULL, "SELECT units || "
	    "'|' || tables FROM battle_rules WHERE game_id = 1", ""), 1);
	assert_non_null(text);
	/* The order of the lines is not the migration's to promise: each
	 * names its row. */
	assert_int_equal(strlen(text), strlen("|cards 0 -1\ncards 1 0\ncards 2 1\n"
	    "effects 0 7 1 3 -1 0 0 4 6 0\neffects 1 25 0 -1 -1 3050 -200 0 7 1"));
	assert_int_equal(text[0], '|');
	assert_non_null(strstr(text, "cards 0 -1"));
	assert_non_null(strstr(text, "cards 1 0\n"));
	assert_non_null(strstr(text, "cards 2 1"));
	assert_non_null(strstr(text, "\neffects 0 7 1 3 -1 0 0 4 6 0"));
	assert_non_null(strstr(text, "effects 1 25 0 -1 -1 3050 -200 0 7 1"));
	free(text);
	text = NULL;
	assert_int_equal(store_query_text(st, &e, &text, NULL, "SELECT units || "
	    "'|' || tables FROM battle_rules WHERE game_id = 2", ""), 1);
	assert_non_null(text);
	assert_int_equal(strlen(text), strlen("0 1 2 3|cards 0 -1\ncards 1 -1\n"
	    "cards 2 -1"));
	assert_true(strncmp(text, "0 1 2 3|", 8) == 0);
	free(text);
	assert_int_equal(store_query_int(st, &e, &n, "SELECT count(*) FROM "
	    "battle_rules WHERE game_id = 3", ""), 1);
	assert_int_equal(n, 0);
	assert_int_equal(store_query_int(st, &e, &n, "SELECT count(*) FROM "
	    "sqlite_master WHERE name IN ('cards', 'card_effects')", ""), 1);
	assert_int_equal(n, 0);
	store_close(st);
}

/* Migration 26: the running games whose clock runs are indexed by their
 * deadline (and a second index names them with their open step), so that
 * a tick reads the ones that may have something due and no other;
 * store_games_due names those: a deadline by then, or something stored
 * for the open step, or a phase closed for its nonces. */
static void
the_games_due_are_read_by_their_deadline(void **state)
{
	static const unsigned char zero[32];
	/* name, status, deadline, paused, closed step */
	static const struct { const char *name, *status; int deadline, paused,
	    closed; } g[] = {
		{ "a-due", "running", 100, 0, 0 },
		{ "b-later", "running", 5000, 0, 0 },
		{ "c-paused", "running", 100, 1, 0 },
		{ "d-setup", "setup", 100, 0, 0 },
		{ "e-closed", "running", 0, 0, 1 },
		{ "f-orders", "running", 9000, 0, 0 },
		{ "g-idle", "running", 0, 0, 0 },
	};
	struct store *st = NULL;
	struct err e;
	char *names = NULL;
	int64_t n = -1;
	size_t i;

	(void)state;
	assert_int_equal(store_open(dbpath, 1, 25, &st, &e), 0);
	for (i = 0; i < sizeof(g) / sizeof(g[0]); i++)
		assert_int_equal(store_exec(st, &e, "INSERT INTO games (name, "
		    "title, ruleset, scenario_file, scenario_text, scenario_sha256, "
		    "seed_secret, created_at, status, step, deadline_at, paused_at, "
		    "closed_step) VALUES (?, 'Old', 'vnb-wing', 'x.scenario', 'x', ?, "
		    "?, 1, ?, 1, NULLIF(?, 0), NULLIF(?, 0), NULLIF(?, 0))", "tbbtIII",
		    g[i].name, (const void *)zero, (size_t)32, (const void *)zero,
		    (size_t)32, g[i].status, g[i].deadline, g[i].paused,
		    g[i].closed), 0);
	/* f-orders has an order mail's state for its open step, g-idle only
	 * for the step before it. */
	assert_int_equal(store_exec(st, &e, "INSERT INTO sides (game_id, idx, "
	    "side_id, name) VALUES (6, 0, 'crown', 'Crown'), (7, 0, 'crown', "
	    "'Crown')", ""), 0);
	assert_int_equal(store_exec(st, &e, "INSERT INTO players (game_id, "
	    "side_idx, email, secret_hash, created_at) VALUES (6, 0, 'a@b', ?, 1), "
	    "(7, 0, 'a@b', ?, 1)", "bb", (const void *)zero, (size_t)32,
	    (const void *)zero, (size_t)32), 0);
	assert_int_equal(store_exec(st, &e, "INSERT INTO order_state (game_id, "
	    "step, player_id, clean, changed_at) VALUES (6, 1, 1, 1, 50), "
	    "(7, 0, 2, 1, 50)", ""), 0);
	store_close(st);
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_int_equal(store_query_int(st, &e, &n, "SELECT count(*) FROM "
	    "sqlite_master WHERE type = 'index' AND name IN "
	    "('games_by_deadline', 'games_running')", ""), 1);
	assert_int_equal(n, 2);
	assert_int_equal(store_games_due(st, 1000, &names, &e), 0);
	assert_string_equal(names, "a-due\ne-closed\nf-orders\n");
	free(names);
	assert_int_equal(store_games_due(st, 6000, &names, &e), 0);
	assert_string_equal(names, "a-due\nb-later\ne-closed\nf-orders\n");
	free(names);
	assert_int_equal(store_games_due(st, 10, &names, &e), 0);
	assert_string_equal(names, "e-closed\nf-orders\n");
	free(names);
	store_close(st);
}

/* Migration 29: a campaign of 028's takes the server's clock until it
 * sets its own, and a game's setting is never read as a campaign's,
 * though their ids are the same; its open turn opened with its last
 * record; a reminder noted for a turn is noted once, and stands for those
 * further before the deadline, not for those nearer it nor another
 * turn's.  The store stays 0600 through the migration. */
static void
a_campaign_keeps_a_clock_of_its_own(void **state)
{
	static const unsigned char zero[32];
	struct store *st = NULL;
	struct stat sb;
	struct err e;
	char *v = NULL;
	int64_t from = -1, at = -1;

	(void)state;
	assert_int_equal(store_open(dbpath, 1, 28, &st, &e), 0);
	assert_int_equal(store_exec(st, &e, "INSERT INTO campaigns (name, title, "
	    "ruleset, file_name, file_text, seed_secret, created_at, status) "
	    "VALUES ('south', 'S', 'vnb-wing', 's.campaign', 'x', ?, 1, "
	    "'running')", "b", (const void *)zero, (size_t)32), 0);
	assert_int_equal(store_exec(st, &e, "INSERT INTO campaign_records "
	    "(campaign_id, seq, kind, record, head, sig, created_at) VALUES "
	    "(1, 0, 'genesis', 'r', 'h', 's', 100), (1, 1, 'march', 'r', 'h', "
	    "'s', 250)", ""), 0);
	assert_int_equal(store_exec(st, &e, "INSERT INTO settings (game_id, key, "
	    "value) VALUES (0, 'deadline', '48h'), (1, 'settle', '5m')", ""), 0);
	store_close(st);
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_int_equal(store_version(st), store_latest_version());
	assert_int_equal(stat(dbpath, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_equal(store_campaign_setting_get(st, 1, "deadline", &v, &from,
	    &e), 1);
	assert_string_equal(v, "48h");
	assert_int_equal(from, 0);
	free(v);
	assert_int_equal(store_campaign_setting_get(st, 1, "settle", &v, &from,
	    &e), 0);
	assert_null(v);
	assert_int_equal(store_campaign_setting_set(st, 1, "deadline", "2h", &e),
	    0);
	assert_int_equal(store_campaign_setting_set(st, 1, "deadline", "3h", &e),
	    0);
	assert_int_equal(store_campaign_setting_get(st, 1, "deadline", &v, &from,
	    &e), 1);
	assert_string_equal(v, "3h");
	assert_int_equal(from, 1);
	free(v);
	/* Game 1 still has the server's deadline. */
	assert_int_equal(store_setting_get(st, 1, "deadline", &v, &from, &e), 1);
	assert_string_equal(v, "48h");
	assert_int_equal(from, 0);
	free(v);
	assert_int_equal(store_campaign_opened(st, 1, &at, &e), 0);
	assert_int_equal(at, 250);
	assert_int_equal(store_campaign_opened(st, 2, &at, &e), 0);
	assert_int_equal(at, 0);
	assert_int_equal(store_campaign_reminder_sent(st, 1, 2, 3600, &e), 0);
	assert_int_equal(store_campaign_reminder_add(st, 1, 2, 3600, &e), 0);
	assert_int_equal(store_campaign_reminder_add(st, 1, 2, 3600, &e), 0);
	assert_int_equal(store_campaign_reminder_sent(st, 1, 2, 3600, &e), 1);
	assert_int_equal(store_campaign_reminder_sent(st, 1, 2, 86400, &e), 1);
	assert_int_equal(store_campaign_reminder_sent(st, 1, 2, 60, &e), 0);
	assert_int_equal(store_campaign_reminder_sent(st, 1, 3, 3600, &e), 0);
	store_close(st);
}

static void
newer_database_is_refused(void **state)
{
	struct store *st = NULL;
	struct err e;
	sqlite3 *db = NULL;

	(void)state;
	assert_int_equal(sqlite3_open(dbpath, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL,
	    NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(chmod(dbpath, 0600), 0);
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), -1);
	assert_non_null(strstr(e.msg, "newer than this despatch"));
}

static void
message_stored_twice_is_recognised(void **state)
{
	struct store *st = NULL;
	struct err e;
	unsigned char sha1[32], sha2[32];
	int64_t id;
	int64_t n;

	(void)state;
	memset(sha1, 1, sizeof(sha1));
	memset(sha2, 2, sizeof(sha2));
	assert_int_equal(store_open(dbpath, 1, -1, &st, &e), 0);
	assert_int_equal(store_message_seen(st, "a@b", sha1, &e), 0);
	assert_int_equal(store_message_insert(st, "a@b", sha1, "p@x.org", "s", 0,
	    0, 0, "orders", NULL, "raw", 3, NULL, 0, 1, &id, &e), 0);
	/* Same Message-ID, other bytes; same bytes, no Message-ID. */
	assert_int_equal(store_message_seen(st, "a@b", sha2, &e), 1);
	assert_int_equal(store_message_seen(st, NULL, sha1, &e), 1);
	assert_int_equal(store_message_seen(st, "c@d", sha2, &e), 0);
	assert_int_equal(store_message_seen(st, NULL, sha2, &e), 0);
	/* The schema itself refuses a second copy. */
	assert_int_equal(store_message_insert(st, "a@b", sha2, NULL, NULL, 0, 0,
	    0, "orders", NULL, "raw", 3, NULL, 0, 1, &id, &e), -1);
	assert_int_equal(e.kind, ERR_CONFLICT);
	assert_int_equal(store_message_count(st, &n, &e), 0);
	assert_int_equal(n, 1);
	store_close(st);
}

static void
battle_state_round_trips(void **state)
{
	struct store *st = NULL;
	struct store_game g;
	struct battle *b = NULL, *back = NULL;
	char *text = NULL;
	size_t len;
	struct err e;
	unsigned char secret[32];
	int64_t id;

	(void)state;
	memset(secret, 7, sizeof(secret));
	if (scenario_load_file(DESPATCH_SOURCE_DIR
	    "/campaign/cowpens-1781/cowpens.scenario", &text, &len, &b, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(store_open(dbpath, 1, -1, &st, &e), 0);
	assert_int_equal(store_begin(st, &e), 0);
	assert_int_equal(store_game_insert(st, "g", b, "cowpens.scenario", text,
	    len, 1, secret, 5, &id, &e), 0);
	/* Change the state the way a turn would. */
	b->stands[3].sp = 1;
	b->stands[3].flags = ST_DISORDERED | ST_STATIONARY;
	b->stands[3].pos.x += 123;
	b->stands[3].facing = 271;
	b->stands[5].flags = ST_GONE;
	b->brigades[1].flags = BR_EXHAUSTED;
	b->brigades[1].lost = 4;
	b->commanders[0].pos.y -= 50;
	b->commanders[1].attached = 2;
	assert_int_equal(store_battle_save(st, id, b, &e), 0);
	assert_int_equal(store_commit(st, &e), 0);
	assert_int_equal(store_game_get(st, "g", &g, &e), 0);
	assert_int_equal(g.sandbox, 1);
	assert_memory_equal(g.seed_secret, secret, 32);
	if (store_battle_load(st, &g, &back, &e) != 0)
		fail_msg("%s", e.msg);
	assert_memory_equal(back, b, sizeof(*b));
	battle_free(back);
	battle_free(b);
	store_game_clear(&g);
	free(text);
	store_close(st);
}

/* A unit's kind is not stored: it follows its stands.  Light Bobs start
 * broken into detachments; formed up again (its stand back, its
 * detachments spare), it must load as infantry. */
static void
formed_up_detachments_load_as_infantry(void **state)
{
	static const char sc[] =
	    "scenario \"Slots\"\nruleset vnb-wing\ntable 48 x 48\n"
	    "side crown \"Crown\"\n  commander \"Howe\" army at 4,4\n"
	    "  brigade \"1st\" commander \"Grey\" at 20,16\n"
	    "    unit \"Light Bobs\" type british-line +SK\n"
	    "      stand sp 2 at 20,20 facing 0 detachments\n"
	    "side continental \"Continental\"\n  commander \"Greene\" army at "
	    "44,44\n  brigade \"Va\" commander \"Weedon\" at 40,44\n"
	    "    unit \"2nd Virginia\" type continentals-post-1778 stands 1 sp 3 "
	    "at 40,40 facing 180\n";
	struct store *st = NULL;
	struct store_game g;
	struct battle *b = NULL, *back = NULL;
	unsigned char secret[32];
	struct err e;
	int64_t id;
	int f;

	(void)state;
	memset(secret, 7, sizeof(secret));
	if (scenario_parse(sc, strlen(sc), "slots", 0, &b, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(b->units[0].kind, KIND_DETACHMENT);
	assert_int_equal(store_open(dbpath, 1, -1, &st, &e), 0);
	assert_int_equal(store_begin(st, &e), 0);
	assert_int_equal(store_game_insert(st, "s", b, "slots.scenario", sc,
	    strlen(sc), 1, secret, 5, &id, &e), 0);
	f = b->units[0].first_stand;
	b->stands[f].flags = 0;
	b->stands[f + 1].flags = ST_DETACH | ST_GONE | ST_SPARE;
	b->stands[f + 2].flags = ST_DETACH | ST_GONE | ST_SPARE;
	battle_sync_kinds(b);
	assert_int_equal(b->units[0].kind, KIND_INFANTRY);
	assert_int_equal(store_battle_save(st, id, b, &e), 0);
	assert_int_equal(store_commit(st, &e), 0);
	assert_int_equal(store_game_get(st, "s", &g, &e), 0);
	if (store_battle_load(st, &g, &back, &e) != 0)
		fail_msg("%s", e.msg);
	assert_int_equal(back->units[0].kind, KIND_INFANTRY);
	assert_memory_equal(back, b, sizeof(*b));
	battle_free(back);
	battle_free(b);
	store_game_clear(&g);
	store_close(st);
}

static void
failed_transaction_leaves_nothing(void **state)
{
	struct store *st = NULL;
	struct err e;
	unsigned char sha[32];
	int64_t n;

	(void)state;
	memset(sha, 9, sizeof(sha));
	assert_int_equal(store_open(dbpath, 1, -1, &st, &e), 0);
	assert_int_equal(store_begin(st, &e), 0);
	assert_int_equal(store_message_insert(st, "x@y", sha, NULL, NULL, 0, 0, 0,
	    "orders", NULL, "r", 1, NULL, 0, 1, NULL, &e), 0);
	store_rollback(st);
	assert_int_equal(store_message_count(st, &n, &e), 0);
	assert_int_equal(n, 0);
	store_close(st);
}

/* A mail held for its game's step (an observer's report) is due for no
 * sender, not even one told to send everything now; released, it is. */
static void
held_mail_is_due_for_no_sender(void **state)
{
	struct store *st = NULL;
	struct store_mail *m = NULL;
	struct err e;
	int n = 0;

	(void)state;
	assert_int_equal(store_open(dbpath, 1, -1, &st, &e), 0);
	assert_int_equal(store_outbox_add(st, 0, "a@x", "w@x", "s", "observer",
	    "raw\r\n", 5, 0, NULL, 100, &e), 0);
	assert_int_equal(store_exec(st, &e, "UPDATE outbox SET hold_step = 3, "
	    "next_attempt_at = 1152921504606846976", ""), 0);
	assert_int_equal(store_outbox_due(st, INT64_MAX, &m, &n, &e), 0);
	assert_int_equal(n, 0);
	assert_int_equal(store_outbox_list(st, 1, &m, &n, &e), 0);
	assert_int_equal(n, 0);
	assert_int_equal(store_exec(st, &e, "UPDATE outbox SET hold_step = NULL, "
	    "next_attempt_at = 0", ""), 0);
	assert_int_equal(store_outbox_due(st, 200, &m, &n, &e), 0);
	assert_int_equal(n, 1);
	store_mails_free(m, n);
	store_close(st);
}

/* Before any migration the store is copied, as it was, to
 * DATABASE.before-N (N its schema version then), private like the store,
 * and only the latest such copy is kept; a database just made, or one
 * already at the newest version, is not copied (issue 19, upgrades). */
static void
a_migration_keeps_a_copy_of_the_store_as_it_was(void **state)
{
	struct store *st = NULL, *old = NULL;
	struct err e;
	struct stat sb;
	const char *copy = NULL;
	char want[300], stale[300], p[300];
	static const unsigned char zero[32];
	FILE *f;

	(void)state;
	/* Made new: nothing to copy. */
	assert_int_equal(store_open(dbpath, 1, 2, &st, &e), 0);
	assert_int_equal(store_upgraded_from(st, &copy), 0);
	assert_string_equal(copy, "");
	assert_int_equal(store_exec(st, &e, "INSERT INTO games (name, title, "
	    "ruleset, scenario_file, scenario_text, scenario_sha256, seed_secret, "
	    "created_at) VALUES ('old', 'Old', 'vnb-wing', 'x.scenario', 'x', ?, ?, "
	    "1)", "bb", (const void *)zero, (size_t)32, (const void *)zero,
	    (size_t)32), 0);
	store_close(st);
	/* An older copy lying about is dropped once a newer one is made. */
	snprintf(stale, sizeof(stale), "%s.before-1", dbpath);
	f = fopen(stale, "w");
	assert_non_null(f);
	fclose(f);
	umask(022);
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_int_equal(store_upgraded_from(st, &copy), 2);
	snprintf(want, sizeof(want), "%s.before-2", dbpath);
	assert_string_equal(copy, want);
	assert_int_equal(store_version(st), store_latest_version());
	store_close(st);
	assert_int_equal(stat(want, &sb), 0);
	assert_int_equal(sb.st_mode & 0777, 0600);
	assert_int_not_equal(stat(stale, &sb), 0);
	/* The copy is the store as it was: schema version 2, with its game. */
	assert_int_equal(store_open(want, 0, 2, &old, &e), 0);
	assert_int_equal(store_version(old), 2);
	{
		char *title = NULL;

		assert_int_equal(store_query_text(old, &e, &title, NULL, "SELECT "
		    "title FROM games WHERE name = 'old'", ""), 1);
		assert_string_equal(title, "Old");
		free(title);
	}
	store_close(old);
	/* At the newest version already: no copy, and the one kept stays. */
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_int_equal(store_upgraded_from(st, NULL), 0);
	store_close(st);
	assert_int_equal(stat(want, &sb), 0);
	unlink(want);
	snprintf(p, sizeof(p), "%s-wal", want);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", want);
	unlink(p);
}

/* --- migrations under a crash ------------------------------------------
 * A VFS shim that kills the process at its K-th sync: run in a child for
 * K = 1, 2, ... until the child gets through, it cuts the power at every
 * point where SQLite makes something durable, wherever the code puts its
 * statements.  After each cut the database must be at some version V with
 * exactly the schema that migrations 1..V make: the version moves with the
 * schema, in the same transaction (issue 20, 2). */
struct shim_file {
	sqlite3_file base;
	sqlite3_file *real;   /* follows this struct in the same allocation */
};

static sqlite3_vfs *shim_real;
static sqlite3_vfs shim_vfs;
static sqlite3_io_methods shim_io;
static long shim_syncs, shim_kill_at;

static int shim_close(sqlite3_file *f) { struct shim_file *s = (void *)f; int rc = s->real->pMethods ? s->real->pMethods->xClose(s->real) : SQLITE_OK; return rc; }
static int shim_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { struct shim_file *s = (void *)f; return s->real->pMethods->xRead(s->real, b, n, o); }
static int shim_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o) { struct shim_file *s = (void *)f; return s->real->pMethods->xWrite(s->real, b, n, o); }
static int shim_truncate(sqlite3_file *f, sqlite3_int64 n) { struct shim_file *s = (void *)f; return s->real->pMethods->xTruncate(s->real, n); }
static int
shim_sync(sqlite3_file *f, int flags)
{
	struct shim_file *s = (void *)f;
	int rc = s->real->pMethods->xSync(s->real, flags);

	/* Killed just after the K-th sync has made its bytes durable. */
	if (++shim_syncs == shim_kill_at)
		raise(SIGKILL);
	return rc;
}
static int shim_size(sqlite3_file *f, sqlite3_int64 *n) { struct shim_file *s = (void *)f; return s->real->pMethods->xFileSize(s->real, n); }
static int shim_lock(sqlite3_file *f, int l) { struct shim_file *s = (void *)f; return s->real->pMethods->xLock(s->real, l); }
static int shim_unlock(sqlite3_file *f, int l) { struct shim_file *s = (void *)f; return s->real->pMethods->xUnlock(s->real, l); }
static int shim_check(sqlite3_file *f, int *r) { struct shim_file *s = (void *)f; return s->real->pMethods->xCheckReservedLock(s->real, r); }
static int shim_fcntl(sqlite3_file *f, int op, void *a) { struct shim_file *s = (void *)f; return s->real->pMethods->xFileControl(s->real, op, a); }
static int shim_sector(sqlite3_file *f) { struct shim_file *s = (void *)f; return s->real->pMethods->xSectorSize(s->real); }
static int shim_dev(sqlite3_file *f) { struct shim_file *s = (void *)f; return s->real->pMethods->xDeviceCharacteristics(s->real); }
static int shim_shmmap(sqlite3_file *f, int a, int b, int c, void volatile **d) { struct shim_file *s = (void *)f; return s->real->pMethods->xShmMap(s->real, a, b, c, d); }
static int shim_shmlock(sqlite3_file *f, int a, int b, int c) { struct shim_file *s = (void *)f; return s->real->pMethods->xShmLock(s->real, a, b, c); }
static void shim_shmbarrier(sqlite3_file *f) { struct shim_file *s = (void *)f; s->real->pMethods->xShmBarrier(s->real); }
static int shim_shmunmap(sqlite3_file *f, int a) { struct shim_file *s = (void *)f; return s->real->pMethods->xShmUnmap(s->real, a); }

static int
shim_open(sqlite3_vfs *v, const char *name, sqlite3_file *f, int flags,
    int *out)
{
	struct shim_file *s = (void *)f;
	int rc;

	(void)v;
	s->real = (sqlite3_file *)(s + 1);
	rc = shim_real->xOpen(shim_real, name, s->real, flags, out);
	f->pMethods = rc == SQLITE_OK ? &shim_io : NULL;
	return rc;
}

static void
shim_install(long kill_at)
{
	shim_real = sqlite3_vfs_find(NULL);
	shim_vfs = *shim_real;
	shim_vfs.zName = "killer";
	shim_vfs.szOsFile = (int)sizeof(struct shim_file) + shim_real->szOsFile;
	shim_vfs.xOpen = shim_open;
	shim_io = (sqlite3_io_methods){ 2, shim_close, shim_read, shim_write,
	    shim_truncate, shim_sync, shim_size, shim_lock, shim_unlock,
	    shim_check, shim_fcntl, shim_sector, shim_dev, shim_shmmap,
	    shim_shmlock, shim_shmbarrier, shim_shmunmap, NULL, NULL };
	shim_syncs = 0;
	shim_kill_at = kill_at;
	sqlite3_vfs_register(&shim_vfs, 1);
}

/* The schema as text, and the version, of the database at path. */
static int
schema_of(const char *path, char *out, size_t size)
{
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int v = -1;

	out[0] = '\0';
	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, "SELECT type, name, "
	    "coalesce(sql, '') FROM sqlite_master ORDER BY type, name", -1, &st,
	    NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW)
		snprintf(out + strlen(out), size - strlen(out), "%s %s %s;\n",
		    sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		    sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st,
	    NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

#define SCHEMA_MAX 200000

/* A closed database's file (no -wal left) copied, and any -wal, -shm of
 * the copy's name removed. */
static void
copy_file(const char *from, const char *to)
{
	char buf[65536], p[300];
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	size_t n;

	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	assert_int_equal(chmod(to, 0600), 0);
	snprintf(p, sizeof(p), "%s-wal", to);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", to);
	unlink(p);
}

static void
a_migration_cut_at_any_sync_leaves_its_version_with_its_schema(void **state)
{
	static char ref[64][SCHEMA_MAX / 4], got[SCHEMA_MAX];
	struct store *st = NULL;
	struct err e;
	char refpath[300];
	int latest = store_latest_version(), v, k, done = 0, cuts = 0;

	(void)state;
	assert_true(latest >= 2 && latest < 64);
	/* The schema of each version, made without a crash. */
	snprintf(refpath, sizeof(refpath), "%s.ref", dbpath);
	for (v = 1; v <= latest; v++) {
		unlink(refpath);
		assert_int_equal(store_open(refpath, 1, v, &st, &e), 0);
		store_close(st);
		assert_int_equal(schema_of(refpath, got, sizeof(got)), v);
		assert_true(strlen(got) < sizeof(ref[0]));
		memcpy(ref[v], got, strlen(got) + 1);
	}
	/* Version 1, then migrated to the latest with a cut at sync k,
	 * each time from version 1 again. */
	unlink(refpath);
	assert_int_equal(store_open(refpath, 1, 1, &st, &e), 0);
	store_close(st);
	for (k = 1; !done && k < 1000; k++) {
		pid_t pid;
		int status = 0;

		copy_file(refpath, dbpath);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			shim_install(k);
			_exit(store_open(dbpath, 0, -1, &st, &e) == 0 ? 0 : 3);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (WIFEXITED(status)) {
			assert_int_equal(WEXITSTATUS(status), 0);
			done = 1;
		} else {
			assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
			cuts++;
		}
		v = schema_of(dbpath, got, sizeof(got));
		assert_true(v >= 1 && v <= latest);
		if (strcmp(got, ref[v]) != 0)
			fail_msg("cut at sync %d: at version %d the schema is not "
			    "version %d's", k, v, v);
	}
	unlink(refpath);
	assert_true(done);
	/* Every migration commits (and syncs) at least once. */
	assert_true(cuts >= latest - 1);
	/* And opening it now neither re-runs nor skips one. */
	assert_int_equal(store_open(dbpath, 0, -1, &st, &e), 0);
	assert_int_equal(store_version(st), latest);
	store_close(st);
	assert_int_equal(schema_of(dbpath, got, sizeof(got)), latest);
	assert_string_equal(got, ref[latest]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(missing_database_is_not_created_without_create, setup, teardown),
		cmocka_unit_test_setup_teardown(migrations_bring_an_old_database_forward, setup, teardown),
		cmocka_unit_test_setup_teardown(a_campaign_keeps_a_clock_of_its_own, setup, teardown),
		cmocka_unit_test_setup_teardown(the_units_state_moves_into_one_text_a_battle, setup, teardown),
		cmocka_unit_test_setup_teardown(the_cards_move_into_the_rulesets_tables, setup, teardown),
		cmocka_unit_test_setup_teardown(the_games_due_are_read_by_their_deadline, setup, teardown),
		cmocka_unit_test_setup_teardown(newer_database_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(message_stored_twice_is_recognised, setup, teardown),
		cmocka_unit_test_setup_teardown(formed_up_detachments_load_as_infantry,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(battle_state_round_trips, setup, teardown),
		cmocka_unit_test_setup_teardown(failed_transaction_leaves_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(held_mail_is_due_for_no_sender, setup, teardown),
		cmocka_unit_test_setup_teardown(a_migration_cut_at_any_sync_leaves_its_version_with_its_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(a_migration_keeps_a_copy_of_the_store_as_it_was, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
