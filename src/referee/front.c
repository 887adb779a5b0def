/*
 * front.c - what the fronts (the despatch command, despatchd) need of the
 * store, through the referee: opening it, and a game and its events as
 * they show them.  The fronts include no store header (docs/design.md).
 */
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
