/*
 * status.c - the server and its games at a glance, for eyes and for a
 * monitoring check (`despatch status`, `despatch games`; despatch(1)).
 *
 * Everything is gathered first and printed after, so a store that fails
 * half way prints nothing half done, and the text and the JSON (whose
 * shape docs/json.md gives) say the same facts.  Whether despatchd runs
 * is not the store's to know: the front looks at the daemon's lock and
 * passes what it found.
 */
#include "referee/referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaign/campaign.h"
#include "ledger/engine.h"
#include "referee/internal.h"
#include "report/report.h"
#include "report/json.h"

#define WARN_MAX 8

/* A game as the listings show it. */
struct game_line {
	char name[64];
	char ruleset[BATTLE_ID_MAX];
	const char *status;     /* setup, running, paused, over */
	char phase[BATTLE_ID_MAX]; /* the side whose phase is open; "" none */
	int64_t step;
	int turn, turns;        /* turn 0: not begun, or the deployment */
	int begun;              /* turn is the one on (0 for the deployment) */
	int64_t deadline;       /* 0: none */
	char deadline_local[128]; /* in the game's time zone */
	char waits[400];        /* why no phase is played; "" */
	char campaign[64];      /* the campaign it is a battle of; "" */
	int64_t id;             /* battles are listed in the order made */
};

/* A campaign as the listings show it: its battles are listed under it. */
struct campaign_line {
	char name[64];
	const char *status;     /* setup, running, over */
	int turn, turns;        /* the turn on (running) or the last, of the
	                         * calendar's; 0 before the start */
	char date[32];          /* that turn's */
	int battles;            /* the turn marched waits for its battles */
};


/* Why game id, running, plays no phase: another rules engine played it
 * (as 'status' has always said it); "" when it plays on. */
static int
game_waits(struct referee *r, int64_t id, char *out, size_t size,
    struct err *e)
{
	const struct ledger_engine *en;
	int eng = 0, now = ledger_engine_current();

	*out = '\0';
	if (referee_engine_of(r, id, &eng, e) != 0)
		return -1;
	if (eng == now)
		return 0;
	en = ledger_engine_get(eng);
	snprintf(out, size, "played by rules engine %d, this build plays %d; "
	    "%s%s", eng, now, eng > now ? "run a newer despatch" : en == NULL ||
	    en->state_hash == NULL ? "this build cannot carry it over: finish it "
	    "with " : "run 'despatch game upgrade' for it", eng < now &&
	    (en == NULL || en->state_hash == NULL) ? (en != NULL ? en->build :
	    "the build that played it") : "");
	return 0;
}

/* Every game (*out malloc'd, *n of them): 0, or -1 with e set. */
static int
games_gather(struct referee *r, struct game_line **out, int *n, struct err *e)
{
	char *names = store_game_names(r->st), *name, *save = NULL;
	struct game_line *v = NULL;
	int cap = 0, rc = 0;

	*out = NULL;
	*n = 0;
	for (name = names ? strtok_r(names, "\n", &save) : NULL; name != NULL;
	    name = strtok_r(NULL, "\n", &save)) {
		struct store_game g;
		struct store_clock c;
		struct battle *b = NULL;
		struct game_line *l;

		if (*n == cap) {
			struct game_line *nv;

			cap = cap ? cap * 2 : 16;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (nv == NULL) {
				rc = err_set(e, ERR_TEMP, "out of memory");
				break;
			}
			v = nv;
		}
		l = &v[*n];
		memset(l, 0, sizeof(*l));
		memset(&g, 0, sizeof(g));
		memset(&c, 0, sizeof(c));
		if (store_game_get(r->st, name, &g, e) != 0 ||
		    store_battle_load(r->st, &g, &b, e) != 0 ||
		    store_game_clock(r->st, g.id, &c, e) != 0) {
			store_game_clear(&g);
			battle_free(b);
			rc = -1;
			break;
		}
		snprintf(l->name, sizeof(l->name), "%s", g.name);
		l->id = g.id;
		if (store_game_campaign(r->st, g.id, l->campaign, e) < 0) {
			store_game_clear(&g);
			battle_free(b);
			rc = -1;
			break;
		}
		snprintf(l->ruleset, sizeof(l->ruleset), "%s", g.ruleset);
		l->step = g.step;
		l->turns = b->turns;
		l->status = g.status == GAME_SETUP ? "setup" : g.status ==
		    GAME_FINISHED ? "over" : c.paused ? "paused" : "running";
		if (g.status != GAME_SETUP && g.step > 0) {
			int ps = battle_step_side(b, g.step);

			l->turn = battle_step_turn(b, g.step);
			l->begun = 1;
			if (l->turn > b->turns)
				l->turn = b->turns;
			if (g.status == GAME_RUNNING && (ps >= 0 ||
			    battle_step_deploys(b, g.step)))
				snprintf(l->phase, sizeof(l->phase), "%s",
				    report_phase_id(b, g.step));
		}
		if (g.status == GAME_RUNNING && !c.paused && c.deadline > 0) {
			l->deadline = c.deadline;
			referee_clock_format(r, g.id, c.deadline, l->deadline_local,
			    sizeof(l->deadline_local));
		}
		if (g.status == GAME_RUNNING && game_waits(r, g.id, l->waits,
		    sizeof(l->waits), e) != 0) {
			store_game_clear(&g);
			battle_free(b);
			rc = -1;
			break;
		}
		store_game_clear(&g);
		battle_free(b);
		(*n)++;
	}
	free(names);
	if (rc != 0) {
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

/* Every campaign (*out malloc'd, *n of them): 0, or -1 with e set. */
static int
campaigns_gather(struct referee *r, struct campaign_line **out, int *n,
    struct err *e)
{
	char *names = store_campaign_names(r->st), *name, *save = NULL;
	struct campaign_line *v = NULL;
	int cap = 0, rc = 0;

	*out = NULL;
	*n = 0;
	for (name = names ? strtok_r(names, "\n", &save) : NULL; name != NULL;
	    name = strtok_r(NULL, "\n", &save)) {
		struct store_campaign sc;
		struct campaign *c = NULL;
		struct campaign_line *l;

		if (*n == cap) {
			struct campaign_line *nv;

			cap = cap ? cap * 2 : 8;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (nv == NULL) {
				rc = err_set(e, ERR_TEMP, "out of memory");
				break;
			}
			v = nv;
		}
		l = &v[*n];
		memset(l, 0, sizeof(*l));
		if (store_campaign_get(r->st, name, &sc, e) != 0) {
			rc = -1;
			break;
		}
		if (referee_campaign_load(r, &sc, &c, e) != 0) {
			store_campaign_clear(&sc);
			rc = -1;
			break;
		}
		snprintf(l->name, sizeof(l->name), "%s", sc.name);
		l->status = sc.status == GAME_SETUP ? "setup" :
		    sc.status == GAME_FINISHED ? "over" : "running";
		/* Running: the turn being played (its battles on) or whose
		 * orders are taken; over: the last. */
		l->turns = (c->end_day - c->start_day + 1) * c->halves;
		l->turn = sc.status == GAME_RUNNING && c->turn < l->turns ?
		    c->turn + 1 : c->turn;
		l->battles = sc.pending != NULL;
		campaign_date_fmt(c->start_day + (l->turn > 0 ? l->turn - 1 : 0) /
		    c->halves, l->date, sizeof(l->date));
		campaign_free(c);
		store_campaign_clear(&sc);
		(*n)++;
	}
	free(names);
	if (rc != 0) {
		free(v);
		*n = 0;
		return -1;
	}
	*out = v;
	return 0;
}

static void
campaign_json(struct jw *j, const struct campaign_line *l)
{
	jw_obj(j, NULL);
	jw_str(j, "name", l->name);
	jw_str(j, "status", l->status);
	jw_int(j, "turn", l->turn);
	jw_int(j, "turns", l->turns);
	jw_str(j, "date", l->date);
	jw_bool(j, "battles", l->battles);
	jw_end_obj(j);
}

/* The next game of campaign after game id `after` in the order made
 * (-1: none). */
static int
next_battle(const struct game_line *v, int n, const char *campaign,
    int64_t after)
{
	int i, best = -1;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].campaign, campaign) == 0 && v[i].id > after &&
		    (best < 0 || v[i].id < v[best].id))
			best = i;
	return best;
}

/* One game's line of 'games', its name indented under its campaign. */
static void
game_text(FILE *out, const struct game_line *l, int indent)
{
	char turn[32];

	if (l->begun)
		snprintf(turn, sizeof(turn), "%d/%d", l->turn, l->turns);
	else
		snprintf(turn, sizeof(turn), "-");
	fprintf(out, "%*s%-*s %-10s %-8s %-7s %s\n", indent, "", 16 - indent,
	    l->name, l->ruleset, l->status, turn, l->deadline > 0 ?
	    l->deadline_local : "-");
}

static void
game_json(struct jw *j, const struct game_line *l)
{
	char when[32];

	jw_obj(j, NULL);
	jw_str(j, "name", l->name);
	jw_str(j, "ruleset", l->ruleset);
	jw_str(j, "status", l->status);
	jw_int(j, "step", l->step);
	if (l->begun)
		jw_int(j, "turn", l->turn);
	else
		jw_null(j, "turn");
	jw_int(j, "turns", l->turns);
	jw_str(j, "phase", l->phase[0] ? l->phase : NULL);
	if (l->deadline > 0) {
		referee_utc(REFEREE_UTC_ISO, l->deadline, when, sizeof(when));
		jw_str(j, "deadline", when);
		jw_str(j, "deadline_local", l->deadline_local);
	} else {
		jw_null(j, "deadline");
		jw_null(j, "deadline_local");
	}
	jw_str(j, "waits", l->waits[0] ? l->waits : NULL);
	jw_str(j, "campaign", l->campaign[0] ? l->campaign : NULL);
	jw_end_obj(j);
}

int
referee_games_print(struct referee *r, FILE *out, int as_json, struct err *e)
{
	struct game_line *v = NULL;
	int n = 0, i;

	if (games_gather(r, &v, &n, e) != 0)
		return -1;
	if (as_json) {
		struct jw j;

		jw_init(&j, out);
		jw_arr(&j, NULL);
		for (i = 0; i < n; i++)
			game_json(&j, &v[i]);
		jw_end_arr(&j);
		jw_done(&j);
	} else {
		struct campaign_line *cv = NULL;
		int nc = 0, k;

		if (campaigns_gather(r, &cv, &nc, e) != 0) {
			free(v);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (v[i].campaign[0] == '\0')
				game_text(out, &v[i], 0);
		/* Each campaign, then its battles under it. */
		for (k = 0; k < nc; k++) {
			char turn[32];

			snprintf(turn, sizeof(turn), "%d/%d", cv[k].turn, cv[k].turns);
			fprintf(out, "%-16s %-10s %-8s %-7s %s\n", cv[k].name,
			    "campaign", cv[k].status, turn, cv[k].battles ?
			    "its battles go on" : "-");
			for (i = next_battle(v, n, cv[k].name, 0); i >= 0;
			    i = next_battle(v, n, cv[k].name, v[i].id))
				game_text(out, &v[i], 2);
		}
		free(cv);
	}
	free(v);
	return 0;
}

/* The daemon as status says it: from its lock and its last record. */
struct daemon_view {
	const char *state;      /* running, stopped, gone, never-ran, unknown,
	                         * or what the record says */
	int running;            /* 1, 0, or -1 unknown */
	int have_record;
	const char *record;     /* the state the daemon last recorded */
	int64_t pid, at;
	const char *detail;
};

static void
daemon_view(enum referee_daemon_lock lock, const char *state,
    const char *detail, int64_t pid, int64_t at, struct daemon_view *d)
{
	memset(d, 0, sizeof(*d));
	d->have_record = state != NULL;
	d->record = state;
	d->pid = pid;
	d->at = at;
	d->detail = detail;
	if (lock == REFEREE_LOCK_UNKNOWN) {
		d->state = "unknown";
		d->running = -1;
	} else if (lock == REFEREE_LOCK_HELD) {
		d->state = "running";
		d->running = 1;
	} else if (state == NULL) {
		d->state = "never-ran";
	} else if (strcmp(state, "running") == 0 ||
	    strcmp(state, "mail-failing") == 0) {
		/* It said it ran, and holds no lock: killed, or its machine
		 * went down. */
		d->state = "gone";
	} else {
		d->state = state;
	}
}

/* Whether the running daemon's last word is that a mail server fails
 * (its state "mail-failing"; the detail says which and why). */
static const char *
server_failing(const struct daemon_view *d)
{
	if (d->running != 1 || d->record == NULL ||
	    strcmp(d->record, "mail-failing") != 0)
		return NULL;
	return d->detail != NULL ? d->detail : "(no detail recorded)";
}

/* One game's line of 'status' (and the next, when it waits), its name
 * indented under its campaign. */
static void
status_game(FILE *out, const struct game_line *l, int indent)
{
	char turn[80] = "", when[64];

	if (l->begun)
		snprintf(turn, sizeof(turn), ", turn %d of %d%s%s%s", l->turn,
		    l->turns, l->phase[0] ? " (" : "", l->phase,
		    l->phase[0] ? ")" : "");
	if (l->deadline > 0) {
		referee_utc(REFEREE_UTC_MINUTES, l->deadline, when, sizeof(when));
		fprintf(out, "game       %*s%-*s %s%s, step %lld, deadline %s\n",
		    indent, "", 16 - indent, l->name, l->status, turn,
		    (long long)l->step, when);
	} else {
		fprintf(out, "game       %*s%-*s %s%s, step %lld\n", indent, "",
		    16 - indent, l->name, l->status, turn, (long long)l->step);
	}
	if (l->waits[0] != '\0')
		fprintf(out, "           %-16s WAITS: %s\n", "", l->waits);
}

int
referee_status_print(struct referee *r, FILE *out, int as_json,
    enum referee_daemon_lock lock, const char *lock_note, struct err *e)
{
	struct store_mail *m = NULL;
	struct game_line *games = NULL;
	struct campaign_line *camps = NULL;
	struct daemon_view d;
	char *state = NULL, *detail = NULL;
	char warn[WARN_MAX][512];
	int64_t pid = 0, at = 0, spooled = 0, kept = 0;
	int n = 0, i, ngames = 0, nwarn = 0, waiting = 0, failed = 0;
	int retrying = 0, rc, ncamps = 0, k;
	const char *failing, *word;

	if (store_daemon_status(r->st, &state, &detail, &pid, &at, e) < 0 ||
	    store_outbox_list(r->st, 1, &m, &n, e) != 0 ||
	    store_spool_counts(r->st, &spooled, &kept, e) != 0 ||
	    games_gather(r, &games, &ngames, e) != 0 ||
	    campaigns_gather(r, &camps, &ncamps, e) != 0) {
		store_mails_free(m, n);
		free(games);
		free(state);
		free(detail);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (m[i].failed_at != 0)
			failed++;
		else if (m[i].attempts > 0)
			retrying++;
		else
			waiting++;
	}
	store_mails_free(m, n);
	daemon_view(lock, state, detail, pid, at, &d);
	/* What a monitoring check should hear of, each a line. */
	if (failed > 0 && nwarn < WARN_MAX)
		snprintf(warn[nwarn++], sizeof(warn[0]), "%d mail%s failed for good "
		    "(see 'despatch outbox')", failed, failed == 1 ? "" : "s");
	if (kept > 0 && nwarn < WARN_MAX)
		snprintf(warn[nwarn++], sizeof(warn[0]), "the intake failed on %lld "
		    "spooled mail%s (kept in the spool table, with the error)",
		    (long long)kept, kept == 1 ? "" : "s");
	if ((failing = server_failing(&d)) != NULL && nwarn < WARN_MAX)
		snprintf(warn[nwarn++], sizeof(warn[0]), "a mail server fails: "
		    "%.400s", failing);
	for (i = 0; i < ngames && nwarn < WARN_MAX; i++)
		if (games[i].waits[0] != '\0')
			snprintf(warn[nwarn++], sizeof(warn[0]), "game %s waits: %.400s",
			    games[i].name, games[i].waits);
	rc = d.running < 0 ? REFEREE_STATUS_UNKNOWN : d.running == 0 ?
	    REFEREE_STATUS_DOWN : nwarn > 0 ? REFEREE_STATUS_WARN :
	    REFEREE_STATUS_OK;
	word = rc == REFEREE_STATUS_OK ? "ok" : rc == REFEREE_STATUS_WARN ?
	    "warning" : rc == REFEREE_STATUS_DOWN ? "down" : "unknown";
	if (as_json) {
		struct jw j;
		char when[32];

		jw_init(&j, out);
		jw_obj(&j, NULL);
		jw_str(&j, "status", word);
		jw_int(&j, "exit", rc);
		jw_arr(&j, "warnings");
		for (i = 0; i < nwarn; i++)
			jw_str(&j, NULL, warn[i]);
		jw_end_arr(&j);
		jw_obj(&j, "daemon");
		jw_str(&j, "state", d.state);
		if (d.running < 0)
			jw_null(&j, "running");
		else
			jw_bool(&j, "running", d.running);
		if (d.have_record) {
			referee_utc(REFEREE_UTC_ISO, d.at, when, sizeof(when));
			jw_int(&j, "pid", d.pid);
			jw_str(&j, "as_of", when);
			jw_str(&j, "detail", d.detail);
		} else {
			jw_null(&j, "pid");
			jw_null(&j, "as_of");
			jw_null(&j, "detail");
		}
		if (d.running < 0)
			jw_str(&j, "lock", lock_note);
		jw_end_obj(&j);
		jw_obj(&j, "outbox");
		jw_int(&j, "waiting", waiting);
		jw_int(&j, "retrying", retrying);
		jw_int(&j, "failed", failed);
		jw_end_obj(&j);
		jw_obj(&j, "spool");
		jw_int(&j, "unread", spooled);
		jw_int(&j, "failed", kept);
		jw_end_obj(&j);
		jw_arr(&j, "games");
		for (i = 0; i < ngames; i++)
			game_json(&j, &games[i]);
		jw_end_arr(&j);
		jw_arr(&j, "campaigns");
		for (i = 0; i < ncamps; i++)
			campaign_json(&j, &camps[i]);
		jw_end_arr(&j);
		jw_end_obj(&j);
		jw_done(&j);
		goto out;
	}
	if (d.running < 0) {
		fprintf(out, "despatchd  unknown: %s\n", lock_note ? lock_note : "");
	} else if (!d.have_record) {
		fprintf(out, "despatchd  %s\n", d.running ? "running (it has said "
		    "nothing yet)" : "never ran on this database");
	} else {
		char when[64];

		referee_utc(REFEREE_UTC_SECS, d.at, when, sizeof(when));
		fprintf(out, "despatchd  %s (pid %lld), as of %s: %s\n",
		    strcmp(d.state, "gone") == 0 ? "gone (it did not stop cleanly)" :
		    d.state, (long long)d.pid, when, d.detail ? d.detail : "");
	}
	fprintf(out, "outbox     %d waiting, %d being retried, %d failed for "
	    "good%s\n", waiting, retrying, failed, failed ?
	    " (see 'despatch outbox')" : "");
	fprintf(out, "spool      %lld taken from the mailbox and not yet read, "
	    "%lld the intake failed on%s\n", (long long)spooled, (long long)kept,
	    kept ? " (kept in the spool table, with the error)" : "");
	/* The games of no campaign first, then each campaign with its
	 * battles under it. */
	for (i = 0; i < ngames; i++)
		if (games[i].campaign[0] == '\0')
			status_game(out, &games[i], 0);
	for (k = 0; k < ncamps; k++) {
		fprintf(out, "campaign   %-16s %s, turn %d of %d, %s%s\n",
		    camps[k].name, camps[k].status, camps[k].turn, camps[k].turns,
		    camps[k].date, camps[k].battles ? ", its battles go on" : "");
		for (i = next_battle(games, ngames, camps[k].name, 0); i >= 0;
		    i = next_battle(games, ngames, camps[k].name, games[i].id))
			status_game(out, &games[i], 2);
	}
	if (d.running == 0)
		fprintf(out, "down       despatchd is not running\n");
	for (i = 0; i < nwarn; i++)
		fprintf(out, "warning    %s\n", warn[i]);
out:
	free(games);
	free(camps);
	free(state);
	free(detail);
	return rc;
}

int
referee_status_unknown(FILE *out, int as_json, const char *why)
{
	if (as_json) {
		struct jw j;

		jw_init(&j, out);
		jw_obj(&j, NULL);
		jw_str(&j, "status", "unknown");
		jw_int(&j, "exit", REFEREE_STATUS_UNKNOWN);
		jw_str(&j, "error", why);
		jw_end_obj(&j);
		jw_done(&j);
	} else {
		fprintf(out, "unknown    %s\n", why);
	}
	return REFEREE_STATUS_UNKNOWN;
}
