/*
 * test_spool.c - mail made durable first and read after: what the spool
 * holds is read in order, each mail once, with its arrival time; a mail
 * spooled twice (a crash between the spool and the mailbox move) is
 * answered once; nothing is read that was not committed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "referee/referee.h"
#include "store/store.h"
#include "store/sqlite.h"
#include "fixture.h"

#define HDR "GAME mill SIDE crown TURN 1 PASSWORD red-coat-secret\r\n"

static void
spool(struct fx *f, const char *raw, int64_t arrived, const char *source)
{
	struct err e;

	if (referee_spool_add(&f->r, raw, strlen(raw), arrived, source, &e) != 0)
		fail_msg("%s", e.msg);
}

struct said {
	char sources[8][32];
	char status[8][32];
	int n;
};

static void
said(void *arg, const char *source, const struct submit_result *res,
    const struct err *e)
{
	struct said *s = arg;

	(void)e;
	if (s->n < 8) {
		snprintf(s->sources[s->n], sizeof(s->sources[0]), "%s", source);
		snprintf(s->status[s->n], sizeof(s->status[0]), "%s", res ?
		    (res->outcome == SUBMIT_DUPLICATE ? "duplicate" : res->status) :
		    "failed");
		s->n++;
	}
}

static void
spooled_mail_is_read_in_order_once_with_its_arrival(void **state)
{
	struct fx *f = *state;
	struct spool_result res;
	struct said s;
	struct err e;
	int64_t waiting = -1, failed = -1;
	char *a, *b;

	start(f);
	a = mail("a@x", "howe@crown.example.org", HDR "23rd Foot: HOLD\r\n");
	b = mail("b@x", "someone@else.example.org", "Who is winning?\r\n");
	assert_int_equal(referee_batch_begin(&f->r, &e), 0);
	spool(f, a, 1690000000, "imap uid 7");
	spool(f, b, 0, "imap uid 8");
	assert_int_equal(referee_batch_commit(&f->r, &e), 0);
	/* Durable, not yet read: nothing answered, nothing stored. */
	assert_int_equal(referee_spool_pending(&f->r, &waiting, &failed, &e), 0);
	assert_int_equal(waiting, 2);
	assert_int_equal(failed, 0);
	assert_int_equal(count(f, "messages"), 0);

	memset(&s, 0, sizeof(s));
	assert_int_equal(referee_spool_run(&f->r, 64, said, &s, &res, &e), 0);
	assert_int_equal(res.read, 2);
	assert_int_equal(res.failed, 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.sources[0], "imap uid 7");
	assert_string_equal(s.status[0], "orders");
	assert_string_equal(s.sources[1], "imap uid 8");
	assert_int_equal(count(f, "messages"), 2);
	assert_int_equal(orders_for(f, 1, 0), 1);
	/* The orders' mail keeps the time the mailbox took it. */
	assert_int_equal(q(f, "SELECT received_at FROM messages WHERE "
	    "message_id = 'a@x'"), 1690000000);
	assert_int_equal(q(f, "SELECT count(*) FROM spool"), 0);

	/* Spooled again (a crash before the move): read as a duplicate,
	 * neither stored nor answered twice. */
	{
		int64_t out = count(f, "outbox");

		spool(f, a, 1690000000, "imap uid 7");
		memset(&s, 0, sizeof(s));
		assert_int_equal(referee_spool_run(&f->r, 64, said, &s, &res, &e),
		    0);
		assert_int_equal(res.read, 1);
		assert_string_equal(s.status[0], "duplicate");
		assert_int_equal(count(f, "outbox"), out);
		assert_int_equal(count(f, "messages"), 2);
	}
	free(a);
	free(b);
}

/* Issue 24: a batch of mails for one game reads its battle once and lends
 * each mail a copy; each mail's transaction checks the kept one against
 * the game as it finds it, so a step moved under the batch (as another
 * server sharing the store would move it) is read again; the replies'
 * maps, drawn after the commit, borrow it too; the batch's end forgets
 * it. */
static void
a_batch_reads_a_games_battle_once(void **state)
{
	struct fx *f = *state;
	struct submit_result res;
	struct err e;
	char *m[4], id[16];
	long loads, hits;
	int i;

	start(f);
	for (i = 0; i < 4; i++) {
		snprintf(id, sizeof(id), "bc%d@x", i);
		m[i] = mail(id, "howe@crown.example.org", HDR "23rd Foot: HOLD\r\n");
	}
	loads = f->r.bc.loads;
	hits = f->r.bc.hits;
	assert_int_equal(referee_batch_begin(&f->r, &e), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(referee_submit(&f->r, m[i], strlen(m[i]), NULL,
		    &res, &e), 0);
		assert_string_equal(res.status, "orders");
	}
	assert_int_equal(f->r.bc.loads - loads, 1);
	assert_int_equal(f->r.bc.hits - hits, 2);
	assert_int_equal(store_exec(f->st, &e, "UPDATE games SET step = step + 1",
	    ""), 0);
	assert_int_equal(referee_submit(&f->r, m[3], strlen(m[3]), NULL, &res,
	    &e), 0);
	assert_int_equal(f->r.bc.loads - loads, 2);
	assert_int_equal(store_exec(f->st, &e, "UPDATE games SET step = step - 1",
	    ""), 0);
	hits = f->r.bc.hits;
	assert_int_equal(referee_batch_commit(&f->r, &e), 0);
	/* Three maps: the first reads the battle again (the step moved
	 * back), the other two borrow it. */
	assert_int_equal(f->r.bc.loads - loads, 3);
	assert_int_equal(f->r.bc.hits - hits, 2);
	assert_null(f->r.bc.b);
	assert_int_equal(f->r.bc.on, 0);
	for (i = 0; i < 4; i++)
		free(m[i]);
}

static void
a_batch_rolled_back_leaves_nothing_to_read(void **state)
{
	struct fx *f = *state;
	struct spool_result res;
	struct err e;
	char *a;

	start(f);
	a = mail("c@x", "howe@crown.example.org", HDR "23rd Foot: HOLD\r\n");
	assert_int_equal(referee_batch_begin(&f->r, &e), 0);
	spool(f, a, 0, "maildir 1.x");
	referee_batch_abort(&f->r);
	assert_int_equal(referee_spool_run(&f->r, 64, NULL, NULL, &res, &e), 0);
	assert_int_equal(res.read, 0);
	assert_int_equal(count(f, "messages"), 0);
	free(a);
}

static void
reading_goes_in_batches_until_the_spool_is_empty(void **state)
{
	struct fx *f = *state;
	struct spool_result res;
	struct err e;
	int i;

	start(f);
	assert_int_equal(referee_batch_begin(&f->r, &e), 0);
	for (i = 0; i < 7; i++) {
		char id[16], *m;

		snprintf(id, sizeof(id), "m%d@x", i);
		m = mail(id, "greene@cont.example.org", "GAME mill SIDE continental "
		    "PASSWORD blue-coat-secret\r\nSTATUS\r\n");
		spool(f, m, 0, id);
		free(m);
	}
	assert_int_equal(referee_batch_commit(&f->r, &e), 0);
	/* Batches of 3: three transactions, every mail read once. */
	assert_int_equal(referee_spool_run(&f->r, 3, NULL, NULL, &res, &e), 0);
	assert_int_equal(res.read, 7);
	assert_int_equal(count(f, "messages"), 7);
	assert_int_equal(q(f, "SELECT count(*) FROM spool"), 0);
}

/* A mail that fails halfway through its intake (here: its answer cannot be
 * queued) leaves no row of its own, while the mails before and after it
 * in the same batch are stored and answered.  Each mail is a savepoint
 * inside the batch's transaction: its rollback must undo its rows
 * (ROLLBACK TO), not merely end the savepoint (RELEASE), which would
 * commit them with the batch (issue 20, 1). */
static void
a_mail_that_fails_halfway_leaves_no_rows_while_its_batch_commits(void **state)
{
	struct fx *f = *state;
	struct spool_result res;
	struct said s;
	struct err e;
	char *a, *b, *c;

	start(f);
	/* The fault: storing an order line that advances 3 fails, after the
	 * intake has stored the mail's own row. */
	assert_int_equal(store_exec(f->st, &e, "CREATE TEMP TRIGGER poison "
	    "BEFORE INSERT ON orders WHEN NEW.raw LIKE '%ADVANCE 3%' "
	    "BEGIN SELECT RAISE(ABORT, 'injected fault'); END", ""), 0);
	a = mail("p1@x", "howe@crown.example.org", HDR "23rd Foot: HOLD\r\n");
	b = mail("p2@x", "howe@crown.example.org", HDR "23rd Foot: ADVANCE 3\r\n");
	c = mail("p3@x", "greene@cont.example.org", "GAME mill SIDE continental "
	    "PASSWORD blue-coat-secret\r\nSTATUS\r\n");
	assert_int_equal(referee_batch_begin(&f->r, &e), 0);
	spool(f, a, 0, "m1");
	spool(f, b, 0, "m2");
	spool(f, c, 0, "m3");
	assert_int_equal(referee_batch_commit(&f->r, &e), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(referee_spool_run(&f->r, 64, said, &s, &res, &e), 0);
	assert_int_equal(res.read, 2);
	assert_int_equal(res.failed, 1);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.status[1], "failed");
	/* The mails around it: stored, answered, their orders standing. */
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id "
	    "IN ('p1@x', 'p3@x')"), 2);
	assert_int_equal(orders_for(f, 1, 0), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM orders WHERE raw LIKE "
	    "'%HOLD%' AND superseded = 0"), 1);
	assert_true(q(f, "SELECT count(*) FROM outbox WHERE recipient LIKE "
	    "'greene@%' AND kind <> 'welcome'") >= 1);
	/* The failed one: nothing of it but its spool row, kept with why. */
	assert_int_equal(q(f, "SELECT count(*) FROM messages WHERE message_id "
	    "= 'p2@x'"), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM orders WHERE raw LIKE "
	    "'%ADVANCE%'"), 0);
	assert_int_equal(q(f, "SELECT count(*) FROM spool WHERE failed_at IS "
	    "NOT NULL AND error LIKE '%injected fault%'"), 1);
	assert_int_equal(q(f, "SELECT count(*) FROM spool"), 1);
	free(a);
	free(b);
	free(c);
}

/* A spooled mail whose reading fails for a passing reason (here the
 * database is full: max_page_count) waits in the spool, not marked failed
 * for good, and is read once there is room again (mutation round, 25). */
static void
a_mail_that_meets_a_full_database_waits_in_the_spool(void **state)
{
	struct fx *f = *state;
	struct spool_result res;
	struct err e;
	int64_t pages = 0, waiting = -1, failed = -1;
	char *a, *body;
	size_t i;

	start(f);
	/* Large enough that storing it needs new pages. */
	body = malloc(64 * 1024);
	assert_non_null(body);
	strcpy(body, HDR "23rd Foot: HOLD\r\n");
	for (i = strlen(body); i < 60 * 1024; i += 50)
		strcat(body, "# a long letter home, line after line of it.....\r\n");
	a = mail("full@x", "howe@crown.example.org", body);
	free(body);
	assert_int_equal(referee_batch_begin(&f->r, &e), 0);
	spool(f, a, 0, "m1");
	assert_int_equal(referee_batch_commit(&f->r, &e), 0);
	assert_int_equal(store_query_int(f->st, &e, &pages, "PRAGMA page_count",
	    ""), 1);
	assert_int_equal(store_exec(f->st, &e, "PRAGMA max_page_count = 1", ""),
	    0);
	/* SQLite undoes the whole batch on a full database: a passing
	 * failure of the round, the mail still waiting. */
	err_clear(&e);
	if (referee_spool_run(&f->r, 64, NULL, NULL, &res, &e) != 0 &&
	    e.kind != ERR_TEMP)
		fail_msg("not a passing failure: %s", e.msg);
	assert_int_equal(res.read, 0);
	assert_int_equal(res.failed, 0);
	assert_int_equal(referee_spool_pending(&f->r, &waiting, &failed, &e), 0);
	assert_int_equal(waiting, 1);
	assert_int_equal(failed, 0);
	assert_int_equal(count(f, "messages"), 0);
	/* Room again: read, once. */
	assert_int_equal(store_exec(f->st, &e, "PRAGMA max_page_count = "
	    "1073741823", ""), 0);
	assert_int_equal(referee_spool_run(&f->r, 64, NULL, NULL, &res, &e), 0);
	assert_int_equal(res.read, 1);
	assert_int_equal(count(f, "messages"), 1);
	assert_int_equal(orders_for(f, 1, 0), 1);
	free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(spooled_mail_is_read_in_order_once_with_its_arrival, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_batch_rolled_back_leaves_nothing_to_read, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_batch_reads_a_games_battle_once, setup_live, teardown),
		cmocka_unit_test_setup_teardown(reading_goes_in_batches_until_the_spool_is_empty, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_mail_that_fails_halfway_leaves_no_rows_while_its_batch_commits, setup_live, teardown),
		cmocka_unit_test_setup_teardown(a_mail_that_meets_a_full_database_waits_in_the_spool, setup_live, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
