/*
 * spool.c - mail made durable first, read after (referee.h).
 *
 * The daemon drains its mailbox into the spool table: each mail one
 * insert, a batch of them one transaction and one sync, then the batch is
 * moved out of the mailbox.  Reading a mail (referee_submit_at: parsing,
 * storing its orders, queueing the answers) comes after, each spooled mail
 * in the same transaction as the delete of its row.  So the mailbox is
 * emptied at the rate the disk takes small inserts, a flood of mail waits
 * in the database rather than on the server, and no crash loses a mail or
 * answers one twice (a mail fed again is a duplicate to the intake).
 */
#include <stdlib.h>
#include <string.h>

#include "referee/internal.h"
#include "core/crash.h"
#include "referee/referee.h"
#include "store/store.h"

int
referee_spool_add(struct referee *r, const char *raw, size_t len,
    int64_t arrived, const char *source, struct err *e)
{
	if (crash_fault_point("spool-add"))
		return err_set(e, ERR_TEMP, "database: writing: a passing fault "
		    "(injected by DESPATCH_FAULT)");
	return store_spool_add(r->st, raw, len, arrived, source, e);
}

int
referee_spool_pending(struct referee *r, int64_t *waiting, int64_t *failed,
    struct err *e)
{
	return store_spool_counts(r->st, waiting, failed, e);
}

/* One spooled mail: read, then its row deleted, in the caller's batch.
 * 0 done, 1 stop (a passing failure), -1 a store error. */
static int
spool_one(struct referee *r, int64_t id, void (*report)(void *arg,
    const char *source, const struct submit_result *res, const struct err *e),
    void *arg, struct spool_result *out, struct err *e)
{
	char *raw = NULL, source[256] = "";
	size_t len = 0;
	int64_t arrived = 0;
	struct submit_result res;
	struct err se;
	int rc;

	if (store_spool_get(r->st, id, &raw, &len, &arrived, source,
	    sizeof(source), e) < 0)
		return -1;
	err_clear(&se);
	rc = referee_submit_at(r, raw != NULL ? raw : "", len, NULL, arrived,
	    &res, &se);
	if (rc == 0) {
		rc = store_spool_done(r->st, id, e) == 0 ? 0 : -1;
		if (rc == 0)
			out->read++;
	} else if (se.kind == ERR_TEMP) {
		rc = 1;
		out->waiting++;
	} else {
		/* Not a player's mistake (those are answered): kept, with
		 * why, never tried again by itself. */
		rc = store_spool_failed(r->st, id, referee_now(r), se.msg,
		    e) == 0 ? 0 : -1;
		if (rc == 0)
			out->failed++;
	}
	if (report != NULL && rc >= 0)
		report(arg, source, rc == 0 &&
		    se.kind == ERR_NONE ? &res : NULL, &se);
	free(raw);
	return rc;
}

int
referee_spool_run(struct referee *r, int batch, void (*report)(void *arg,
    const char *source, const struct submit_result *res, const struct err *e),
    void *arg, struct spool_result *out, struct err *e)
{
	memset(out, 0, sizeof(*out));
	if (batch < 1)
		batch = 1;
	for (;;) {
		int64_t id = 0, next = 0;
		int k, stop = 0;

		if (store_spool_next(r->st, 0, &next, e) != 0)
			return -1;
		if (next == 0)
			return 0;
		if (referee_batch_begin(r, e) != 0)
			return -1;
		/* Claimed again inside the transaction: another server
		 * sharing the store may have read it since the look. */
		if (store_spool_next(r->st, 0, &next, e) != 0) {
			referee_batch_abort(r);
			return -1;
		}
		for (k = 0; k < batch && !stop && next != 0; k++) {
			int rc;

			id = next;
			rc = spool_one(r, id, report, arg, out, e);
			if (rc < 0) {
				referee_batch_abort(r);
				return -1;
			}
			stop = rc == 1;
			next = 0;
			if (!stop && store_spool_next(r->st, id, &next,
			    e) != 0) {
				referee_batch_abort(r);
				return -1;
			}
		}
		if (referee_batch_commit(r, e) != 0)
			return -1;
		crash_point("after-read");
		if (stop || next == 0)
			return 0;
	}
}
