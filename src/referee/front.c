/*
 * front.c - what the fronts (the despatch command, despatchd) need of the
 * store, through the referee: opening it, and a game and its events as
 * they show them.  The fronts include no store header (docs/design.md).
 */
#include "referee/referee.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ledger/engine.h"
#include "referee/internal.h"
#include "report/json.h"

int
referee_open(const char *db, int create, const struct referee_opts *o,
    struct referee **out, struct err *e)
{
	struct store *st = NULL;
	struct referee *r;

	*out = NULL;
	if (o != NULL && o->busy_ms > 0)
		store_busy_timeout(o->busy_ms);
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return err_set(e, ERR_INTERNAL, "out of memory");
	if (store_open(db, create, -1, &st, e) != 0) {
		free(r);
		return -1;
	}
	referee_init_with(r, st, o);
	*out = r;
	return 0;
}

void
referee_free(struct referee *r)
{
	if (r == NULL)
		return;
	referee_fini(r);
	store_close(r->st);
	free(r);
}

int
referee_store_upgraded(struct referee *r, int *now, const char **copy)
{
	*now = store_latest_version();
	return store_upgraded_from(r->st, copy);
}

int
referee_store_check(struct referee *r, struct err *e)
{
	return store_quick_check(r->st, e);
}

int
referee_store_full(struct referee *r)
{
	return store_full(r->st);
}

int
referee_store_copy(struct referee *r, const char *to, struct err *e)
{
	return store_backup(r->st, to, e);
}

int
referee_store_file_check(const char *path, struct err *e)
{
	struct store *st = NULL;
	int rc;

	if (store_open(path, 0, -1, &st, e) != 0)
		return -1;
	rc = store_quick_check(st, e);
	store_close(st);
	return rc;
}

const char *
referee_from(const struct referee *r)
{
	return r->from;
}

int
referee_daemon_says(struct referee *r, int pid, const char *state,
    const char *detail, int64_t at, struct err *e)
{
	return store_daemon_status_set(r->st, pid, state, detail, at, e);
}

int
referee_game_load(struct referee *r, const char *name, struct referee_game *g,
    struct battle **b, struct err *e)
{
	struct store_game sg;

	*b = NULL;
	memset(g, 0, sizeof(*g));
	if (store_game_get(r->st, name, &sg, e) != 0)
		return -1;
	if (store_battle_load(r->st, &sg, b, e) != 0) {
		store_game_clear(&sg);
		return -1;
	}
	g->id = sg.id;
	snprintf(g->name, sizeof(g->name), "%s", sg.name);
	snprintf(g->title, sizeof(g->title), "%s", sg.title);
	snprintf(g->ruleset, sizeof(g->ruleset), "%s", sg.ruleset);
	g->status = store_status_name(sg.status);
	g->running = sg.status == GAME_RUNNING;
	g->finished = sg.status == GAME_FINISHED;
	g->step = sg.step;
	g->sandbox = sg.sandbox;
	snprintf(g->visibility, sizeof(g->visibility), "%s", sg.visibility);
	snprintf(g->result, sizeof(g->result), "%s", sg.result);
	store_game_clear(&sg);
	return 0;
}

int
referee_game_events(struct referee *r, int64_t game, int step,
    struct events *ev, int **steps, struct err *e)
{
	return store_events_load(r->st, game, step, ev, steps, e);
}

int
referee_outbox_print(struct referee *r, FILE *out, int as_json, struct err *e)
{
	struct store_mail *m = NULL;
	int n = 0, i;

	if (store_outbox_list(r->st, 1, &m, &n, e) != 0)
		return -1;
	if (as_json) {
		struct jw j;

		jw_init(&j, out);
		jw_arr(&j, NULL);
		for (i = 0; i < n; i++) {
			jw_obj(&j, NULL);
			jw_int(&j, "id", m[i].id);
			jw_str(&j, "message_id", m[i].message_id);
			jw_str(&j, "to", m[i].recipient);
			jw_str(&j, "subject", m[i].subject);
			jw_str(&j, "kind", m[i].kind);
			jw_int(&j, "bytes", (int64_t)m[i].len);
			jw_int(&j, "attempts", m[i].attempts);
			if (m[i].last_error[0] != '\0')
				jw_str(&j, "last_error", m[i].last_error);
			if (m[i].failed_at != 0)
				jw_int(&j, "failed_at", m[i].failed_at);
			jw_end_obj(&j);
		}
		jw_end_arr(&j);
		jw_done(&j);
	} else {
		int failed = 0;

		for (i = 0; i < n; i++) {
			fprintf(out, "%6lld  %-8s %-32s %s\n", (long long)m[i].id,
			    m[i].kind, m[i].recipient, m[i].subject);
			if (m[i].failed_at != 0) {
				fprintf(out, "        FAILED: %s\n", m[i].last_error);
				failed++;
			} else if (m[i].attempts > 0) {
				fprintf(out, "        %d attempt%s; last: %s\n",
				    m[i].attempts, m[i].attempts == 1 ? "" : "s",
				    m[i].last_error);
			}
		}
		fprintf(out, "%d mail%s waiting", n - failed,
		    n - failed == 1 ? "" : "s");
		if (failed > 0)
			fprintf(out, ", %d failed for good", failed);
		fprintf(out, "\n");
	}
	store_mails_free(m, n);
	return 0;
}

int
referee_status_print(struct referee *r, FILE *out, struct err *e)
{
	struct store_mail *m = NULL;
	char *state = NULL, *detail = NULL, *names = NULL, *name, *save = NULL;
	int64_t pid = 0, at = 0;
	int n = 0, i, waiting = 0, failed = 0, retrying = 0;

	if (store_daemon_status(r->st, &state, &detail, &pid, &at, e) < 0 ||
	    store_outbox_list(r->st, 1, &m, &n, e) != 0) {
		free(state);
		free(detail);
		return -1;
	}
	if (state == NULL) {
		fprintf(out, "despatchd  never ran on this database\n");
	} else {
		int alive = strcmp(state, "running") == 0 && kill((pid_t)pid, 0) == 0;
		char when[64];
		time_t t = (time_t)at;
		struct tm tm;

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
		fprintf(out, "despatchd  %s (pid %lld), as of %s: %s\n", alive ? "running" :
		    strcmp(state, "running") == 0 ? "gone (it did not stop cleanly)" :
		    state, (long long)pid, when, detail ? detail : "");
	}
	for (i = 0; i < n; i++) {
		if (m[i].failed_at != 0)
			failed++;
		else if (m[i].attempts > 0)
			retrying++;
		else
			waiting++;
	}
	fprintf(out, "outbox     %d waiting, %d being retried, %d failed for good%s\n",
	    waiting, retrying, failed, failed ? " (see 'despatch outbox')" : "");
	store_mails_free(m, n);
	{
		int64_t spooled = 0, kept = 0;

		if (store_spool_counts(r->st, &spooled, &kept, e) == 0)
			fprintf(out, "spool      %lld taken from the mailbox and not yet "
			    "read, %lld the intake failed on%s\n", (long long)spooled,
			    (long long)kept, kept ? " (kept in the spool table, "
			    "with the error)" : "");
	}
	names = store_game_names(r->st);
	for (name = names ? strtok_r(names, "\n", &save) : NULL; name != NULL;
	    name = strtok_r(NULL, "\n", &save)) {
		int64_t dl = 0, step = 0, id = 0;
		enum game_status gst = GAME_SETUP;
		struct store_clock c;
		const char *gstatus = NULL;
		int found = store_game_find(r->st, name, &id, &gst, &step, e);

		if (found < 0 || (found == 1 && store_game_clock(r->st, id, &c,
		    e) != 0))
			break;
		if (found == 1) {
			gstatus = store_status_name(gst);
			dl = c.deadline;
		}
		if (dl > 0) {
			char when[64];
			time_t t = (time_t)dl;
			struct tm tm;

			gmtime_r(&t, &tm);
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
			fprintf(out, "game       %-16s %s, step %lld, deadline %s\n", name,
			    gstatus ? gstatus : "?", (long long)step, when);
		} else {
			fprintf(out, "game       %-16s %s, step %lld\n", name, gstatus ?
			    gstatus : "?", (long long)step);
		}
		if (gstatus != NULL && strcmp(gstatus, "running") == 0) {
			/* Played by another engine: no phase is played until the
			 * operator carries it over. */
			int eng = 0;

			if (referee_engine_of(r, id, &eng, e) == 0 &&
			    eng != ledger_engine_current()) {
				const struct ledger_engine *en = ledger_engine_get(eng);

				fprintf(out, "           %-16s WAITS: played by rules engine "
				    "%d, this build plays %d; %s%s\n", "", eng,
				    ledger_engine_current(), eng > ledger_engine_current() ?
				    "run a newer despatch" : en == NULL ||
				    en->state_hash == NULL ? "this build cannot carry it "
				    "over: finish it with " : "run 'despatch game upgrade' "
				    "for it", eng < ledger_engine_current() && (en == NULL ||
				    en->state_hash == NULL) ? (en != NULL ? en->build :
				    "the build that played it") : "");
			}
		}
	}
	free(names);
	free(state);
	free(detail);
	return 0;
}
